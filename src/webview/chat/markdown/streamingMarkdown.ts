// Markdown that arrives token by token. Re-parsing and re-rendering the whole reply on every
// frame would cost O(reply) per frame (quadratic over a stream), so the text is split into
// top-level blocks (marked's lexer). Blocks that can no longer change (see completeBlocks) are
// rendered once and kept as DOM ("frozen"); only the text after them (the tail, usually the last
// block or two) is lexed and rendered again each frame, and even there a block that lexes the
// same keeps its nodes, a growing code fence updates its highlighted segments in place, and a
// growing paragraph renders only its lines after the last settled one (GrowingParagraph).
// The DOM after finish() is the same as setText() of the whole text gives (a unit test checks it
// over random slicings).
import type { Token, Tokens } from 'marked';
import { fenceLanguage, isClosedFence, updateCodeBlock } from './codeBlocks';
import { GrowingParagraph } from './growingParagraph';
import { attachMarkdownActions } from './markdownActions';
import { hasRawHtml, lexBlocks, lexBlockStructure, lexInline, type LinkDefinitions } from './markdownEngine';
import { MARKDOWN_CLASS, renderTokens } from './renderMarkdown';

export interface MarkdownActions {
  copy(text: string): void;
  insert(code: string): void;
  newFile(code: string, language: string): void;
  openLink(href: string): void;
}

/** One rendered top-level block (frozen groups may hold several blocks rendered together). */
interface Block {
  /** Its markdown source (normalized line ends). */
  raw: string;
  /**
   * What else must match for the block to keep its nodes while it is in the tail (see tokenKey):
   * equal source is not enough, marked can lex the same source differently depending on what
   * follows it.
   */
  key: string;
  readonly nodes: ChildNode[];
  /** The reference definitions it was lexed with (sorted JSON): `[x][ref]` links depend on them. */
  readonly links: string;
  /** The code block element, for a top-level fence that can be updated in place. */
  readonly code?: Element;
  /** A paragraph in the tail, rendered piece by piece while it grows. */
  paragraph?: GrowingParagraph;
  /** A paragraph rendered whole for its raw HTML: growing, it still holds it (GrowingParagraph is not tried). */
  rawHtml?: boolean;
}

export class StreamingMarkdown {
  private rawText = '';
  /** rawText with \r\n and \r turned into \n, as marked's lexer sees it (raw offsets refer to it). */
  private source = '';
  private endsWithCarriageReturn = false;
  /** Length of the source already frozen. */
  private frozenEnd = 0;
  private frozen: Block[] = [];
  private tail: Block[] = [];
  /** Reference definitions found in frozen blocks (earlier definitions win, as in marked). */
  private frozenLinks: LinkDefinitions = {};
  /** All definitions the last lex saw, including those still in the tail. */
  private visibleLinks: LinkDefinitions = {};
  private scheduled = false;
  private dirty = false;
  private readonly schedule: (callback: () => void) => void;

  /** Renders into `container` (which it owns). `schedule` defaults to requestAnimationFrame. */
  constructor(
    private readonly container: HTMLElement,
    actions: MarkdownActions,
    schedule?: (callback: () => void) => void,
  ) {
    this.schedule = schedule ?? defaultSchedule(container);
    container.classList.add(MARKDOWN_CLASS);
    container.replaceChildren();
    attachMarkdownActions(container, actions);
  }

