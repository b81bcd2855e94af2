// A whole-text change as the few replacements that make it, in offsets of the old text. Applied
// as separate ranges, an edit leaves the rest of the document alone: cursors, folding, breakpoints
// and markers outside the changed lines stay where they were, as after a person's edit.
import { computeHunks } from '../apply/lineHunks';
import { splitLines } from './lineEndings';

export interface TextReplacement {
  /** Offsets in the old text: [start, end) is replaced by `text`. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The replacements that turn `before` into `after`: one per hunk of the line diff (the same diff
 * Apply's review shows, adjacent removals and insertions merged), in offsets of `before`.
 */
export function textReplacements(before: string, after: string): TextReplacement[] {
  if (before === after) return [];
  // Where each line of `before` starts, and the end of the text last.
  const starts = [0];
  for (const line of splitLines(before)) starts.push((starts[starts.length - 1] as number) + line.length);
  return computeHunks(before, after).map((hunk) => ({
    start: starts[hunk.oldStart] as number,
    end: starts[hunk.oldStart + hunk.oldLines.length] as number,
    text: hunk.newLines.join(''),
  }));
}
