// Where a paragraph can be cut so that the text before the cut renders the same on its own as it
// does followed by whatever comes next: while it streams (lastCutPoint, lexClosed), and where a
// long one is split into parts laid out on their own (findPartEnds). marked lexes a paragraph's
// inline content as one string, and several of its passes look across lines: emphasis and
// strikethrough delimiters pair over the whole text, code spans and link-like spans (`[..](..)`,
// `<..>`) are masked out of that pairing wherever they appear, and a link broken over lines can end
// in a later line. A cut is only made after a whole line, where everything that opened before it
// has closed before it.
//
// The rules are conservative: a cut that is refused costs only speed (the paragraph's unsettled
// part is rendered again next frame), a cut that is wrong would show different text than the
// finished reply. A unit test compares cut and whole renderings over many random texts.
import type { Token, Tokens } from 'marked';
import { lexInline, type LinkDefinitions } from './markdownEngine';

/**
 * The inline tokens of `before` (text up to a cut, see lastCutPoint) when nothing in it is left
 * open, so it renders the same whatever follows; undefined when that is not sure.
 */
export function lexClosed(before: string, links: LinkDefinitions): Token[] | undefined {
  const tokens = lexInline(before, links);
  return allClosed(tokens) ? tokens : undefined;
}
/**
 * Line ends tried in a row for the end of a part. Then (something stays open, such as a lone `*`)
 * the next try is twice as far from the part's start, and so on: the work stays O(text), and a
 * part still ends once what was open closes.
 */
export const PART_END_TRIES = 16;

/** Characters that open or close something across lines, unless a finished construct holds them. */
const OPENS_OR_CLOSES = /[*_~`[\]]|<(?! )/;

/** What looks like them in plain text but can pair with nothing (log lines are full of these). */
const INERT = [
  /(?<=[A-Za-z0-9])_+(?=[A-Za-z0-9])/g, // `_` between ASCII letters or digits (snake_case)
  /(?<=\s)(?:\*+|_+|~+)(?=\s)/g, // a delimiter run with white space on both sides (`a * b`)
];
/** The brackets of a label followed by neither `(` nor `[` (`[INFO] started`); what they hold still counts. */
const INERT_LABEL = /\[([^[\]`\n]*)\](?=[^([\]])/g;

/**
 * Where `text` (a paragraph's text, or its end) may be cut: after its last line that may end a cut
 * (see mayCutAfter). 0 when there is no such line.
 */
export function lastCutPoint(text: string): number {
  for (let newline = text.lastIndexOf('\n'); newline > 0; newline = text.lastIndexOf('\n', newline - 1)) {
    if (mayCutAfter(text, newline)) return newline + 1;
  }
  return 0;
}

/**
 * Whether a cut may follow the line that `newline` ends: one with text on it (a blank one would end
 * the paragraph), not ending in a hard break (two spaces or a backslash make a <br> only when more
 * text follows).
 */
export function mayCutAfter(text: string, newline: number): boolean {
  const line = text.slice(text.lastIndexOf('\n', newline - 1) + 1, newline);
  return /\S/.test(line) && !/(?: {2}|\\)$/.test(line);
}

/**
 * Whether `tokens` are finished: nothing in them can pair with text that comes after. A reference
 * link (`[a]` with a definition) followed by `(` is not: `[a](` and an address on the next line
 * make one inline link.
 */
function allClosed(tokens: readonly Token[]): boolean {
  return tokens.every(
    (token, index) => isClosed(token) && !(isReferenceLink(token) && tokens[index + 1]?.raw.startsWith('(')),
  );
}

function isReferenceLink(token: Token): boolean {
  return (token.type === 'link' || token.type === 'image') && /^!?\[/.test(token.raw) && !token.raw.endsWith(')');
}

/** Whether `token` is finished (see allClosed). */
function isClosed(token: Token): boolean {
  switch (token.type) {
    case 'codespan':
    case 'escape':
    case 'br':
      return true;
    case 'em':
    case 'strong':
    case 'del':
      return allClosed((token as Tokens.Em | Tokens.Strong | Tokens.Del).tokens);
    case 'link':
    case 'image': {
      const link = token as Tokens.Link | Tokens.Image;
      // Over lines, or with white space before the address (`[a]( u)`): marked balances such a
      // link's parentheses against the text after it, so a later `)` changes where it ends.
      if (link.raw.includes('\n') || /\]\(\s/.test(link.raw)) return false;
      // `[text](href)`, `![alt](src)`, `[text][ref]` and `<autolink>` are whole; a bare URL
      // (`www.…`, `https://…`) is not a construct marked masks, so what it holds still counts.
      if (/^!?\[|^</.test(link.raw)) return allClosed(link.tokens ?? []);
      return !opensOrCloses(link.raw);
    }
    case 'text': {
      const text = token as Tokens.Text;
      return !opensOrCloses(text.raw) && allClosed(text.tokens ?? []);
    }
    default:
      return false; // raw HTML, and anything not known to be finished
  }
}

function opensOrCloses(raw: string): boolean {
  // The label's brackets become a character that is neither a word, a space nor a delimiter, so
  // the other rules still see what stood beside them (`[e]_x` keeps an `_` that can open).
  const rest = INERT.reduce((text, pattern) => text.replace(pattern, ''), raw.replace(INERT_LABEL, '\u0001$1\u0001'));
  return OPENS_OR_CLOSES.test(rest);
}
