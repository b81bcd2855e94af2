import { assertNever } from '../../shared/assertNever';
import * as vscode from 'vscode';
import type { ImageGenerationRequest } from '../../core/types/media';
import type { ImageType } from '../../core/images/imageType';
import { parseGalleryToHostMessage, type GalleryFailure, type GalleryImage, type GalleryToHostMessage, type HostToGalleryMessage } from '../../shared/galleryProtocol';
import { readSettings } from '../config';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { WebviewChannel } from '../webview/webviewChannel';
import { buildWebviewHtml, webviewOptions } from '../webview/webviewHtml';
import { imageFileName, imageFolderSegments, markdownImageLink, type ImageFailure, type ReceivedImage } from '../../core/media/imageData';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { errorMessage } from '../../shared/errorMessage';

const GALLERY_PANEL_TYPE = 'unifiedInference.imageGallery';
/** Images kept in the panel (and in memory); older ones drop out, saved files stay on disk. */
const KEEP_IMAGES = 24;
/** Failure cards kept: enough for the last few answers. */
const KEEP_FAILURES = 12;

export interface GalleryEntry {
  readonly image: GalleryImage;
  readonly bytes: Uint8Array;
  /** Read from the bytes: what the file is saved as. */
  readonly type: ImageType;
  /** What produced it, so Regenerate can ask again. */
  readonly request: ImageGenerationRequest;
  saved?: vscode.Uri;
}

/**
 * The image gallery: one editor panel, reused, newest images first. The host holds the images;
 * a webview that (re)loads gets them all again after `ready`.
 */
