// What the renderer will spend on one piece of model output, and the cheap linear scans that decide
// it before marked sees the text. Model output is untrusted: a reply can be written to make marked
// recurse until the stack overflows (4,000 nested `>`), or to make its inline lexer quadratic or
// worse (1 KB of `**b |` repeated costs 11 ms, 8 KB costs 0.9 s: each emphasis opener scans every
// later delimiter), or simply to be one block that would be lexed, sanitized and laid out again on
// every frame while it streams. Past these budgets the renderer still shows every character, as
// plain text or with less markdown, and does bounded work per frame.
//
// The numbers were measured with marked 18 in Node and Chromium on a loaded 2-core machine; the
// unit tests check the bounds by counting what reaches marked, DOMPurify and highlight.js, never by
// timing.

/** Blocks inside blocks (quotes, list items). Models nest 3 or 4 deep; marked recurses per level. */
export const MAX_BLOCK_DEPTH = 12;
/** Inline constructs inside each other (emphasis, links). Real text needs 3 or 4. */
export const MAX_INLINE_DEPTH = 8;
/**
 * marked's inline lexer does at most about (characters that start a construct) x (length) steps
 * on one text (every opener may scan to the end); at this product the slowest input found by
 * fuzzing took 15 ms. Longer or denser text is lexed in chunks (see chunkEnd).
 */
const INLINE_BUDGET = 400_000;
/** Longest text lexed inline in one go, even with no special characters. */
export const CHUNK_CHARS = 16_384;
/**
 * Largest block rendered whole, and again on each frame while it grows (tables, lists, quotes,
 * raw HTML, indented code): lexing, sanitizing and laying out 16 KB of table takes a few ms in
 * Chromium. A larger one is shown as plain text. Paragraphs and fenced code grow in place
 * instead (GrowingParagraph, codeBlocks.ts), so they have no such limit.
 */
export const REDRAW_LIMIT = 16_384;
/**
 * A streaming tail longer than this is cut short: blocks that can no longer change are frozen even
 * without the blank line StreamingMarkdown otherwise waits for, so the text lexed again each frame
 * stays small however the reply is written (headings or definitions with no blank line between).
 */
export const FREEZE_AFTER = 4_096;
/**
 * A paragraph or fence still open at the end of the tail, longer than this, is no longer lexed from
 * its start each frame: only its new lines are (see openBlocks.ts).
 */
export const TAIL_LIMIT = 16_384;
/** Characters a part of a long paragraph (or plain text) holds at least, laid out on its own (see GrowingParagraph). */
export const PART_CHARS = 4096;
/** A part's class: display: block (media/chatMarkdown.css). The sanitizer drops `class` from model HTML. */
export const PART_CLASS = 'md-paragraph-part';
/** Raw HTML elements open inside each other in one block (Chromium's parser flattens past 512). */
export const MAX_HTML_DEPTH = 32;

/** Characters where one of marked's inline constructs can start, and so where a scan can start. */
const SPECIALS = new Set(Array.from('*_~`[]<!\\&@', (character) => character.charCodeAt(0)));

/**
 * Where the inline chunk of `text` that starts at `start` ends, or undefined when the text ends
 * before the chunk's budget does. A chunk ends where INLINE_BUDGET or CHUNK_CHARS would be passed:
 * after its last line end, else after its last space, else right there. The cut depends on the
 * text alone, so a paragraph streamed in any slices is cut where the whole one is.
 */
export function chunkEnd(text: string, start: number): number | undefined {
  let specials = 0;
  let lastLineEnd = -1;
  let lastSpace = -1;
  for (let at = start; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (SPECIALS.has(code)) specials++;
    const length = at - start + 1;
    if (length > CHUNK_CHARS || specials * length > INLINE_BUDGET) {
      if (lastLineEnd > start) return lastLineEnd;
      if (lastSpace > start) return lastSpace;
      return splitPoint(text, Math.max(at, start + 1), start);
    }
    if (code === 10) lastLineEnd = at + 1;
    else if (code === 32 || code === 9) lastSpace = at + 1;
  }
  return undefined;
}

/** Whether `text` can be lexed inline in one go (see chunkEnd). */
export function withinInlineBudget(text: string): boolean {
  return chunkEnd(text, 0) === undefined;
}

/** `at`, or one before it when that would split a surrogate pair. */
function splitPoint(text: string, at: number, start: number): number {
  const code = text.charCodeAt(at);
  const before = text.charCodeAt(at - 1);
  return code >= 0xdc00 && code <= 0xdfff && before >= 0xd800 && before <= 0xdbff && at - 1 > start ? at - 1 : at;
}

/** Elements that never hold others, so they open nothing. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)\b[^<>]*?(\/?)>/g;

/**
 * How deep raw HTML tags nest in `raw` (a block's source), counting every opening tag that is not
 * closed yet. An over-estimate (tags in code spans count too), which only ever errs towards plain
 * text: it is a guard, not a parser.
 */
export function htmlDepth(raw: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [, closing, name = '', selfClosing] of raw.matchAll(TAG)) {
    if (closing) depth = Math.max(0, depth - 1);
    else if (!selfClosing && !VOID.has(name.toLowerCase())) deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}
