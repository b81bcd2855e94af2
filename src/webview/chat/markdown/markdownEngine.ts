// marked, configured once: lexing into top-level blocks (with the reference definitions already
// seen) or inline tokens, and rendering a group of blocks or inline tokens to sanitized DOM. Used
// by renderTokens (whole text), StreamingMarkdown (block by block) and GrowingParagraph (a
// paragraph piece by piece), so all produce the same nodes for the same text. Every lexer is a
// GuardedLexer (nesting and inline work within budgets.ts), and whatever still fails is contained
// to its block, which is then shown as plain text.
import { Marked, Parser, type Token, type Tokens } from 'marked';
import { isClosedFence, pathFromFenceInfo } from '../../../shared/codeFence';
import { createCodeBlock, fenceLanguage } from './codeBlocks';
import { GuardedLexer, layeredLinks, textToken, type LinkDefinitions } from './guardedLexer';
import { plainBlock } from './plainText';
import { sanitizeMarkdownHtml } from './sanitize';

export type { LinkDefinitions } from './guardedLexer';

interface CodeSink {
  readonly nonce: string;
  readonly blocks: { code: string; language: string; complete: boolean; file: string | undefined }[];
}

/** Set only during one synchronous render, so the code renderer can collect its blocks. */
let sink: CodeSink | undefined;

const engine = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // Code blocks are built as DOM after sanitizing (toolbar, highlighting); marked leaves a
    // placeholder carrying a per-render nonce, which raw HTML from the model cannot forge.
    code(token: Tokens.Code): string | false {
      if (!sink) return false; // outside renderGroup: marked's own (escaped) renderer
      const index =
        sink.blocks.push({
          code: token.text,
          language: fenceLanguage(token.lang),
          file: pathFromFenceInfo(token.lang ?? ''),
          complete: isClosedFence(token.raw),
        }) - 1;
      return `<pre data-md-code="${sink.nonce}:${index}"></pre>\n`;
    },
  },
});

/** Top-level tokens of `source`; `links` are reference definitions from earlier text. */
export function lexBlocks(source: string, links?: LinkDefinitions): { tokens: Token[]; links: LinkDefinitions } {
  const structure = lexBlockStructure(source, links);
  structure.lexInlineContent();
  return structure;
}

/** Top-level tokens whose inline content is not lexed yet (see lexBlockStructure). */
export interface BlockStructure {
  readonly tokens: Token[];
  /** Every reference definition: `links` passed in, then those found in `source` (read through, not copied). */
  readonly links: LinkDefinitions;
  /** The definitions found in `source` that `links` passed in did not already have. */
  readonly found: LinkDefinitions;
  /**
   * Lexes the inline content of every block, as marked's own lex() does, except inside the
   * top-level blocks in `skip`, which keep empty `tokens` lists: paragraphs rendered in pieces
   * (see lexInline) and blocks shown as plain text.
   */
  lexInlineContent(skip?: ReadonlySet<Token>): void;
}

/**
 * marked's lex() in its two passes. Streaming needs the block structure of the tail every frame,
 * but not the inline tokens of a paragraph it renders piece by piece: lexing those would cost
 * O(paragraph) per frame, which grows without bound in a reply that is one long paragraph.
 */
export function lexBlockStructure(source: string, links?: LinkDefinitions): BlockStructure {
  const { lexer, own } = lexerWith(links);
  lexer.blockTokens(source.replace(/\r\n?/g, '\n'), lexer.tokens);
  const tokens = lexer.tokens;
  const queue = lexer.inlineQueue;
  lexer.inlineQueue = [];
  return {
    tokens: [...tokens],
    links: tokens.links,
    found: own,
    lexInlineContent(skip) {
      const skipped = new Set<Token[]>();
      for (const token of skip ?? []) collectTokenLists(token, skipped);
      for (const { src, tokens: into } of queue.splice(0)) {
        if (skipped.has(into)) continue;
        // lex() resets inRawBlock before each queued run; inLink too here, so that each block is
        // lexed as GrowingParagraph lexes a paragraph alone (marked lets an unclosed `<a>` in one
        // paragraph stop the autolinks of the next; its raw HTML is sanitized on its own anyway).
        lexer.state.inRawBlock = false;
        lexer.state.inLink = false;
        lexContained(lexer, src, into);
      }
    },
  };
}

