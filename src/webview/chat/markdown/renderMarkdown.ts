// Markdown from the model (untrusted) to sanitized DOM, in one go: for user messages, stored
// replies rendered outside a stream, and anything else that is not arriving token by token.
import { lexBlocks, renderTokens } from './markdownEngine';

/** Put this class on the element holding rendered markdown: media/chatMarkdown.css is scoped to it. */
export const MARKDOWN_CLASS = 'chat-markdown';

/** Markdown (untrusted model output) to sanitized DOM nodes (marked, then DOMPurify). */
export function renderMarkdown(markdown: string, doc: Document): DocumentFragment {
  return renderTokens(lexBlocks(markdown).tokens, doc);
}
