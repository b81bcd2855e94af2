// The inline diff of an inline edit, drawn in the editor of the file itself.
//
// Why decorations and not proposed lines in the buffer: the extension API has no view zones, so
// added lines could only get room of their own by being inserted into the document (Continue's
// way). Then they are in the document: a save (or auto-save, or a formatter on save) writes them
// to disk before Accept, language servers and other extensions see them, and the user's undo
// stack holds our insertions, so undo during or after the review mixes them with the user's own
// edits. Apply's rule is that nothing is written before Accept and that one Accept is one undo
// step; decorations keep that rule without exceptions: the document holds only the user's text
// until Accept, a save during the review saves exactly that, Reject has nothing to take back, and
// Accept is a single WorkspaceEdit. The cost is how added lines look: they are shown after line
// ends (inlineDiffLines.ts), each change's full proposed text in its hover.
import * as vscode from 'vscode';
import { inlineChangeViews } from '../../core/inlineEdit/inlineDiffLines';
import { hasHiddenCharacters, visibleText } from '../../shared/visibleControls';
import type { InlineEditSession } from './inlineEditSession';

/** A line as shown: what acts without being seen becomes a badge, but a tab stays a tab (it is indentation, seen as such). */
function shown(line: string): string {
  return line.split('\t').map(visibleText).join('\t');
}

function hides(line: string): boolean {
  return hasHiddenCharacters(line.replaceAll('\t', ''));
}

export interface DrawnChange {
  readonly index: number;
  readonly anchor: number;
  readonly removed: readonly number[];
  /** The added lines as shown: hidden characters (bidi overrides, zero-width) written as visible badges. */
  readonly added: readonly string[];
  /** Whether the added lines hold characters that act without being seen. */
  readonly hidden: boolean;
}

export class InlineDiffDecorations implements vscode.Disposable {
  private readonly removed: vscode.TextEditorDecorationType;
  private readonly added: vscode.TextEditorDecorationType;
  private readonly pending: vscode.TextEditorDecorationType;

  constructor(extensionUri: vscode.Uri) {
    // The removed text only (not the whole line): the added text after it keeps its own colour.
    this.removed = vscode.window.createTextEditorDecorationType({
      backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
      textDecoration: 'line-through',
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
      gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'inline-edit-removed.svg'),
      gutterIconSize: 'contain',
    });
    this.added = vscode.window.createTextEditorDecorationType({
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
      after: {
        backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
        color: new vscode.ThemeColor('editor.foreground'),
        margin: '0 0 0 3ch',
      },
    });
    this.pending = vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    });
  }

  /** The changes of a session against the document's text now (the lenses and hover use them too). */
  changesOf(session: InlineEditSession, document: vscode.TextDocument): DrawnChange[] {
    const views = inlineChangeViews(session.hunksFor(document.getText()), document.lineCount);
    // Ghost text and hovers are not the editor's text, so its Unicode highlighting does not apply there: badges do it.
    return views.map((view, index) => ({
      index,
      anchor: view.anchor,
      removed: view.removed,
      added: view.added.map(shown),
      hidden: view.added.some(hides),
    }));
  }

  draw(editor: vscode.TextEditor, session: InlineEditSession | undefined): void {
    if (!session || session.state === 'ended') {
      this.clear(editor);
      return;
    }
    const document = editor.document;
    const text = document.getText();
    const views = inlineChangeViews(session.hunksFor(text), document.lineCount);
    const line = (n: number): vscode.Range => document.lineAt(Math.min(n, document.lineCount - 1)).range;
    editor.setDecorations(
      this.removed,
      views.flatMap((view) => view.removed.map((n) => line(n))),
    );
    editor.setDecorations(
      this.added,
      views.flatMap((view) =>
        view.ghosts.map((ghost) => ({
          range: new vscode.Range(line(ghost.line).end, line(ghost.line).end),
          renderOptions: { after: { contentText: shown(ghost.text) } },
        })),
      ),
    );
    const scope = session.state === 'streaming' ? session.scopeIn(text) : undefined;
    editor.setDecorations(
      this.pending,
      scope && scope.end > scope.start
        ? [new vscode.Range(scope.start, 0, Math.max(scope.start, scope.end - 1), 0)]
        : [],
    );
  }

  clear(editor: vscode.TextEditor): void {
    editor.setDecorations(this.removed, []);
    editor.setDecorations(this.added, []);
    editor.setDecorations(this.pending, []);
  }

  dispose(): void {
    this.removed.dispose();
    this.added.dispose();
    this.pending.dispose();
  }
}
