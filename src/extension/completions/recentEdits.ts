// The documents the user edited lately and where: completions borrow snippets from them (the code
// being written alongside is the best hint of what comes next). A few entries only, cheap to keep:
// one Map update per text change, no text copied.
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';

/** How many recently edited documents are remembered. */
const RECENT_EDITS_KEPT = 8;

export interface RecentEdit {
  readonly uri: vscode.Uri;
  readonly languageId: string;
  /** The line of the last change. */
  readonly line: number;
}

export class RecentEdits extends Disposable {
  private readonly edits = new Map<string, RecentEdit>();

  constructor() {
    super();
    this._register(vscode.workspace.onDidChangeTextDocument((event) => this.note(event)));
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.edits.delete(document.uri.toString())));
  }

  /** The most recent first, of one language, without `except`. */
  of(languageId: string, except: vscode.Uri): RecentEdit[] {
    const skip = except.toString();
    return [...this.edits.entries()]
      .reverse()
      .filter(([key, edit]) => key !== skip && edit.languageId === languageId)
      .map(([, edit]) => edit);
  }

  private note(event: vscode.TextDocumentChangeEvent): void {
    const change = event.contentChanges[0];
    const document = event.document;
    if (!change || (document.uri.scheme !== 'file' && document.uri.scheme !== 'untitled')) return;
    const key = document.uri.toString();
    this.edits.delete(key);
    this.edits.set(key, { uri: document.uri, languageId: document.languageId, line: change.range.start.line });
    if (this.edits.size > RECENT_EDITS_KEPT) {
      const oldest = this.edits.keys().next().value;
      if (oldest !== undefined) this.edits.delete(oldest);
    }
  }
}
