// When a model's SEARCH text (or a diff hunk) is not found, the tool error quotes the part of the
// file that looks most like it, so the model can copy the real lines instead of guessing again.
import { linesOf } from './lineEndings';

/** Lines quoted at most (a hunk longer than this is quoted in part). */
const MAX_QUOTED_LINES = 20;
/** Characters per quoted line at most (a minified line would flood the answer). */
const MAX_QUOTED_LINE = 200;
/** Search lines compared per position: enough to tell places apart, bounded work on a large file. */
const MAX_COMPARED = 60;

export interface ClosestLines {
  /** 1-based line of the file where the closest stretch starts. */
  readonly line: number;
  /** How many of the searched lines are in the file there (ignoring whitespace). */
  readonly alike: number;
  /** The searched lines that were compared. */
  readonly compared: number;
  /** The stretch, numbered (`12| text`). */
  readonly quote: string;
}

/** Lines compared without their whitespace: indentation and `a*b` against `a * b` are the usual misses. */
const squash = (line: string): string => line.replace(/\s+/g, '');

/** The stretch of `text` most like `searched`, or undefined when no line of it occurs at all. */
export function closestLines(text: string, searched: string): ClosestLines | undefined {
  const file = linesOf(text);
  const wanted = linesOf(searched).slice(0, MAX_COMPARED).map(squash);
  const meaningful = wanted.filter((line) => line.length > 0).length;
  if (file.length === 0 || meaningful === 0) return undefined;
  const squashed = file.map(squash);
  let best = { start: 0, alike: 0 };
  for (let start = 0; start < file.length; start++) {
    let alike = 0;
    for (let k = 0; k < wanted.length && start + k < file.length; k++)
      if (wanted[k] && wanted[k] === squashed[start + k]) alike++;
    if (alike > best.alike) best = { start, alike };
  }
  if (best.alike === 0) return undefined;
  return {
    line: best.start + 1,
    alike: best.alike,
    compared: meaningful,
    quote: numbered(file, best.start, Math.min(wanted.length + 2, MAX_QUOTED_LINES)),
  };
}

/** `count` lines of `lines` from index `start`, each prefixed by its 1-based number. */
function numbered(lines: readonly string[], start: number, count: number): string {
  const end = Math.min(lines.length, start + count);
  const width = String(end).length;
  const out: string[] = [];
  for (let i = start; i < end; i++) {
    const line = lines[i] ?? '';
    out.push(
      `${String(i + 1).padStart(width)}| ${line.length > MAX_QUOTED_LINE ? `${line.slice(0, MAX_QUOTED_LINE)}…` : line}`,
    );
  }
  return out.join('\n');
}
