// Editor context a user adds to a chat message: the selection, the active file, or any workspace
// file (a picker, or an @file mention completed from workspace paths).
import * as vscode from 'vscode';
import type { Attachment } from '../../shared/chatModel';
import { newId } from './chatIds';
import { relativePath, resolveWorkspacePath } from './workspaceTools';

/** Attachments beyond this are cut (and marked so): a model's context is finite and costs credits. */
export const MAX_ATTACHMENT_CHARS = 100_000;
const FILE_LIST_LIMIT = 5_000;
const FILE_LIST_TTL_MS = 10_000;


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
  return { id: newId('att'), kind: 'file', path: relativePath(document.uri), languageId: document.languageId, ...capped(document.getText()) };
}

export async function fileAttachment(path: string): Promise<Attachment | undefined> {
  const uri = resolveWorkspacePath(path);
  if (!uri) return undefined;
  try {
    return documentAttachment(await vscode.workspace.openTextDocument(uri));
  } catch {
    return undefined;
  }
}

/** Workspace file paths, cached briefly so @file completion does not search on every key. */
export class WorkspaceFileIndex {
  private cached: { at: number; paths: string[] } | undefined;

  async paths(): Promise<string[]> {
    if (this.cached && Date.now() - this.cached.at < FILE_LIST_TTL_MS) return this.cached.paths;
    const files = await vscode.workspace.findFiles('**/*', undefined, FILE_LIST_LIMIT);
    const paths = files.map(relativePath).sort();
    this.cached = { at: Date.now(), paths };
    return paths;
  }

  /** Paths containing every character of `query` in order, best (shortest, name match) first. */
  async suggest(query: string, limit = 20): Promise<string[]> {
    const q = query.toLowerCase();
    const scored = (await this.paths()).flatMap((path) => {
      const lower = path.toLowerCase();
      const name = lower.slice(lower.lastIndexOf('/') + 1);
      if (name.startsWith(q)) return [{ path, score: 0 }];
      if (lower.includes(q)) return [{ path, score: 1 }];
      let at = 0;
      for (const ch of q) {
        at = lower.indexOf(ch, at);
        if (at < 0) return [];
        at++;
      }
      return [{ path, score: 2 }];
    });
    return scored.sort((a, b) => a.score - b.score || a.path.length - b.path.length).slice(0, limit).map((entry) => entry.path);
  }

  async pick(): Promise<string | undefined> {
    const paths = await this.paths();
    if (paths.length === 0) {
      void vscode.window.showInformationMessage('The workspace has no files to add (open a folder first).');
      return undefined;
    }
    return vscode.window.showQuickPick(paths, { title: 'Add a File to the Chat', placeHolder: 'Type to filter workspace files', matchOnDescription: true });
  }
}
