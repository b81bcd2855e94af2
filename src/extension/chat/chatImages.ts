// The images a user adds for the next message (pasted, dropped, or picked with the attach button),
// shown as thumbnails above the composer and taken by the next send. The webview's bytes are
// untrusted: the type is read from the magic number and the size capped here, on the host
// (chatImageStore.ts), whatever the webview checked. Only models whose catalog entry says they
// read images get them; for the others the chat says so and nothing is stored or sent.
import { realpath } from 'node:fs/promises';
import * as vscode from 'vscode';
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE, type Conversation, type ImageRef } from '../../shared/chatModel';
import type { HostToChatMessage } from '../../shared/chatProtocol';
import { decodeBase64 } from '../../core/images/chatImage';
import { readPrefix } from '../../core/workspaceFiles/boundedRead';
import { formatByteSize } from '../../core/limits';
import { takesImages } from '../../core/models/modelFeatures';
import { errorMessage } from '../../shared/errorMessage';
import { SerialQueue } from '../../shared/serialQueue';
import type { ChatDeps } from './chatDeps';
import { chooseChatModel } from './chatModels';

export interface ImagesHost {
  post(message: HostToChatMessage): void;
  conversation(): Conversation;
  /** Says something in the chat (a refused image). */
  notice(text: string): void;
  /** The pending images changed (the context meter counts them). */
  changed(): void;
}

export class ChatImages {
  private list: ImageRef[] = [];
  /** The conversation the pending images are stored under. */
  private ownerId: string | undefined;
  /**
   * Adds run one at a time: each webview message is handled on its own, and a check of the caps
   * before an await would otherwise let a burst of pastes or drops through all together.
   */
  private readonly adding = new SerialQueue();

  constructor(
    private readonly deps: Pick<ChatDeps, 'store' | 'catalog' | 'workspaceState'>,
    private readonly host: ImagesHost,
  ) {}

  get pending(): readonly ImageRef[] {
    return this.ownerId === this.host.conversation().id ? this.list : [];
  }

  /** Hands the pending images to a message being sent, and clears the thumbnails. */
  take(): ImageRef[] {
    const taken = [...this.pending];
    this.list = [];
    this.post();
    return taken;
  }

  /** Whether the conversation's model reads images (its catalog entry says so). */
  modelTakesImages(): boolean {
    const id = this.host.conversation().model || chooseChatModel(this.deps);
    return takesImages(id ? this.deps.catalog.model(id) : undefined);
  }

  /** Why images cannot be added now, or undefined when they can. */
  private refusal(adding: number): string | undefined {
    if (!this.deps.store.images) return vscode.l10n.t('Images cannot be stored in this window.');
    if (!this.modelTakesImages())
      return vscode.l10n.t(
        'The selected model does not take images (its catalog entry lists no image input). Pick a model that does to send images; nothing was attached.',
      );
    if (this.pending.length + adding > MAX_IMAGES_PER_MESSAGE)
      return vscode.l10n.t('At most {0} images can go with one message.', MAX_IMAGES_PER_MESSAGE);
    return undefined;
  }

  /** A pasted or dropped image (base64 from the webview). */
  async addData(name: string, data: string): Promise<void> {
    const bytes = decodeBase64(data);
    if (!bytes) return this.host.notice(vscode.l10n.t('Could not add {0}: the data is not an image.', name));
    await this.add(name, bytes);
  }

  /** The attach button: a file picker for images. */
  async pick(): Promise<void> {
    const refused = this.refusal(1);
    if (refused) return this.host.notice(refused);
    const uris = await vscode.window.showOpenDialog({
      canSelectMany: true,
      openLabel: vscode.l10n.t('Attach'),
      title: vscode.l10n.t('Attach images'),
      filters: { [vscode.l10n.t('Images')]: ['png', 'jpg', 'jpeg', 'gif', 'webp'] },
    });
    for (const uri of uris ?? []) {
      const name = uri.path.split('/').pop() ?? 'image';
      try {
        const picked = await readPicked(uri);
        if (picked === 'notAFile')
          this.host.notice(vscode.l10n.t('Could not add {0}: it is not a regular file.', name));
        else if (picked === 'tooLarge')
          this.host.notice(
            vscode.l10n.t(
              'Could not add {0}: it is over {1}, the most one image may weigh.',
              name,
              formatByteSize(MAX_IMAGE_BYTES),
            ),
          );
        else await this.add(name, picked);
      } catch (error) {
        this.host.notice(vscode.l10n.t('Could not add {0}: {1}', name, errorMessage(error)));
      }
    }
  }

