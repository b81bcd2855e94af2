// What the chat webview asks of the editor besides chatting: history management, clipboard,
// inserting code, new files, links and the setup commands. Every one is a closed case here: the
// webview never names a command id or a file path the host would act on blindly.
import * as vscode from 'vscode';
import { isOpenableLink } from '../../shared/chatProtocol';
import { openSetting, openSettings } from '../config';
import { MAX_SPEND_PER_REPLY_KEY } from '../../shared/settings';
import type { Log } from '../log';
import type { ChatActionMessage } from '../../core/chat/chatMessageRouter';
import type { ConversationStore } from '../../core/chat/history/conversationStore';
import { exportedImagePath, exportImageFolder, exportMarkdown } from '../../core/chat/history/exportMarkdown';
import { imageFileName, isSettingId, type Conversation } from '../../shared/chatModel';
import type { NoticeAction } from '../../core/chat/chatNotices';

export interface ChatActionHost {
  readonly store: ConversationStore;
  readonly log: Log;
  /** Takes known secrets out of what is written to a file (the export). */
  redact<T>(value: T): T;
  current(): Conversation;
  onRenamed(id: string, title: string): Promise<void>;
  /** Before a delete: a conversation being shown is closed first (its reply stopped), so no later save brings it back. */
  willDelete(id: string): Promise<void>;
  onDeleted(id: string): Promise<void>;
  /** Undo of a delete. */
  onRestored(id: string): void;
  /** Says in the chat what an action came to (see ChatNotices). */
  notice(text: string, severity?: 'info' | 'warning', action?: NoticeAction): void;
  /** The button of a notice was pressed. */
  noticeAction(id: number): Promise<void>;
}

const SETUP_COMMANDS = {
  setApiKey: () => vscode.commands.executeCommand('unifiedInference.setApiKey'),
  openSettings: () => openSettings(),
  showLog: () => vscode.commands.executeCommand('unifiedInference.showLog'),
  refreshCredits: () => vscode.commands.executeCommand('unifiedInference.refreshCredits'),
  openSpendCap: () => openSettings(MAX_SPEND_PER_REPLY_KEY),
} as const;

/** The setting the last reply's error names, when that reply failed (its actions are the ones shown). */
function lastErrorSetting(conversation: Conversation): string | undefined {
  const last = conversation.turns.at(-1);
  const setting = last?.role === 'assistant' ? last.error?.setting : undefined;
  return isSettingId(setting) ? setting : undefined;
}

async function conversationById(host: ChatActionHost, id: string): Promise<Conversation | undefined> {
  return id === host.current().id ? host.current() : host.store.load(id);
}