/** Every token list inside `token` (where marked's inline queue writes), into `into`. */
function collectTokenLists(token: Token, into: Set<Token[]>): void {
  const lists: (Token[] | undefined)[] = [];
  if ('tokens' in token) lists.push(token.tokens);
  if (token.type === 'list') lists.push(...(token as Tokens.List).items.map((item) => item.tokens));
  if (token.type === 'table') {
    const table = token as Tokens.Table;
    lists.push(
      ...table.header.map((cell) => cell.tokens),
      ...table.rows.flatMap((row) => row.map((cell) => cell.tokens)),
    );
  }
  for (const list of lists) {
    if (!list) continue;
    into.add(list);
    for (const child of list) collectTokenLists(child, into);
  }
}

/** Inline tokens of `source` (a paragraph's text, or part of it), as lexBlocks would give them. */
export function lexInline(source: string, links: LinkDefinitions): Token[] {
  const tokens: Token[] = [];
  lexContained(lexerWith(links).lexer, source, tokens);
  return tokens;
}

/**
 * Inline tokens of `src` into `into`; should marked throw on it anyway (nothing known makes the
 * guarded lexer throw), `src` as text: the failure stays within that paragraph, heading or cell.
 */
function lexContained(lexer: GuardedLexer, src: string, into: Token[]): void {
  try {
    lexer.inlineTokens(src, into);
  } catch {
    into.length = 0;
    into.push(textToken(src));
  }
}

function lexerWith(links: LinkDefinitions | undefined): { lexer: GuardedLexer; own: LinkDefinitions } {
  const lexer = new GuardedLexer(engine.defaults);
  const layered = layeredLinks(links ?? {});
  lexer.tokens.links = layered.links;
  return { lexer, own: layered.own };
}

/** Whether a token (a block, or an inline token) holds raw HTML: such blocks are sanitized alone (see renderTokens). */
export function hasRawHtml(token: Token): boolean {
  let found = false;
  // The callback is synchronous: the list walkTokens returns (its callback's results) holds no promise.
  void engine.walkTokens([token], (child) => {
    if (child.type === 'html') found = true;
  });
  return found;
}

/**
 * Inline tokens (see lexInline) to sanitized DOM, the content a paragraph's element gets; undefined
 * when marked or DOMPurify gives up. Only for tokens without raw HTML: those parse the same inside
 * a paragraph as on their own, where an HTML tag could close the paragraph.
 */
export function renderInline(tokens: Token[], doc: Document): DocumentFragment | undefined {
  try {
    return sanitizeMarkdownHtml(Parser.parseInline(tokens, engine.defaults), doc)?.fragment;
  } catch {
    return undefined;
  }
}

/**
 * Blocks to sanitized DOM, sanitized together (see renderTokens in renderMarkdown.ts for which
 * blocks may share a group). A group that marked, DOMPurify or the code blocks fail on is rendered
 * again block by block, and a block that fails alone is shown as plain text: odd input never loses
 * text, and never takes more than its own block with it.
 */
export function renderGroup(tokens: Token[], doc: Document): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  const rendered = tryRenderGroup(tokens, doc);
  if (rendered) fragment.append(rendered);
  else if (tokens.length > 1) for (const token of tokens) fragment.append(renderGroup([token], doc));
  else fragment.append(...plainBlock(doc, tokens.map((token) => token.raw).join('')));
  return fragment;
}

function tryRenderGroup(tokens: Token[], doc: Document): DocumentFragment | undefined {
  const current: CodeSink = { nonce: randomNonce(), blocks: [] };
  sink = current;
  try {
    const html = engine.parser(tokens);
    sink = undefined;
    const sanitized = sanitizeMarkdownHtml(html, doc);
    if (!sanitized) return undefined; // e.g. a <frameset> replaced the body DOMPurify parsed into
    for (const placeholder of sanitized.codePlaceholders) {
      const [nonce, index] = (placeholder.getAttribute('data-md-code') ?? '').split(':');
      const block = nonce === current.nonce ? current.blocks[Number(index)] : undefined;
      if (block) placeholder.replaceWith(createCodeBlock(doc, block.code, block.language, block.complete, block.file));
      else placeholder.removeAttribute('data-md-code');
    }
    return sanitized.fragment;
  } catch {
    return undefined;
  } finally {
    sink = undefined;
  }
}

function randomNonce(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