  async remove(id: string): Promise<void> {
    const ref = this.list.find((image) => image.id === id);
    if (!ref) return;
    this.list = this.list.filter((image) => image !== ref);
    this.post();
    // The file stays while a sent message of the conversation shows the same image.
    const conversation = this.host.conversation();
    const used = conversation.turns.some((turn) => turn.role === 'user' && turn.images?.some((i) => i.id === id));
    if (!used && this.ownerId === conversation.id) await this.deps.store.images?.remove(conversation.id, ref);
  }

  /**
   * Deletes the files of images left waiting in a conversation the user moved away from (its
   * thumbnails are dropped now): they would weigh on its cap unseen. An image one of its sent
   * messages shows stays (the same image is stored once).
   */
  private async discard(conversationId: string, refs: readonly ImageRef[]): Promise<void> {
    const store = this.deps.store.images;
    if (!store) return;
    const saved = await this.deps.store.load(conversationId).catch(() => undefined);
    const shown = new Set(
      saved?.turns.flatMap((turn) => (turn.role === 'user' ? (turn.images ?? []).map((ref) => ref.id) : [])),
    );
    for (const ref of refs) if (!shown.has(ref.id)) await store.remove(conversationId, ref).catch(() => undefined);
  }

  /**
   * Deletes the files of images whose turns were removed (an edit-and-resend drops the turns after
   * the edited one), unless a turn left or the images waiting for the next message still show them:
   * unseen, they would count toward the conversation's cap.
   */
  async dropUnused(conversation: Conversation, refs: readonly ImageRef[]): Promise<void> {
    const store = this.deps.store.images;
    if (!store) return;
    const shown = new Set([
      ...conversation.turns.flatMap((turn) => (turn.role === 'user' ? (turn.images ?? []).map((ref) => ref.id) : [])),
      ...(this.ownerId === conversation.id ? this.list.map((ref) => ref.id) : []),
    ]);
    for (const ref of refs) if (!shown.has(ref.id)) await store.remove(conversation.id, ref).catch(() => undefined);
  }

  /** Shows the thumbnails as they are (also after a webview reload, or when the conversation changed). */
  post(): void {
    this.host.post({ type: 'images', images: this.pending });
    this.host.changed();
  }

  private add(name: string, bytes: Uint8Array): Promise<void> {
    return this.adding.run(() => this.addNow(name, bytes));
  }

  private async addNow(name: string, bytes: Uint8Array): Promise<void> {
    const refused = this.refusal(1);
    const store = this.deps.store.images;
    if (refused || !store) return this.host.notice(refused ?? '');
    const conversation = this.host.conversation();
    if (this.ownerId !== conversation.id) {
      const [abandoned, previousOwner] = [this.list, this.ownerId];
      [this.list, this.ownerId] = [[], conversation.id];
      if (previousOwner && abandoned.length) await this.discard(previousOwner, abandoned);
    }
    const ref = await store.add(conversation.id, bytes, name);
    if (typeof ref === 'string') return this.host.notice(vscode.l10n.t('Could not add {0}: {1}', name, ref));
    if (this.ownerId !== conversation.id || this.list.some((image) => image.id === ref.id)) return this.post();
    this.list.push(ref);
    this.post();
  }
}

/**
 * A picked file's bytes, read only from a regular file (a FIFO or a device named *.png would block
 * the read or never end) and never more than one byte past the cap, whatever stat said (a file may
 * grow, or a file system report no size).
 */
async function readPicked(uri: vscode.Uri): Promise<Uint8Array | 'notAFile' | 'tooLarge'> {
  const { type, size } = await vscode.workspace.fs.stat(uri);
  if ((type & vscode.FileType.File) === 0) return 'notAFile';
  if (size > MAX_IMAGE_BYTES) return 'tooLarge';
  if (uri.scheme !== 'file') return vscode.workspace.fs.readFile(uri);
  // The link resolved first: the bounded read opens without following links, and refuses what is
  // not a regular file on the handle it reads (the path may have been swapped since the stat).
  const prefix = await readPrefix(await realpath(uri.fsPath), MAX_IMAGE_BYTES + 1);
  return prefix.bytes.byteLength > MAX_IMAGE_BYTES ? 'tooLarge' : prefix.bytes;
}
