// Where the lines an inline edit is about are now, after the user typed elsewhere in the file
// during the request or the review (above them: they moved down; below: they stayed). Undefined
// when the typing touched them: the edit would then be made against text the model never saw.
import { computeHunks, type Hunk } from '../apply/lineHunks';
import { splitLines } from '../edits/lineEndings';

export interface LineScope {
  /** First line (0-based). */
  readonly start: number;
  /** Line after the last (exclusive); equal to start for an empty scope. */
  readonly end: number;
}

export function followLineScope(base: string, current: string, scope: LineScope): LineScope | undefined {
  if (base === current) return scope;
  let shift = 0;
  for (const hunk of computeHunks(base, current)) {
    const hunkEnd = hunk.oldStart + hunk.oldLines.length;
    const before = hunk.oldLines.length === 0 ? hunk.oldStart <= scope.start : hunkEnd <= scope.start;
    const after =
      hunk.oldLines.length === 0 ? hunk.oldStart >= scope.end && scope.end > scope.start : hunk.oldStart >= scope.end;
    if (before) shift += hunk.newLines.length - hunk.oldLines.length;
    else if (!after) return undefined;
  }
  return { start: scope.start + shift, end: scope.end + shift };
}

/** `text` with lines [scope.start, scope.end) replaced by `replacement` (whole lines). */
export function withScopeReplaced(text: string, scope: LineScope, replacement: string): string {
  const lines = splitLines(text);
  // A document without a final line break whose last line is replaced: the replacement brings its own.
  return [...lines.slice(0, scope.start), replacement, ...lines.slice(scope.end)].join('');
}

/**
 * The hunks of `text` with the scope replaced, from a diff of the scope's lines only (the rest of
 * the document is the same on both sides): the whole-document diff costs tens of milliseconds on a
 * large file, and the preview is redrawn for every streamed line. Shifted to document lines.
 */
export function hunksInScope(lines: readonly string[], scope: LineScope, replacement: string): Hunk[] {
  const old = lines.slice(scope.start, scope.end).join('');
  return computeHunks(old, replacement).map((hunk) => ({
    ...hunk,
    oldStart: hunk.oldStart + scope.start,
    newStart: hunk.newStart + scope.start,
  }));
}

/** Characters of a document an inline edit works on at most: past it every redraw's diff would stall the editor. */
export const MAX_INLINE_EDIT_DOCUMENT_CHARS = 1_000_000;
