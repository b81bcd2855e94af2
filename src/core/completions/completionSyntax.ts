// The little language knowledge the completion pipeline needs, shared by the shape, the prompt,
// the post-processing and the stop rule so that they agree: which languages close blocks by
// indentation rather than by brackets, how a line comment starts (snippets are shown to the
// model as comments), and a bracket scan that skips strings and comments (a `}` in a string does
// not close the block the cursor is in). Deliberately approximate: no parser per language, and a
// wrong guess costs one suggestion, never a wrong edit (the user accepts or not).

/** Languages whose blocks end by dedenting (no closing bracket). */
const INDENTED = new Set([
  'python',
  'yaml',
  'coffeescript',
  'nim',
  'haskell',
  'fsharp',
  'pug',
  'sass',
  'makefile',
  'jade',
  'elm',
  'gdscript',
  'mojo',
]);

/** Languages whose line comments start with `#`. */
const HASH_COMMENT = new Set([
  'python',
  'yaml',
  'shellscript',
  'ruby',
  'perl',
  'r',
  'dockerfile',
  'makefile',
  'toml',
  'powershell',
  'coffeescript',
  'elixir',
  'julia',
  'nim',
  'gdscript',
  'properties',
  'ini',
  'cmake',
  'mojo',
  'terraform',
]);
const DASH_COMMENT = new Set(['sql', 'lua', 'haskell', 'elm', 'ada', 'vhdl']);
const PERCENT_COMMENT = new Set(['latex', 'tex', 'matlab', 'erlang', 'bibtex']);
const SEMI_COMMENT = new Set(['clojure', 'lisp', 'scheme', 'racket', 'ini']);
const QUOTE_COMMENT = new Set(['vim']);

export function isIndentedLanguage(languageId: string | undefined): boolean {
  return languageId !== undefined && INDENTED.has(languageId);
}

/** The text a line comment starts with, or a pair for languages with only block comments. */
export function commentStyle(languageId: string): { readonly open: string; readonly close: string } {
  if (HASH_COMMENT.has(languageId)) return { open: '# ', close: '' };
  if (DASH_COMMENT.has(languageId)) return { open: '-- ', close: '' };
  if (PERCENT_COMMENT.has(languageId)) return { open: '% ', close: '' };
  if (SEMI_COMMENT.has(languageId)) return { open: '; ', close: '' };
  if (QUOTE_COMMENT.has(languageId)) return { open: '" ', close: '' };
  if (['html', 'xml', 'markdown', 'vue-html', 'svg', 'xsl'].includes(languageId))
    return { open: '<!-- ', close: ' -->' };
  if (languageId === 'css') return { open: '/* ', close: ' */' };
  return { open: '// ', close: '' };
}

export const OPENERS = '([{';
export const CLOSERS = ')]}';

/** How deep the brackets are after `text`, counted from 0, ignoring strings and comments on each line. */
export interface BracketScan {
  /** The net depth (opens minus closes). */
  readonly depth: number;
  /** Index in `text` of the first closer that took the depth below 0, or -1. */
  readonly underflowAt: number;
  /** The lowest depth reached (0 or below). */
  readonly min: number;
}

/**
 * Scans brackets in `text`, starting at depth 0. Strings ('', "", ``) and line comments end at
 * the line's end (a multi-line template literal is rare in a completion and would only make the
 * guess conservative). `hashComments`: `#` starts a comment (Python, shell...), otherwise only
 * `//` and `/* *\/` do.
 */
export function scanBrackets(text: string, hashComments = false, stopAtUnderflow = true): BracketScan {
  let depth = 0;
  let min = 0;
  let quote = '';
  let blockComment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\n') {
      quote = '';
      continue;
    }
    if (blockComment) {
      if (c === '*' && text[i + 1] === '/') {
        blockComment = false;
        i++;
      }
      continue;
    }
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      // An apostrophe inside a word (don't, it's) is not a quote.
      if (c === "'" && /\w/.test(text[i - 1] ?? '') && /\w/.test(text[i + 1] ?? '')) continue;
      quote = c;
    } else if ((c === '/' && text[i + 1] === '/') || (hashComments && c === '#')) {
      const end = text.indexOf('\n', i);
      if (end < 0) break;
      i = end - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      blockComment = true;
      i++;
    } else if (OPENERS.includes(c)) depth++;
    else if (CLOSERS.includes(c)) {
      depth--;
      min = Math.min(min, depth);
      if (depth < 0 && stopAtUnderflow) return { depth, underflowAt: i, min };
    }
  }
  return { depth, underflowAt: -1, min };
}

/** The leading whitespace of a line. */
export function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

/** Width of an indentation, a tab counting as 4 (only compared with others of the same file). */
export function indentWidth(indent: string): number {
  let width = 0;
  for (const c of indent) width += c === '\t' ? 4 : 1;
  return width;
}

/** The text of the cursor's line before the cursor. */
export function lineBeforeCursor(prefix: string): string {
  return prefix.slice(prefix.lastIndexOf('\n') + 1);
}

/** The text of the cursor's line after the cursor. */
export function lineAfterCursor(suffix: string): string {
  const nl = suffix.indexOf('\n');
  return nl < 0 ? suffix : suffix.slice(0, nl).replace(/\r$/, '');
}

/** Languages whose `#` starts a comment (for scanBrackets). */
export function hashComments(languageId: string | undefined): boolean {
  return languageId !== undefined && HASH_COMMENT.has(languageId);
}

/**
 * How unbalanced a piece of code is on its own: unmatched brackets plus quotes left open. Used to
 * decide whether an answer's end that repeats the text after the cursor is a duplicate (cutting it
 * balances the answer: `b)` before `)`) or its own closing (`bar()` before `)` stays whole).
 */
export function imbalance(text: string, languageId?: string): number {
  let score = Math.abs(scanBrackets(text, hashComments(languageId), false).depth);
  for (const q of ['"', '`']) score += (text.split(q).length - 1) % 2;
  score += (text.replace(/\w'\w/g, '').split("'").length - 1) % 2;
  return score;
}

/** One line's brackets: its net depth and the lowest depth reached inside it (both from 0), in one pass. */
export function lineBrackets(line: string, hash: boolean): { readonly net: number; readonly min: number } {
  const scan = scanBrackets(line, hash, false);
  return { net: scan.depth, min: scan.min };
}
