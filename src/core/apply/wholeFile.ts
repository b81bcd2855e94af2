// Whether a code block is the whole new file (it replaces the file) or a part of it (it has to be
// merged in, which takes a model). Guessing "whole" wrongly deletes the rest of the file, guessing
// "partial" wrongly only costs a merge request, so "whole" needs positive evidence:
//   1. the file is empty or does not exist yet: whole;
//   2. the block has an elision marker ("// ... existing code ...", "...", "# rest unchanged"): partial;
//   3. the block must keep the file's first significant line (a block without it starts inside);
//      then it is whole when it also keeps the last one and has at least half as many lines (it
//      spans the file, lines added or removed inside), or when it is about the file's size (80%)
//      and keeps most (60%) of its lines (the file with some lines changed, the last among them);
//   4. anything else: partial.

/** Lines that stand for "the original code goes here" in a partial block. */
const ELISION_PATTERNS: readonly RegExp[] = [
  // A line that is only an ellipsis, maybe in a comment: "...", "// ...", "# ...", "/* ... */", "<!-- ... -->", "…"
  /^(?:\/\/|#|--|;|\/\*|<!--|\*)?\s*(?:\.{3,}|…)\s*(?:\*\/|-->)?$/,
  // A comment that says the code is left out or unchanged: "// ... existing code ...", "# rest of the file unchanged"
  /^(?:\/\/|#|--|;|\/\*|<!--|\*|\{\/\*)\s*.*\b(?:existing|unchanged|rest of|remaining|same as before|omitted|other (?:code|methods|functions|imports)|as before)\b.*$/i,
  // An ellipsis inside a comment with words around it: "// ... (imports)", "/* ...snip... */"
  /^(?:\/\/|#|--|\/\*|<!--)\s*(?:\.{3}|…).*$/,
];

/** Whether one line of a block is an elision marker. */
export function isElisionLine(line: string): boolean {
  const text = line.trim();
  if (!text) return false;
  return ELISION_PATTERNS.some((pattern) => pattern.test(text));
}

export function hasElisionMarkers(code: string): boolean {
  return code.split(/\r\n|\r|\n/).some(isElisionLine);
}

/** A line that says something about where the block is: not blank, not only punctuation like "}" or "]);". */
function significant(line: string): boolean {
  const text = line.trim();
  return text.length > 0 && /[\p{L}\p{N}]/u.test(text);
}

function normalized(code: string): string[] {
  return code.split(/\r\n|\r|\n/).map((line) => line.trim());
}

export type BlockKind = 'whole' | 'partial';

/** How a block relates to the file it targets (`current` undefined: the file does not exist). */
export function classifyBlock(code: string, current: string | undefined): BlockKind {
  if (current === undefined || current.trim() === '') return 'whole';
  if (hasElisionMarkers(code)) return 'partial';
  const fileLines = normalized(current).filter(significant);
  const blockLines = normalized(code).filter(significant);
  const blockSet = new Set(blockLines);
  const first = fileLines[0];
  const last = fileLines[fileLines.length - 1];
  if (first === undefined || last === undefined) return 'whole';
  if (!blockSet.has(first)) return 'partial';
  const size = blockLines.length / fileLines.length;
  const coverage = fileLines.filter((line) => blockSet.has(line)).length / fileLines.length;
  // Spans the file (first and last lines kept), or is the file with some lines changed (its last
  // one among them): about its size, and most of its lines still there.
  const spans = blockSet.has(last) && size >= 0.5;
  const rewritten = size >= 0.8 && coverage >= 0.6;
  return spans || rewritten ? 'whole' : 'partial';
}
