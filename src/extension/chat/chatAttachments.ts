// The context a user adds for the next message (shown as chips above the composer): the editor
// selection, the active file, a picked or @-mentioned workspace file. Taken by the next send.
import * as vscode from 'vscode';
import type { Attachment } from '../../shared/chatModel';
import type { HostToChatMessage } from '../../shared/chatProtocol';
import type { ChatDeps } from './chatDeps';
import { documentAttachment, fileAttachment, selectionAttachment } from './editorContext';

export interface AttachmentsHost {
  post(message: HostToChatMessage): void;
  /** The pending attachments changed (the context meter counts them). */
  changed(): void;
}

export class ChatAttachments {
  private list: Attachment[] = [];

  constructor(
    private readonly deps: Pick<ChatDeps, 'files' | 'workspaceFiles'>,
    private readonly host: AttachmentsHost,
  ) {}

  get pending(): readonly Attachment[] {
    return this.list;
  }

  /** Hands the pending attachments to a message being sent, and clears the chips. */
  take(): Attachment[] {
    const taken = this.list;
    this.list = [];
    this.posted();
    return taken;
  }

  /** Adds the editor selection (from "Ask about Selection"); true when there was one. */
  addSelection(editor?: vscode.TextEditor): boolean {
    const attachment = selectionAttachment(editor);
    if (attachment) this.add(attachment);
    return attachment !== undefined;
  }

  async addContext(source: 'selection' | 'activeFile' | 'pickFile'): Promise<void> {
    if (source === 'selection') {
      if (!this.addSelection())
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Select some text in an editor first, then add it to the chat.'),
        );
      return;
    }
    if (source === 'activeFile') {
      const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
      if (editor) this.add(documentAttachment(editor.document));
      else
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Open a file in an editor first, then add it to the chat.'),
        );
      return;
    }
    const path = await this.deps.files.pick();
    if (path) await this.attachFile(path);
  }

  /** A workspace file by path (picked, or typed after @): the file gate decides whether it may go. */
  async attachFile(path: string): Promise<void> {
    const attachment = await fileAttachment(this.deps.workspaceFiles, path);
    if (typeof attachment !== 'string') this.add(attachment);
    else void vscode.window.showWarningMessage(vscode.l10n.t('Could not add {0}: {1}', path, attachment));
  }

  /** Context found for the message being sent (@codebase chunks, an @research report). */
  addFound(found: readonly Attachment[]): void {
    for (const attachment of found) this.add(attachment);
  }

  remove(id: string): void {
    this.list = this.list.filter((attachment) => attachment.id !== id);
    this.posted();
  }

  private add(attachment: Attachment): void {
    // The same range of the same file twice adds nothing.
    const same = this.list.find(
      (a) =>
        a.path === attachment.path &&
        a.kind === attachment.kind &&
        a.startLine === attachment.startLine &&
        a.endLine === attachment.endLine,
    );
    if (!same) this.list.push(attachment);
    this.posted();
  }

  /** Shows the chips as they are (also after a webview reload, without a change). */
  post(): void {
    this.host.post({ type: 'attachments', attachments: this.list });
  }

  private posted(): void {
    this.post();
    this.host.changed();
  }
}
