// The diff a person reviews before a model's edit runs: a unified diff (git style for creations,
// deletions and renames), built with jsdiff from the texts the edit will really write, line
// endings shown as LF (a CRLF file would otherwise show a `\r` on every line). Cut for display:
// the chat card is not the place for a 10,000-line diff; Open Diff shows the whole change.
import { createTwoFilesPatch } from 'diff';
import { withLineEnding } from './lineEndings';

/** Lines of diff shown on a card at most. */
export const MAX_REVIEW_LINES = 400;
/** Characters of diff shown on a card at most (the step is stored with the conversation). */
const MAX_REVIEW_CHARS = 30_000;

export interface ReviewDiff {
  /** The diff, possibly cut (then `truncated`). */
  readonly text: string;
  readonly truncated: boolean;
  readonly added: number;
  readonly removed: number;
}

export interface ReviewedChange {
  /** Workspace path before the change (absent: the file is created). */
  readonly oldPath?: string;
  /** Workspace path after the change (absent: the file is deleted). */
  readonly newPath?: string;
  /** The text before (absent for a creation, or when it cannot be shown: see `oldNote`). */
  readonly oldText?: string;
  readonly newText?: string;
  /** Said in place of the old text when it is not shown (a binary or very large file). */
  readonly oldNote?: string;
}

/** The review diff of one file's change. */
export function reviewDiff(change: ReviewedChange): ReviewDiff {
  const header: string[] = [];
  const oldName = change.oldPath ? `a/${change.oldPath}` : '/dev/null';
  const newName = change.newPath ? `b/${change.newPath}` : '/dev/null';
  if (change.oldPath && change.newPath && change.oldPath !== change.newPath)
    header.push(`rename from ${change.oldPath}`, `rename to ${change.newPath}`);
  if (!change.oldPath) header.push('new file');
  if (!change.newPath) header.push('deleted file');
  if (change.oldNote) header.push(change.oldNote);
  const oldText = withLineEnding(change.oldText ?? '', '\n');
  const newText = withLineEnding(change.newText ?? '', '\n');
  let body: string[] = [];
  if (oldText !== newText) {
    // createTwoFilesPatch starts with an `Index:`-less "====" rule line: dropped.
    body = createTwoFilesPatch(oldName, newName, oldText, newText, undefined, undefined, { context: 3 })
      .split('\n')
      .filter((line) => !/^={10,}$/.test(line));
    while (body.length && body[body.length - 1] === '') body.pop();
  } else if (change.oldPath === change.newPath && !change.oldNote) {
    header.push('(no change)');
  }
  let added = 0;
  let removed = 0;
  for (const line of body) {
    if (line.startsWith('+') && !line.startsWith('+++ ')) added++;
    else if (line.startsWith('-') && !line.startsWith('--- ')) removed++;
  }
  const all = [...header, ...body];
  let shown = all.slice(0, MAX_REVIEW_LINES);
  let text = shown.join('\n');
  if (text.length > MAX_REVIEW_CHARS) {
    text = text.slice(0, MAX_REVIEW_CHARS);
    text = text.slice(0, Math.max(0, text.lastIndexOf('\n')));
    shown = text.split('\n');
  }
  return { text, truncated: shown.length < all.length, added, removed };
}
