// Search/replace edits as a model sends them: each SEARCH text must occur exactly once in the
// file (after the previous edits of the same call), and is replaced by its REPLACE text. A search
// found nowhere or in several places fails the whole call with a message written for the model:
// where the closest lines are (quoted, numbered), or which lines it matched, so it can correct
// itself. Nothing is half applied: the caller gets either the new text or the reason.
import { closestLines } from './closestLines';
import { lineEndingOf, withLineEnding } from './lineEndings';

export interface SearchReplaceEdit {
  readonly search: string;
  readonly replace: string;
}

export type EditOutcome =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/** Lines named when a search matches several places. */
const MAX_LISTED_MATCHES = 10;

/** Every start offset of `needle` in `text`, overlapping ones included (each is a different place). */
export function occurrences(text: string, needle: string, limit = Number.MAX_SAFE_INTEGER): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at >= 0 && found.length < limit; at = text.indexOf(needle, at + 1))
    found.push(at);
  return found;
}

/** 1-based line number of an offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** Why a search text was not found, with the closest lines of the file. */
export function notFoundMessage(text: string, search: string, what: string): string {
  const closest = closestLines(text, search);
  if (!closest)
    return `${what} was not found, and none of its lines occurs in the file. Read the file again (read_file) and copy the lines to change exactly.`;
  const lastLine = closest.line + closest.compared - 1;
  if (closest.alike === closest.compared) {
    return `${what} was not found exactly, but matches lines ${closest.line}-${lastLine} if whitespace is ignored. Copy the lines exactly as the file has them:\n${closest.quote}`;
  }
  return `${what} was not found. The closest lines (${closest.alike} of its ${closest.compared} lines alike, ignoring whitespace) start at line ${closest.line}:\n${closest.quote}`;
}

/** Applies `edits` in order to `text`; the file's line endings are kept. */
export function applySearchReplace(text: string, edits: readonly SearchReplaceEdit[]): EditOutcome {
  if (edits.length === 0)
    return { ok: false, message: 'No edits were given: pass at least one {search, replace} pair.' };
  const ending = lineEndingOf(text);
  let current = text;
  for (const [index, edit] of edits.entries()) {
    const what = edits.length > 1 ? `The search text of edit ${index + 1} (of ${edits.length})` : 'The search text';
    if (edit.search === '')
      return {
        ok: false,
        message: `${what} is empty. Search for the lines next to where the new text goes and repeat them in the replace text (or write a whole file with create_file and overwrite: true).`,
      };
    const search = withLineEnding(edit.search, ending);
    const found = occurrences(current, search, MAX_LISTED_MATCHES + 1);
    if (found.length === 0) return { ok: false, message: notFoundMessage(current, search, what) };
    if (found.length > 1) {
      const lines = found.slice(0, MAX_LISTED_MATCHES).map((at) => lineAt(current, at));
      const count = found.length > MAX_LISTED_MATCHES ? `more than ${MAX_LISTED_MATCHES}` : String(found.length);
      return {
        ok: false,
        message: `${what} matches ${count} places (starting at lines ${lines.join(', ')}); it must match exactly one. Add lines around it so it matches one place only.`,
      };
    }
    const at = found[0] ?? 0;
    current = current.slice(0, at) + withLineEnding(edit.replace, ending) + current.slice(at + search.length);
  }
  return { ok: true, text: current };
}
