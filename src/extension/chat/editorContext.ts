// Editor context a user adds to a chat message: the selection, the active file, or any workspace
// file (a picker, or an @file mention completed from workspace paths). The picker and the @
// completions offer what WorkspaceFilesService shares (no excluded, .gitignored or sensitive
// files), and a path typed by hand is checked by the same service.
import * as vscode from 'vscode';
import type { Attachment } from '../../shared/chatModel';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { newId } from '../../shared/ids';

/** Attachments beyond this are cut (and marked so): a model's context is finite and costs credits. */
const MAX_ATTACHMENT_CHARS = 100_000;

function capped(text: string): { text: string; truncated?: true } {
  return text.length > MAX_ATTACHMENT_CHARS ? { text: text.slice(0, MAX_ATTACHMENT_CHARS), truncated: true } : { text };
}

/** The selection of the active editor (its whole line when nothing is selected), or undefined. */
export function selectionAttachment(editor = vscode.window.activeTextEditor): Attachment | undefined {
  if (!editor) return undefined;
  const selection = editor.selection;
  const range = selection.isEmpty ? editor.document.lineAt(selection.active.line).range : selection;
  const text = editor.document.getText(range);
  if (!text.trim()) return undefined;
  return {
    id: newId('att'),
    kind: 'selection',
    path: relativePath(editor.document.uri),
    startLine: range.start.line + 1,
    endLine: range.end.line + 1,
    languageId: editor.document.languageId,
    ...capped(text),
  };
}

export function documentAttachment(document: vscode.TextDocument): Attachment {
  return {
    id: newId('att'),
    kind: 'file',
    path: relativePath(document.uri),
    languageId: document.languageId,
    ...capped(document.getText()),
  };
}

/** A finished research job's report (@research): its title as the label, the text capped like any attachment. */
export function researchAttachment(title: string, report: string): Attachment {
  return { id: newId('att'), kind: 'research', path: title, languageId: 'markdown', ...capped(report) };
}

/** A chunk of a workspace file a codebase search found (@codebase): its lines (1-based) and their text. */
export function chunkAttachment(path: string, startLine: number, endLine: number, text: string): Attachment {
  return { id: newId('att'), kind: 'selection', path, startLine, endLine, ...capped(text) };
}

function relativePath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** A workspace file as an attachment, or why it cannot be one (outside, excluded, sensitive, binary). */
export async function fileAttachment(service: WorkspaceFilesService, path: string): Promise<Attachment | string> {
  const files = await service.open();
  const resolved = await files.resolve(path);
  if (!resolved.ok) return resolved.message;
  const file = resolved.file;
  // Sent as soon as the message is: a secret would leave without the question a tool call gets.
  if (file.sensitive.length)
    return vscode.l10n.t(
      '{0} is a sensitive file (keys, credentials, .env): it is not attached by path. Open it and use Add Active File if you mean to send it.',
      file.sensitive.join(', '),
    );
  const open = vscode.workspace.textDocuments.find(
    (document) => document.uri.toString() === service.uri(files, file).toString(),
  );
  if (open) return documentAttachment(open); // what the editor shows, unsaved edits included
  // Read no further than an attachment may hold (up to 4 bytes a character).
  const content = await files.read(file, MAX_ATTACHMENT_CHARS * 4).catch(() => undefined);
  if (!content) return vscode.l10n.t('No file {0} in the workspace.', path);
  if (content.kind === 'binary') return vscode.l10n.t('{0} is a binary file.', file.display);
  const text = capped(content.text);
  // Unopened, the file has no language id; its extension labels the code fence just as well.
  const extension = /\.([A-Za-z0-9]{1,10})$/.exec(file.path)?.[1];
  return {
    id: newId('att'),
    kind: 'file',
    path: file.display,
    ...(extension ? { languageId: extension.toLowerCase() } : {}),
    ...text,
    ...(content.truncated ? { truncated: true } : {}),
  };
}
