// marked, configured once: lexing into top-level blocks (with the reference definitions already
// seen) or inline tokens, and rendering a group of blocks or inline tokens to sanitized DOM. Used
// by renderTokens (whole text), StreamingMarkdown (block by block) and GrowingParagraph (a
// paragraph piece by piece), so all produce the same nodes for the same text.
import { Lexer, Marked, Parser, type Token, type Tokens } from 'marked';
import { createCodeBlock, fenceLanguage, isClosedFence } from './codeBlocks';
import { sanitizeMarkdownHtml } from './sanitize';

export type LinkDefinitions = Record<string, { href: string; title?: string | null | undefined }>;

interface CodeSink {
  readonly nonce: string;
  readonly blocks: { code: string; language: string; complete: boolean }[];
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
      const index = sink.blocks.push({ code: token.text, language: fenceLanguage(token.lang), complete: isClosedFence(token.raw) }) - 1;
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
  /** Every reference definition: `links` passed in, then those found in `source`. */
  readonly links: LinkDefinitions;
  /**
   * Lexes the inline content of every block, as marked's own lex() does, except the top-level
   * paragraphs in `skip`: those keep an empty `tokens` list (see lexInline).
   */
  lexInlineContent(skip?: ReadonlySet<Token>): void;
}

/**
 * marked's lex() in its two passes. Streaming needs the block structure of the tail every frame,
 * but not the inline tokens of a paragraph it renders piece by piece: lexing those would cost
 * O(paragraph) per frame, which grows without bound in a reply that is one long paragraph.
 */
export function lexBlockStructure(source: string, links?: LinkDefinitions): BlockStructure {
  const lexer = lexerWith(links);
  lexer.blockTokens(source.replace(/\r\n?/g, '\n'), lexer.tokens);
  const tokens = lexer.tokens;
  const queue = lexer.inlineQueue;
  lexer.inlineQueue = [];
  return {
    tokens: [...tokens],
    links: { ...tokens.links },
    lexInlineContent(skip) {
      const skipped = new Set<Token[]>();
      for (const token of skip ?? []) if (token.type === 'paragraph') skipped.add((token as Tokens.Paragraph).tokens);
      for (const { src, tokens: into } of queue.splice(0)) {
        if (skipped.has(into)) continue;
        // lex() resets inRawBlock before each queued run; inLink too here, so that each block is
        // lexed as GrowingParagraph lexes a paragraph alone (marked lets an unclosed `<a>` in one
        // paragraph stop the autolinks of the next; its raw HTML is sanitized on its own anyway).
        lexer.state.inRawBlock = false;
        lexer.state.inLink = false;
        lexer.inlineTokens(src, into);
      }
    },
  };
}

/** Inline tokens of `source` (a paragraph's text, or part of it), as lexBlocks would give them. */
export function lexInline(source: string, links: LinkDefinitions): Token[] {
  return lexerWith(links).inlineTokens(source);
}

function lexerWith(links: LinkDefinitions | undefined): Lexer {
  const lexer = new Lexer(engine.defaults);
  if (links) Object.assign(lexer.tokens.links, links);
  return lexer;
}

/** Whether a token (a block, or an inline token) holds raw HTML: such blocks are sanitized alone (see renderTokens). */
export function hasRawHtml(token: Token): boolean {
  let found = false;
  engine.walkTokens([token], (child) => {
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
  let html: string;
  try {
    html = Parser.parseInline(tokens, engine.defaults);
  } catch {
    return undefined;
  }
  return sanitizeMarkdownHtml(html, doc)?.fragment;
}

/**
 * Blocks to sanitized DOM, sanitized together (see renderTokens in renderMarkdown.ts for which
 * blocks may share a group).
 */
export function renderGroup(tokens: Token[], doc: Document): DocumentFragment {
  const current: CodeSink = { nonce: randomNonce(), blocks: [] };
  let html: string | undefined;
  sink = current;
  try {
    html = engine.parser(tokens);
  } catch {
    html = undefined;
  } finally {
    sink = undefined;
  }
  const sanitized = html === undefined ? undefined : sanitizeMarkdownHtml(html, doc);
  if (!sanitized) {
    // marked or DOMPurify giving up on odd input must not lose the text: show the source as text.
    const paragraph = doc.createElement('p');
    paragraph.textContent = tokens.map((token) => token.raw).join('');
    const fallback = doc.createDocumentFragment();
    fallback.append(paragraph);
    return fallback;
  }
  for (const placeholder of sanitized.codePlaceholders) {
    const [nonce, index] = (placeholder.getAttribute('data-md-code') ?? '').split(':');
    const block = nonce === current.nonce ? current.blocks[Number(index)] : undefined;
    if (block) placeholder.replaceWith(createCodeBlock(doc, block.code, block.language, block.complete));
    else placeholder.removeAttribute('data-md-code');
  }
  return sanitized.fragment;
}

function randomNonce(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
