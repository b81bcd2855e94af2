// Markdown from the model (untrusted) to sanitized DOM: renderTokens, which StreamingMarkdown uses
// for its blocks, and renderMarkdown, the same for a whole text in one go (the tests' and the XSS
// harness's reference for what StreamingMarkdown must produce).
import type { Token } from 'marked';
import { GrowingParagraph, PART_CHARS } from './growingParagraph';
import { hasRawHtml, lexBlocks, renderGroup, type LinkDefinitions } from './markdownEngine';

/** Put this class on the element holding rendered markdown: media/chatMarkdown.css is scoped to it. */
export const MARKDOWN_CLASS = 'chat-markdown';

/** Markdown (untrusted model output) to sanitized DOM nodes (marked, then DOMPurify). */
export function renderMarkdown(markdown: string, doc: Document): DocumentFragment {
  const { tokens, links } = lexBlocks(markdown);
  return renderTokens(tokens, links, doc);
}

/**
 * Renders top-level tokens (lexed with `links`) to sanitized DOM. Each group is sanitized on its
 * own: a block with raw HTML is always its own group, so an unclosed tag can never swallow the
 * blocks after it, and the result does not depend on how the text was cut into groups (blocks
 * without raw HTML are well formed, so parsing them together or apart gives the same nodes). A
 * paragraph long enough to be laid out in parts is built as GrowingParagraph builds it.
 */
export function renderTokens(tokens: readonly Token[], links: LinkDefinitions, doc: Document): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  let run: Token[] = [];
  const flush = (): void => {
    if (run.length) fragment.append(renderGroup(run, doc));
    run = [];
  };
  for (const token of tokens) {
    if (hasRawHtml(token)) {
      flush();
      fragment.append(renderGroup([token], doc));
      continue;
    }
    const long = token.type === 'paragraph' && token.text.length > PART_CHARS ? GrowingParagraph.create(token.text, links, doc) : undefined;
    if (long) {
      flush();
      fragment.append(...long.nodes);
    } else {
      run.push(token);
    }
  }
  flush();
  return fragment;
}
