// marked's Lexer with the budgets of budgets.ts applied where marked recurses and where its inline
// lexer is superlinear. marked lexes a nested block by calling blockTokens on its content, and the
// content of an inline construct by calling inlineTokens on it, so counting those calls bounds the
// nesting exactly, with marked's own idea of what nests: past the limit the rest of that block or
// span is kept as text (marked escapes it) instead of being lexed further. An inline text over the
// inline budget is lexed in chunks (chunkEnd), each within the budget.
import { Lexer, type Token, type TokensList } from 'marked';
import { chunkEnd, MAX_BLOCK_DEPTH, MAX_INLINE_DEPTH } from './budgets';

export type LinkDefinitions = Record<string, { href: string; title?: string | null | undefined }>;

export class GuardedLexer extends Lexer {
  private blockDepth = 0;
  private inlineDepth = 0;

  override blockTokens(src: string, tokens?: Token[], lastParagraphClipped?: boolean): Token[];
  override blockTokens(src: string, tokens?: TokensList, lastParagraphClipped?: boolean): TokensList;
  override blockTokens(src: string, tokens: Token[] = [], lastParagraphClipped?: boolean): Token[] {
    if (this.blockDepth >= MAX_BLOCK_DEPTH) {
      tokens.push({ type: 'paragraph', raw: src, text: src, tokens: [textToken(src)] });
      return tokens;
    }
    this.blockDepth++;
    try {
      return super.blockTokens(src, tokens, lastParagraphClipped);
    } finally {
      this.blockDepth--;
    }
  }

  override inlineTokens(src: string, tokens: Token[] = []): Token[] {
    if (this.inlineDepth >= MAX_INLINE_DEPTH) {
      tokens.push(textToken(src));
      return tokens;
    }
    this.inlineDepth++;
    try {
      if (this.inlineDepth > 1) return super.inlineTokens(src, tokens);
      // A top-level text (a paragraph, a heading, a cell...): in chunks each within the budget.
      for (let start = 0; start < src.length;) {
        const end = chunkEnd(src, start) ?? src.length;
        super.inlineTokens(start === 0 && end === src.length ? src : src.slice(start, end), tokens);
        start = end;
      }
      return tokens;
    } finally {
      this.inlineDepth--;
    }
  }
}

/** Text that marked renders escaped, as it is. */
export function textToken(text: string): Token {
  return { type: 'text', raw: text, text, escaped: false };
}

/**
 * Reference definitions for a lexer: `base` (those seen earlier, possibly many) read through, and
 * those the lexer finds written into a fresh table of its own. Copying `base` into every lexer
 * would cost O(definitions) per frame in a reply made of definitions; marked only ever looks one
 * up by label (`links[label]`, `Object.hasOwn(links, label)`), which this answers from either.
 */
export function layeredLinks(base: LinkDefinitions): {
  readonly links: LinkDefinitions;
  readonly own: LinkDefinitions;
} {
  const own: LinkDefinitions = Object.create(null) as LinkDefinitions;
  const fromBase = (key: string | symbol): LinkDefinitions[string] | undefined =>
    typeof key === 'string' && Object.hasOwn(base, key) ? base[key] : undefined;
  const links = new Proxy(own, {
    get: (target, key) => (typeof key === 'string' && Object.hasOwn(target, key) ? target[key] : fromBase(key)),
    has: (target, key) => Reflect.has(target, key) || fromBase(key) !== undefined,
    getOwnPropertyDescriptor(target, key) {
      const found = Reflect.getOwnPropertyDescriptor(target, key);
      if (found) return found;
      const value = fromBase(key);
      return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
    },
  });
  return { links, own };
}