export async function runChatAction(message: ChatActionMessage, host: ChatActionHost): Promise<void> {
  switch (message.type) {
    case 'runCommand':
      await SETUP_COMMANDS[message.command]();
      return;
    case 'errorAction': {
      // The failed reply's own setting (a proxy's, the CA file's), as the palette commands open it.
      const setting = message.action === 'openSettings' ? lastErrorSetting(host.current()) : undefined;
      if (setting !== undefined) await openSetting(setting);
      else if (message.action !== 'retry') await SETUP_COMMANDS[message.action]();
      return;
    }
    case 'copyText':
      await vscode.env.clipboard.writeText(message.text);
      void vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Copied')}`, 2_000);
      return;
    case 'insertCode':
      return insertCode(message.code, host);
    case 'noticeAction':
      return host.noticeAction(message.id);
    case 'newFile': {
      const document = await vscode.workspace.openTextDocument({
        content: message.code,
        language: knownLanguage(message.language, await vscode.languages.getLanguages()),
      });
      await vscode.window.showTextDocument(document, { preview: false });
      return;
    }
    case 'openLink':
      // The renderer drops other links already; this is the host's own check of untrusted input.
      if (isOpenableLink(message.href)) await vscode.env.openExternal(vscode.Uri.parse(message.href.trim(), true));
      else host.log.warn('The chat asked to open a link that is not http, https or mailto; refused.');
      return;
    case 'renameConversation': {
      const conversation = await conversationById(host, message.id);
      if (!conversation) return;
      const title = await vscode.window.showInputBox({
        title: vscode.l10n.t('Rename Conversation'),
        value: conversation.title,
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A title cannot be empty.')),
      });
      if (!title?.trim()) return;
      if (conversation === host.current()) conversation.title = title.trim();
      await host.store.rename(message.id, title.trim()).catch(() => undefined);
      await host.onRenamed(message.id, title.trim());
      return;
    }
    case 'deleteConversation': {
      await host.willDelete(message.id);
      // Its images go with it; their bytes are held (at most a conversation's cap) while Undo is offered.
      const before = await conversationById(host, message.id);
      const images = before ? await host.store.images?.readAll(message.id, before.turns) : undefined;
      const deleted = await host.store.delete(message.id);
      await host.onDeleted(message.id);
      if (!deleted) return;
      host.notice(vscode.l10n.t('Deleted "{0}".', deleted.title), 'info', {
        label: vscode.l10n.t('Undo'),
        run: async () => {
          host.onRestored(deleted.id);
          if (images?.size) await host.store.images?.restoreAll(deleted.id, deleted.turns, images);
          await host.store.save(deleted);
          await host.onRenamed(deleted.id, deleted.title);
        },
      });
      return;
    }
    case 'exportConversation': {
      const conversation = await conversationById(host, message.id);
      if (!conversation) return;
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const name = `${
        conversation.title
          .replace(/[^\w\- ]+/g, '')
          .trim()
          .slice(0, 60) || 'conversation'
      }.md`;
      const target = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export Conversation'),
        filters: { [vscode.l10n.t('Markdown')]: ['md'] },
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      });
      if (!target) return;
      const links = await exportImages(host, conversation, target);
      await vscode.workspace.fs.writeFile(
        target,
        new TextEncoder().encode(exportMarkdown(host.redact(conversation), (ref) => links.get(ref.id))),
      );
      host.notice(vscode.l10n.t('Exported to {0}.', vscode.workspace.asRelativePath(target)), 'info', {
        label: vscode.l10n.t('Open'),
        run: () => vscode.window.showTextDocument(target),
      });
      return;
    }
  }
}

/**
 * Writes the conversation's images into `<name>.images/` beside the export; the links of those
 * written. An image whose file is gone is left out (the markdown says so).
 */
async function exportImages(
  host: ChatActionHost,
  conversation: Conversation,
  target: vscode.Uri,
): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  const store = host.store.images;
  const refs = conversation.turns.flatMap((turn) => (turn.role === 'user' ? (turn.images ?? []) : []));
  if (!store || refs.length === 0) return links;
  const folderName = exportImageFolder(target.path.split('/').pop() ?? 'conversation.md');
  const folder = vscode.Uri.joinPath(target, '..', folderName);
  for (const ref of refs) {
    if (links.has(ref.id)) continue;
    const bytes = await store.read(conversation.id, ref);
    if (!bytes) continue;
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, imageFileName(ref)), bytes);
    links.set(ref.id, exportedImagePath(folderName, ref));
  }
  return links;
}

/** The fence's language if VS Code knows it (common aliases mapped), else plain text. */
function knownLanguage(language: string, known: readonly string[]): string {
  const aliases: Record<string, string> = {
    ts: 'typescript',
    js: 'javascript',
    py: 'python',
    sh: 'shellscript',
    bash: 'shellscript',
    shell: 'shellscript',
    yml: 'yaml',
    md: 'markdown',
    'c++': 'cpp',
    cs: 'csharp',
  };
  const id = aliases[language.toLowerCase()] ?? language.toLowerCase();
  return known.includes(id) ? id : 'plaintext';
}

/** Documents with no file system behind them that the user types into all the same. */
const EDITABLE_SCHEMES = new Set(['untitled', 'vscode-notebook-cell']);

/** An editor the user can type into: not the Output panel or another read-only view of text. */
function writable(editor: vscode.TextEditor | undefined): editor is vscode.TextEditor {
  const scheme = editor?.document.uri.scheme;
  if (scheme === undefined) return false;
  return EDITABLE_SCHEMES.has(scheme) || vscode.workspace.fs.isWritableFileSystem(scheme) === true;
}

async function insertCode(code: string, host: ChatActionHost): Promise<void> {
  // With the chat in an editor panel there is no active text editor: use the visible one.
  const editor = [vscode.window.activeTextEditor, ...vscode.window.visibleTextEditors].find(writable);
  if (!editor) {
    host.notice(vscode.l10n.t('No editor is open to insert the code into. Open a file, or use New File.'), 'warning');
    return;
  }
  await editor.edit((edit) => {
    for (const selection of editor.selections) edit.replace(selection, code);
  });
}
