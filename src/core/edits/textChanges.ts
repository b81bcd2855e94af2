// A whole-text change as the few replacements that make it, in offsets of the old text. Applied
// as separate ranges, an edit leaves the rest of the document alone: cursors, folding, breakpoints
// and markers outside the changed lines stay where they were, as after a person's edit.
import { diffLines } from 'diff';

export interface TextReplacement {
  /** Offsets in the old text: [start, end) is replaced by `text`. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The replacements that turn `before` into `after` (line-wise, adjacent removals and insertions merged). */
export function textReplacements(before: string, after: string): TextReplacement[] {
  if (before === after) return [];
  const out: TextReplacement[] = [];
  let offset = 0;
  let pending: { start: number; end: number; text: string } | undefined;
  for (const part of diffLines(before, after)) {
    if (!part.added && !part.removed) {
      if (pending) out.push(pending);
      pending = undefined;
      offset += part.value.length;
      continue;
    }
    pending ??= { start: offset, end: offset, text: '' };
    if (part.removed) {
      offset += part.value.length;
      pending.end = offset;
    } else {
      pending.text += part.value;
    }
  }
  if (pending) out.push(pending);
  return out;
}

/** `before` with `replacements` applied (what the editor will hold): the check that they are right. */
export function applyReplacements(before: string, replacements: readonly TextReplacement[]): string {
  let result = '';
  let at = 0;
  for (const r of replacements) {
    result += before.slice(at, r.start) + r.text;
    at = r.end;
  }
  return result + before.slice(at);
}