  /** Appends streamed text; renders at most once per scheduled frame. */
  append(delta: string): void {
    if (!delta) return;
    this.rawText += delta;
    let normalized = delta;
    if (this.endsWithCarriageReturn && normalized.startsWith('\n')) normalized = normalized.slice(1);
    this.endsWithCarriageReturn = delta.endsWith('\r');
    this.source += normalized.replace(/\r\n?/g, '\n');
    this.dirty = true;
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      if (this.dirty) this.render();
    });
  }

  /** Replaces the whole text (e.g. opening a stored reply) and renders at once. */
  setText(text: string): void {
    this.rawText = text;
    this.source = text.replace(/\r\n?/g, '\n');
    this.endsWithCarriageReturn = text.endsWith('\r');
    this.frozenEnd = 0;
    this.frozen = [];
    this.tail = [];
    this.frozenLinks = {};
    this.visibleLinks = {};
    this.container.replaceChildren();
    this.render(true);
    this.refreshReferences(this.visibleLinks);
  }

  /** Renders whatever is pending now (end of stream). */
  finish(): void {
    if (this.dirty) this.render();
    // Definitions still in the tail apply to earlier blocks too once the reply is complete.
    this.refreshReferences(this.visibleLinks);
  }

  get text(): string {
    return this.rawText;
  }

  /**
   * `whole`: the text is not streaming (setText), so no paragraph is rendered piece by piece (a long
   * one still gets its parts: renderTokens builds it with GrowingParagraph).
   */
  private render(whole = false): void {
    this.dirty = false;
    const structure = lexBlockStructure(this.source.slice(this.frozenEnd), this.frozenLinks);
    const { tokens, links } = structure;
    this.visibleLinks = links;
    const signature = linkSignature(links);
    const freezeCount = completeBlocks(tokens);
    // Paragraphs that grow piece by piece need no inline lexing here (see GrowingParagraph).
    const growing = new Set(whole ? [] : tokens.filter((token, index) => token.type === 'paragraph' && (index >= freezeCount || this.tail[index]?.paragraph)));
    structure.lexInlineContent(growing);
    const withInline = (token: Token): Token => {
      if (growing.delete(token)) (token as Tokens.Paragraph).tokens.push(...lexInline((token as Tokens.Paragraph).text, links));
      return token;
    };

    const frozenNext: Block[] = [];
    const tailNext: Block[] = [];
    const reused = new Set<Block>();
    let group: Token[] = [];
    const flushGroup = (): void => {
      if (group.length) frozenNext.push(this.renderBlock(group, signature, links));
      group = [];
    };
    for (const [index, token] of tokens.entries()) {
      const old = this.tail[index];
      const target = index < freezeCount ? frozenNext : tailNext;
      const mayGrow = index >= freezeCount && growing.has(token) && !(old?.rawHtml && token.raw.startsWith(old.raw));
      if (old && this.reuse(old, token, signature, links)) {
        flushGroup();
        reused.add(old);
        target.push(old);
      } else if (mayGrow && this.growParagraph(token as Tokens.Paragraph, signature, links, target)) {
        flushGroup();
      } else if (index < freezeCount) {
        // New blocks that are already complete (a burst of text, or setText) render together.
        group.push(withInline(token));
      } else {
        flushGroup();
        const block = this.renderBlock([withInline(token)], signature, links);
        if (token.type === 'paragraph' && hasRawHtml(token)) block.rawHtml = true;
        target.push(block);
      }
    }
    flushGroup();
    this.placeTail([...frozenNext, ...tailNext], reused);
    for (const block of frozenNext) {
      block.key = ''; // frozen blocks are never compared again
      delete block.paragraph;
    }
    this.frozen.push(...frozenNext);
    this.tail = tailNext;
    for (const token of tokens.slice(0, freezeCount)) this.frozenEnd += token.raw.length;

    const before = Object.keys(this.frozenLinks).length;
    for (const token of tokens.slice(0, freezeCount)) {
      if (token.type === 'def' && !(token.tag in this.frozenLinks)) {
        this.frozenLinks[token.tag] = { href: token.href, title: token.title };
      }
    }
    if (Object.keys(this.frozenLinks).length !== before) this.refreshReferences(links);
  }

  /** Whether `old` (a tail block of the last frame) can stand for `token` as it is now. */
  private reuse(old: Block, token: Token, signature: string, links: LinkDefinitions): boolean {
    const linksMatter = token.raw.includes('[');
    if (old.links !== signature && linksMatter) return false;
    if (old.raw === token.raw && old.key === tokenKey(token)) return true;
    // A paragraph still streaming: render its new lines only.
    if (old.paragraph && token.type === 'paragraph') {
      if (!old.paragraph.update(token.text, links)) return false;
      old.raw = token.raw;
      return true;
    }
    // A fence still streaming: update its highlighted segments instead of rebuilding it.
    if (old.code && token.type === 'code') {
      if (updateCodeBlock(old.code, token.text, fenceLanguage(token.lang), isClosedFence(token.raw))) {
        old.raw = token.raw;
        old.key = tokenKey(token);
        return true;
      }
    }
    return false;
  }

  /** Starts a tail paragraph that renders piece by piece; false when it must be rendered whole. */
  private growParagraph(token: Tokens.Paragraph, signature: string, links: LinkDefinitions, target: Block[]): boolean {
    const paragraph = GrowingParagraph.create(token.text, links, this.container.ownerDocument);
    if (!paragraph) return false;
    target.push({ raw: token.raw, key: tokenKey(token), nodes: paragraph.nodes, links: signature, paragraph });
    return true;
  }

  private renderBlock(tokens: Token[], signature: string, links: LinkDefinitions): Block {
    const nodes = Array.from(renderTokens(tokens, links, this.container.ownerDocument).childNodes);
    const only = tokens.length === 1 ? tokens[0] : undefined;
    const code = only?.type === 'code' ? nodes.find((node): node is Element => isCodeBlock(node)) : undefined;
    const key = only ? tokenKey(only) : '';
    return { raw: tokens.map((token) => token.raw).join(''), key, nodes, links: signature, ...(code ? { code } : {}) };
  }

  /**
   * Puts the new tail into the DOM: old tail blocks not kept are removed, kept ones stay where
   * they are (they are in the same order), new ones are inserted before the next kept one.
   */
  private placeTail(next: Block[], reused: Set<Block>): void {
    for (const old of this.tail) {
      if (!reused.has(old)) for (const node of old.nodes) node.remove();
    }
    let before: ChildNode | null = null;
    for (let index = next.length - 1; index >= 0; index--) {
      const block = next[index];
      if (!block) continue;
      if (!reused.has(block)) {
        for (const node of block.nodes) this.container.insertBefore(node, before);
      }
      before = block.nodes[0] ?? before;
    }
  }

  /** Re-renders frozen blocks that were lexed before reference definitions they may use. */
  private refreshReferences(links: LinkDefinitions): void {
    const signature = linkSignature(links);
    for (const [index, block] of this.frozen.entries()) {
      if (block.links === signature || !block.raw.includes('[') || block.nodes.length === 0) continue;
      const replacement = this.renderBlock(lexBlocks(block.raw, links).tokens, signature, links);
      const first = block.nodes[0];
      for (const node of replacement.nodes) this.container.insertBefore(node, first ?? null);
      for (const node of block.nodes) node.remove();
      this.frozen[index] = replacement;
    }
  }
}

