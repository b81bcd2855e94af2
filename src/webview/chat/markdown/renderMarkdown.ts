// Markdown from the model (untrusted) to sanitized DOM: renderTokens, which StreamingMarkdown uses
// for its blocks, and renderMarkdown, the same for a whole text in one go (the tests' and the XSS
// harness's reference for what StreamingMarkdown must produce).
import type { Token, Tokens } from 'marked';
import { htmlDepth, MAX_HTML_DEPTH, PART_CHARS, REDRAW_LIMIT, withinInlineBudget } from './budgets';
import { GrowingParagraph } from './growingParagraph';
import { hasRawHtml, lexBlockStructure, lexInline, renderGroup, type LinkDefinitions } from './markdownEngine';
import { plainBlock } from './plainText';

/** Put this class on the element holding rendered markdown: media/chatMarkdown.css is scoped to it. */
export const MARKDOWN_CLASS = 'chat-markdown';

/** Markdown (untrusted model output) to sanitized DOM nodes (marked, then DOMPurify). */
export function renderMarkdown(markdown: string, doc: Document): DocumentFragment {
  try {
    const structure = lexBlockStructure(markdown);
    structure.lexInlineContent(new Set(structure.tokens.filter((token) => planBlock(token) !== 'group')));
    return renderTokens(structure.tokens, structure.links, doc);
  } catch {
    // Nothing known makes the guarded lexer throw; should something, the text is still shown.
    const fragment = doc.createDocumentFragment();
    fragment.append(...plainBlock(doc, markdown.replace(/\r\n?/g, '\n')));
    return fragment;
  }
}

export type BlockPlan = 'group' | 'pieces' | 'plain';

/**
 * How a top-level block is rendered, decided before its inline content is lexed (which a block
 * shown otherwise than with its group does not need): with its group, as a paragraph in pieces
 * (GrowingParagraph), or as plain text. Only the block's text decides, so a block gets the same
 * nodes whether it streamed or not:
 * - a paragraph longer than a part or denser than the inline budget is rendered in pieces; a
 *   fenced code block is highlighted in segments (codeBlocks.ts): both at any length;
 * - any other block over REDRAW_LIMIT (a table, a list, a quote, raw HTML, indented code) is plain
 *   text: while it streams it would be rendered again whole on every frame;
 * - raw HTML nested deeper than MAX_HTML_DEPTH is plain text too (see tooDeep).
 */
export function planBlock(token: Token): BlockPlan {
  if (token.type === 'space' || token.type === 'def') return 'group';
  if (token.type === 'code' && token.codeBlockStyle !== 'indented') return 'group';
  if (token.type === 'paragraph') {
    const { text } = token as Tokens.Paragraph;
    return text.length > PART_CHARS || !withinInlineBudget(text) ? 'pieces' : 'group';
  }
  return token.raw.length > REDRAW_LIMIT ? 'plain' : 'group';
}

/** Whether a block (its inline content lexed) holds raw HTML nested past MAX_HTML_DEPTH. */
function tooDeep(token: Token): boolean {
  return token.raw.includes('<') && hasRawHtml(token) && htmlDepth(token.raw) > MAX_HTML_DEPTH;
}

/**
 * Renders top-level tokens (lexed with `links`, inline content lexed where planBlock says
 * 'group') to sanitized DOM. Each group is sanitized on its own: a block with raw HTML is always
 * its own group, so an unclosed tag can never swallow the blocks after it, and the result does not
 * depend on how the text was cut into groups (blocks without raw HTML are well formed, so parsing
 * them together or apart gives the same nodes).
 */
export function renderTokens(tokens: readonly Token[], links: LinkDefinitions, doc: Document): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  let run: Token[] = [];
  const flush = (): void => {
    if (run.length) fragment.append(renderGroup(run, doc));
    run = [];
  };
  for (const token of tokens) {
    const plan = planBlock(token);
    if (plan === 'group' && !hasRawHtml(token)) {
      run.push(token);
      continue;
    }
    flush();
    if (plan === 'plain') fragment.append(...plainBlock(doc, token.raw));
    else if (plan === 'pieces') fragment.append(...paragraphInPieces(token, links, doc));
    else fragment.append(...renderAlone(token, doc));
  }
  flush();
  return fragment;
}

/** A block with raw HTML, in its own group (or as plain text, see tooDeep). */
function renderAlone(token: Token, doc: Document): ChildNode[] {
  return tooDeep(token) ? plainBlock(doc, token.raw) : Array.from(renderGroup([token], doc).childNodes);
}

/**
 * A paragraph built as GrowingParagraph builds it. GrowingParagraph refuses raw HTML: then the
 * paragraph is rendered whole, as any block with raw HTML (plain text past REDRAW_LIMIT).
 */
function paragraphInPieces(token: Token, links: LinkDefinitions, doc: Document): ChildNode[] {
  if (token.type !== 'paragraph') return renderAlone(token, doc);
  try {
    const paragraph = GrowingParagraph.create((token as Tokens.Paragraph).text, links, doc);
    if (paragraph) return paragraph.nodes;
  } catch {
    // rendered whole below, where anything that fails becomes plain text
  }
  return paragraphWhole(token, links, doc);
}

/** A paragraph (inline content not lexed yet) rendered whole: it has raw HTML. */
function paragraphWhole(token: Token, links: LinkDefinitions, doc: Document): ChildNode[] {
  if (token.raw.length > REDRAW_LIMIT || token.type !== 'paragraph') return plainBlock(doc, token.raw);
  const paragraph = token as Tokens.Paragraph;
  if (paragraph.tokens.length === 0) paragraph.tokens.push(...lexInline(paragraph.text, links));
  return renderAlone(paragraph, doc);
}
