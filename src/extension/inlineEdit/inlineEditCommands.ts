// Inline edit's command ids, the context keys its keybindings read, and the lines a command works
// on (the scope) taken from the editor's selection.
import * as vscode from 'vscode';
import type { LineScope } from '../../core/inlineEdit/lineScope';
import type { SessionState } from './inlineEditSession';

export const INLINE_EDIT_COMMANDS = {
  start: 'unifiedInference.inlineEdit.start',
  acceptAll: 'unifiedInference.inlineEdit.acceptAll',
  rejectAll: 'unifiedInference.inlineEdit.rejectAll',
  acceptChange: 'unifiedInference.inlineEdit.acceptChange',
  rejectChange: 'unifiedInference.inlineEdit.rejectChange',
  stop: 'unifiedInference.inlineEdit.stop',
  showWarning: 'unifiedInference.inlineEdit.showWarning',
} as const;

/** Context keys of the active editor, for the review's keybindings (package.json `when` clauses). */
const REVIEWING = 'unifiedInference.inlineEdit.reviewing';
const STREAMING = 'unifiedInference.inlineEdit.streaming';

/** The context keys for the active editor's session state (undefined: no session). */
export function setInlineEditContext(state: SessionState | undefined): void {
  void vscode.commands.executeCommand('setContext', REVIEWING, state === 'review');
  void vscode.commands.executeCommand('setContext', STREAMING, state === 'streaming');
}

/**
 * The whole lines of the selection: a selection ending at the start of a line does not take that
 * line; no selection takes the cursor's line (an empty line: the code is written there).
 */
export function scopeOf(editor: vscode.TextEditor): LineScope {
  const selection = editor.selection;
  const start = selection.start.line;
  const end = selection.isEmpty
    ? start + 1
    : selection.end.character === 0 && selection.end.line > start
      ? selection.end.line
      : selection.end.line + 1;
  return { start, end: Math.min(end, editor.document.lineCount) };
}