export class ImageGallery extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private channel: WebviewChannel<GalleryToHostMessage, HostToGalleryMessage> | undefined;
  private sequence = 0;
  private busy: string | undefined;
  private readonly entryList: GalleryEntry[] = [];
  private readonly failureList: GalleryFailure[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Log,
    private readonly regenerate: (request: ImageGenerationRequest) => Promise<unknown>,
    /** Takes known keys out of what the webview gets (revised prompts and failures are the gateway's text). */
    private readonly redact: <T>(value: T) => T,
    /** The gate every write into the workspace goes through (no write through a link leading out). */
    private readonly workspaceFiles: WorkspaceFilesService,
  ) {
    super();
    this._register({ dispose: () => { this.panel?.dispose(); } });
  }

  get entries(): readonly GalleryEntry[] {
    return this.entryList;
  }

  /** Images that did not arrive (the others of their answer are added as usual). */
  get failures(): readonly GalleryFailure[] {
    return this.failureList;
  }

  add(request: ImageGenerationRequest, images: readonly ReceivedImage[]): GalleryEntry[] {
    const added = images.map(({ bytes, type, revisedPrompt }) => ({
      bytes,
      type,
      request,
      image: {
        id: `img-${++this.sequence}`,
        prompt: request.prompt,
        revisedPrompt,
        model: request.model,
        size: String(request.size ?? ''),
        quality: String(request.quality ?? ''),
        base64: Buffer.from(bytes).toString('base64'),
        mime: type.mime,
        typeLabel: type.label,
      },
    }));
    this.entryList.unshift(...added);
    this.entryList.splice(KEEP_IMAGES);
    this.show();
    this.post({ type: 'images', images: added.map((entry) => entry.image) });
    return added;
  }

  /** Shows a card for each image of an answer that could not be kept, saying why. */
  addFailures(request: ImageGenerationRequest, failures: readonly ImageFailure[]): GalleryFailure[] {
    const added = failures.map((failure) => ({ id: `fail-${++this.sequence}`, prompt: request.prompt, position: failure.position, message: failure.message }));
    this.failureList.unshift(...added);
    this.failureList.splice(KEEP_FAILURES);
    this.show();
    this.post({ type: 'failures', failures: added });
    return added;
  }

  setBusy(message: string | undefined): void {
    this.busy = message;
    if (message) this.show();
    this.post({ type: 'busy', message });
  }

  show(): void {
    if (this.panel) {
      this.panel.reveal(undefined, true);
      return;
    }
    const title = vscode.l10n.t('Unified Inference Images');
    const panel = vscode.window.createWebviewPanel(GALLERY_PANEL_TYPE, title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, webviewOptions(this.extensionUri));
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'unified-inference.svg');
    panel.webview.html = buildWebviewHtml(panel.webview, this.extensionUri, { title, script: 'gallery', styles: ['media/webview.css', 'media/gallery.css'] });
    const channel = new WebviewChannel<GalleryToHostMessage, HostToGalleryMessage>(panel.webview, {
      name: 'image gallery',
      parse: parseGalleryToHostMessage,
      receive: (message) => this.handle(message),
      redact: this.redact,
      log: this.log,
      // The answer to `ready` is every image and failure held, and the busy line.
      keepAfterReady: () => false,
    });
    this.panel = panel;
    this.channel = channel;
    panel.onDidDispose(() => {
      channel.dispose();
      if (this.panel === panel) {
        this.panel = undefined;
        this.channel = undefined;
      }
    });
  }

  /** A message from the open webview, unchecked (public so tests can drive the same path a click does). */
  async receive(raw: unknown): Promise<void> {
    await this.channel?.receive(raw);
  }

  private async handle(message: GalleryToHostMessage): Promise<void> {
    if (message.type === 'ready') {
      // Oldest first, so the webview's "newest on top" order comes out the same.
      this.post({ type: 'failures', failures: [...this.failureList].reverse() });
      this.post({ type: 'images', images: [...this.entryList].reverse().map((entry) => entry.image) });
      if (this.busy) this.post({ type: 'busy', message: this.busy });
      return;
    }
    const entry = this.entryList.find((candidate) => candidate.image.id === message.id);
    if (!entry) return this.notice(vscode.l10n.t('That image is no longer in the gallery.'));
    try {
      switch (message.type) {
        case 'save':
          await this.save(entry);
          return;
        case 'copyLink':
          await this.copyLink(entry);
          return;
        case 'regenerate':
          await this.regenerate(entry.request);
          return;
        default:
          assertNever(message);
      }
    } catch (error) {
      this.notice(errorMessage(error));
    }
  }

  /** Writes the image (with the extension of its type) into the images folder of the first workspace folder (workspace.fs: remote folders work too). */
  async save(entry: GalleryEntry): Promise<vscode.Uri | undefined> {
    if (entry.saved) return entry.saved;
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    const segments = imageFolderSegments(readSettings().images.folder);
    if (!root) return this.notice(vscode.l10n.t('Open a folder first: images are saved into the workspace.'));
    if (!segments) return this.notice(vscode.l10n.t('unifiedInference.images.folder must be a relative folder inside the workspace.'));
    const folder = vscode.Uri.joinPath(root, ...segments);
    const index = this.entryList.filter((e) => e.request === entry.request).indexOf(entry);
    const target = vscode.Uri.joinPath(folder, imageFileName(entry.image.prompt, new Date(), Math.max(0, index), entry.type.extension));
    // Checked before the folder is made (creating it through a link would already write outside)
    // and again before the file is written.
    const refusal = await this.outsideWorkspace(target);
    if (refusal) return this.notice(refusal);
    await vscode.workspace.fs.createDirectory(folder);
    const late = await this.outsideWorkspace(target);
    if (late) return this.notice(late);
    await vscode.workspace.fs.writeFile(target, entry.bytes);
    entry.saved = target;
    const savedPath = vscode.workspace.asRelativePath(target, false);
    this.post({ type: 'saved', id: entry.image.id, savedPath });
    void vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Image saved to {0}', savedPath), 4000);
    return target;
  }

  /**
   * Why `target` may not be written: its real path (through links, also of folders still to be
   * made) leaves the workspace folders. Folders on other file systems (a virtual workspace) have
   * no links to follow and are written as they are.
   */
  private async outsideWorkspace(target: vscode.Uri): Promise<string | undefined> {
    if (target.scheme !== 'file') return undefined;
    const placed = await (await this.workspaceFiles.open()).place(target.fsPath);
    return placed.ok ? undefined : vscode.l10n.t('The image was not saved: {0} Choose another folder in {1}.', placed.message, 'unifiedInference.images.folder');
  }

  async copyLink(entry: GalleryEntry): Promise<string | undefined> {
    if (!entry.saved) return this.notice(vscode.l10n.t('Save the image to the workspace first: the link points at the saved file.'));
    const link = markdownImageLink(entry.image.revisedPrompt || entry.image.prompt, vscode.workspace.asRelativePath(entry.saved, false));
    await vscode.env.clipboard.writeText(link);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Markdown link copied'), 4000);
    return link;
  }

  private notice(message: string): undefined {
    this.post({ type: 'notice', message });
    return undefined;
  }

  private post(message: HostToGalleryMessage): void {
    this.channel?.post(message);
  }
}