/**
 * How many leading tokens can no longer change. Markdown decides block structure line by line, but
 * a line's meaning depends on the block before it (a paragraph can absorb lazy lines, a table or a
 * list item may interrupt it, "7" becomes "7. seven" and joins an ordered list across a blank
 * line) and sometimes on the next line (a table needs its delimiter row). So a block is frozen only
 * when a blank line follows it (the lexer starts fresh there, as it does when the tail is lexed
 * on its own) and the block after that blank already has two complete lines.
 */
function completeBlocks(tokens: readonly Token[]): number {
  let newlinesAfter = 0;
  for (let index = tokens.length - 1; index > 0; index--) {
    const token = tokens[index];
    if (!token) continue;
    const previous = tokens[index - 1];
    if (previous?.type === 'space' && token.type !== 'space' && newlinesAfter + countNewlines(token.raw) >= 2) return index;
    newlinesAfter += countNewlines(token.raw);
  }
  return 0;
}

/** What a tail block must still match to keep its nodes, besides its source (see Block.key). */
function tokenKey(token: Token): string {
  // A code block renders from its source alone, and a paragraph from its source and the reference
  // definitions (compared apart): skipping them spares serializing a long block per frame.
  if (token.type === 'code' || token.type === 'paragraph') return token.type;
  return JSON.stringify(token);
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function linkSignature(links: LinkDefinitions): string {
  const keys = Object.keys(links).sort();
  return keys.length ? JSON.stringify(keys.map((key) => [key, links[key]])) : '';
}

function isCodeBlock(node: ChildNode): boolean {
  return node.nodeType === 1 && (node as Element).classList.contains('md-code-block');
}

function defaultSchedule(container: HTMLElement): (callback: () => void) => void {
  const view = container.ownerDocument.defaultView;
  if (view?.requestAnimationFrame) return (callback) => view.requestAnimationFrame(() => callback());
  return (callback) => setTimeout(callback, 16);
}
