// A proposed change to a file as hunks: each run of changed lines between unchanged ones, so the
// review can accept or reject one without the others. Lines keep their terminators ("a\r\n"), so a
// hunk written back gives the file byte for byte (a missing newline at the end is just a different
// last line). The diff itself is jsdiff's (Myers), on whole lines.
import { diffArrays } from 'diff';
import { splitLines } from '../edits/lineEndings';

// The one line splitter of core (it lives with the line-ending rules); re-exported for the callers of hunks.
export { splitLines };

export interface Hunk {
  /** First changed line in the current text (0-based); for a pure insertion, the line it goes before. */
  readonly oldStart: number;
  readonly oldLines: readonly string[];
  /** First line of the change in the proposal (0-based). */
  readonly newStart: number;
  readonly newLines: readonly string[];
}

/** The hunks that turn `current` into `proposal`, in order. */
export function computeHunks(current: string, proposal: string): Hunk[] {
  const hunks: Hunk[] = [];
  let oldLine = 0;
  let newLine = 0;
  let open: { oldStart: number; newStart: number; oldLines: string[]; newLines: string[] } | undefined;
  for (const part of diffArrays(splitLines(current), splitLines(proposal))) {
    const count = part.value.length;
    if (!part.added && !part.removed) {
      if (open) hunks.push(open);
      open = undefined;
      oldLine += count;
      newLine += count;
      continue;
    }
    open ??= { oldStart: oldLine, newStart: newLine, oldLines: [], newLines: [] };
    if (part.removed) {
      open.oldLines.push(...part.value);
      oldLine += count;
    } else {
      open.newLines.push(...part.value);
      newLine += count;
    }
  }
  if (open) hunks.push(open);
  return hunks;
}

/** `text` with `count` lines from `start` replaced by `lines`. */
function replaceLines(text: string, start: number, count: number, lines: readonly string[]): string {
  const all = splitLines(text);
  all.splice(start, count, ...lines);
  return all.join('');
}

/** The character offsets in `text` of the start of line `start` and of line `start + count` (end of text past the last). */
export function lineRangeOffsets(text: string, start: number, count: number): { start: number; end: number } {
  const lines = splitLines(text);
  let offset = 0;
  for (let i = 0; i < start && i < lines.length; i++) offset += (lines[i] as string).length;
  let end = offset;
  for (let i = start; i < start + count && i < lines.length; i++) end += (lines[i] as string).length;
  return { start: offset, end };
}

/** `current` with one hunk of its proposal taken (the rest of the file as it is). */
export function applyHunk(current: string, hunk: Hunk): string {
  return replaceLines(current, hunk.oldStart, hunk.oldLines.length, hunk.newLines);
}

/** `proposal` with one hunk given up: that region goes back to what the current text has. */
export function revertHunk(proposal: string, hunk: Hunk): string {
  return replaceLines(proposal, hunk.newStart, hunk.newLines.length, hunk.oldLines);
}

/** Whether two hunks against the same text touch: overlapping lines, or an insertion at the edge of the other. */
function touches(a: Hunk, b: Hunk): boolean {
  const aEnd = a.oldStart + a.oldLines.length;
  const bEnd = b.oldStart + b.oldLines.length;
  return a.oldStart <= bEnd && b.oldStart <= aEnd;
}

/**
 * The proposal carried over to a text the user changed meanwhile (`base` was the text the
 * proposal was made against, `changed` is the text now): both sets of changes, when they do not
 * touch each other; undefined when they do (the user edited where the proposal changes the file),
 * since any choice there could lose the user's typing.
 */
export function rebaseProposal(base: string, proposal: string, changed: string): string | undefined {
  const mine = computeHunks(base, proposal);
  const theirs = computeHunks(base, changed);
  if (mine.some((a) => theirs.some((b) => touches(a, b)))) return undefined;
  // Apply from the end so earlier line numbers stay valid.
  const all = [...mine, ...theirs].sort((a, b) => b.oldStart - a.oldStart);
  let text = base;
  for (const hunk of all) text = applyHunk(text, hunk);
  return text;
}
