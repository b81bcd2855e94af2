// What StreamingMarkdown decides about the tail (the text after its frozen blocks) from its tokens:
// which blocks can no longer change, what must match for a block to keep its nodes, and where a
// block shown as plain text ends.
import type { Token } from 'marked';
import type { LinkDefinitions } from './guardedLexer';
import type { PlainEnd } from './openBlocks';

/**
 * How many leading tokens can no longer change. Markdown decides block structure line by line, but
 * a line's meaning depends on the block before it (a paragraph can absorb lazy lines, a table or a
 * list item may interrupt it, "7" becomes "7. seven" and joins an ordered list across a blank
 * line) and sometimes on the next line (a table needs its delimiter row). So a block is frozen only
 * when a blank line follows it (the lexer starts fresh there, as it does when the tail is lexed
 * on its own) and the block after that blank already has two complete lines.
 */
export function completeBlocks(tokens: readonly Token[]): number {
  let newlinesAfter = 0;
  for (let index = tokens.length - 1; index > 0; index--) {
    const token = tokens[index];
    if (!token) continue;
    const previous = tokens[index - 1];
    if (previous?.type === 'space' && token.type !== 'space' && newlinesAfter + countNewlines(token.raw) >= 2)
      return index;
    newlinesAfter += countNewlines(token.raw);
  }
  return 0;
}

/**
 * For a tail grown long without such a blank line (headings or definitions one after another): how
 * many tokens to freeze anyway. A block followed by another block has ended, and text appended
 * after that one cannot reach back into it; the one exception kept is a list followed by a block
 * of less than two lines, which may still become one of its items (see completeBlocks).
 */
export function forcedFreeze(tokens: readonly Token[]): number {
  const last = lastBlock(tokens);
  let before = last - 1;
  while (before >= 0 && tokens[before]?.type === 'space') before--;
  if (before < 0) return 0;
  const keepList = tokens[before]?.type === 'list' && countNewlines(tokens[last]?.raw ?? '') < 2;
  return keepList ? before : last;
}

/** The index of the last token that is not white space (-1 when there is none). */
export function lastBlock(tokens: readonly Token[]): number {
  let index = tokens.length - 1;
  while (index >= 0 && tokens[index]?.type === 'space') index--;
  return index;
}

/** What a tail block must still match to keep its nodes, besides its source. */
export function tokenKey(token: Token): string {
  // A code block renders from its source alone, and a paragraph from its source and the reference
  // definitions (compared apart): skipping them spares serializing a long block per frame.
  if (token.type === 'code' || token.type === 'paragraph') return token.type;
  return JSON.stringify(token);
}

/** Where a block shown as plain text ends (see PlainEnd). */
export function plainEnd(token: Token): PlainEnd {
  const oneLine = !token.raw.replace(/\n+$/, '').includes('\n');
  if (oneLine && (token.type === 'heading' || token.type === 'hr' || token.type === 'def' || token.type === 'code'))
    return 'line';
  return token.type === 'list' || token.type === 'code' ? 'list' : 'blank';
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The definitions a tail found, as a string to compare (the tail is short, so are they). */
export function linkSignature(links: LinkDefinitions): string {
  const keys = Object.keys(links).sort();
  return keys.length ? JSON.stringify(keys.map((key) => [key, links[key]])) : '';
}
