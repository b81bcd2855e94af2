// Whether a code block is the whole new file (it replaces the file) or a part of it (it has to be
// merged in, which takes a model). Guessing "whole" wrongly deletes the rest of the file, guessing
// "partial" wrongly only costs a merge request, so "whole" needs positive evidence:
//   1. the file is empty or does not exist yet: whole;
//   2. the block has an elision marker ("// ... existing code ...", "...", "# rest unchanged"): partial;
//   3. the block keeps the file's first and last significant lines (so it spans the file, even
//      with lines added before or after them) and has at least half as many lines: whole;
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
  const blockLines = normalized(code);
  const blockSet = new Set(blockLines);
  const first = fileLines[0];
  const last = fileLines[fileLines.length - 1];
  if (first === undefined || last === undefined) return 'whole';
  const spans = blockSet.has(first) && blockSet.has(last);
  const sized = blockLines.filter(significant).length * 2 >= fileLines.length;
  return spans && sized ? 'whole' : 'partial';
}
