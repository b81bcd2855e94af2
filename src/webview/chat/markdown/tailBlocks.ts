// The blocks of StreamingMarkdown's tail: rendering one, keeping one whose text only grew
// (a paragraph rendered in pieces, a fence updated in place), and putting the tail into the DOM.
import type { Token, Tokens } from 'marked';
import { isClosedFence, pathFromFenceInfo } from '../../../shared/codeFence';
import { fenceLanguage, updateCodeBlock } from './codeBlocks';
import { GrowingParagraph } from './growingParagraph';
import type { LinkDefinitions } from './guardedLexer';
import type { RefreshTarget } from './linkBook';
import { renderTokens } from './renderMarkdown';
import { tokenKey } from './tailRules';

/** One rendered top-level block (frozen groups may hold several blocks rendered together). */
export interface Block extends RefreshTarget {
  /** Its markdown source (normalized line ends). */
  raw: string;
  /**
   * What else must match for the block to keep its nodes while it is in the tail (see tokenKey):
   * equal source is not enough, marked can lex the same source differently depending on what
   * follows it.
   */
  key: string;
  nodes: ChildNode[];
  /** The reference definitions it was lexed with (StreamingMarkdown's signature of them). */
  readonly links: string;
  /** The code block element, for a top-level fence that can be updated in place. */
  readonly code?: Element;
  /** A paragraph in the tail, rendered piece by piece while it grows. */
  paragraph?: GrowingParagraph;
  /** A paragraph rendered whole for its raw HTML: growing, it still holds it (GrowingParagraph is not tried). */
  rawHtml?: boolean;
}

/** Whether `old` (a tail block of the last frame) can stand for `token` as it is now. */
export function reuseBlock(old: Block, token: Token, signature: string, links: LinkDefinitions): boolean {
  const linksMatter = token.raw.includes('[');
  if (old.links !== signature && linksMatter) return false;
  if (old.raw === token.raw && old.key === tokenKey(token)) return true;
  // A paragraph still streaming: render its new lines only.
  if (old.paragraph && token.type === 'paragraph') {
    if (!old.paragraph.update((token as Tokens.Paragraph).text, links)) return false;
    old.raw = token.raw;
    return true;
  }
  // A fence still streaming: update its highlighted segments instead of rebuilding it.
  if (old.code && token.type === 'code') {
    const { text, lang, raw } = token as Tokens.Code;
    if (updateCodeBlock(old.code, text, fenceLanguage(lang), isClosedFence(raw), pathFromFenceInfo(lang ?? ''))) {
      old.raw = token.raw;
      old.key = tokenKey(token);
      return true;
    }
  }
  return false;
}

/** Starts a tail paragraph that renders piece by piece; false when it must be rendered whole. */
export function growParagraph(
  doc: Document,
  token: Tokens.Paragraph,
  signature: string,
  links: LinkDefinitions,
  target: Block[],
): boolean {
  const paragraph = GrowingParagraph.create(token.text, links, doc);
  if (!paragraph) return false;
  target.push({ raw: token.raw, key: tokenKey(token), nodes: paragraph.nodes, links: signature, paragraph });
  return true;
}

export function renderBlock(doc: Document, tokens: Token[], signature: string, links: LinkDefinitions): Block {
  const nodes = Array.from(renderTokens(tokens, links, doc).childNodes);
  const only = tokens.length === 1 ? tokens[0] : undefined;
  const code = only?.type === 'code' ? nodes.find((node): node is Element => isCodeBlock(node)) : undefined;
  const key = only ? tokenKey(only) : '';
  return { raw: tokens.map((token) => token.raw).join(''), key, nodes, links: signature, ...(code ? { code } : {}) };
}

/**
 * Puts the new tail into `container`: old tail blocks not kept are removed, kept ones stay where
 * they are (they are in the same order), new ones are inserted before the next kept one.
 */
export function placeTail(
  container: HTMLElement,
  old: readonly Block[],
  next: readonly Block[],
  reused: ReadonlySet<Block>,
): void {
  for (const block of old) {
    if (!reused.has(block)) for (const node of block.nodes) node.remove();
  }
  let before: ChildNode | null = null;
  for (let index = next.length - 1; index >= 0; index--) {
    const block = next[index];
    if (!block) continue;
    if (!reused.has(block)) {
      for (const node of block.nodes) {
        if (before) before.before(node);
        else container.append(node);
      }
    }
    before = block.nodes[0] ?? before;
  }
}

function isCodeBlock(node: ChildNode): boolean {
  return node.nodeType === 1 && (node as Element).classList.contains('md-code-block');
}
