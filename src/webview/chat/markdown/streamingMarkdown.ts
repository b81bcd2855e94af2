// Markdown that arrives token by token. Re-parsing and re-rendering the whole reply on every
// frame would cost O(reply) per frame (quadratic over a stream), so the text is split into
// top-level blocks (marked's lexer). Blocks that can no longer change (see completeBlocks) are
// rendered once and kept as DOM ("frozen"); only the text after them (the tail, usually the last
// block or two) is lexed and rendered again each frame, and even there a block that lexes the
// same keeps its nodes, a growing code fence updates its highlighted segments in place, and a
// growing paragraph renders only its lines after the last settled one (GrowingParagraph).
// Model output is untrusted, and can be written so that the tail never shrinks: the tail is cut
// short past FREEZE_AFTER (forcedFreeze), and a last block too long to lex again each frame is
// handed to an open block (openBlocks.ts) that takes only the new text. Anything that still throws
// turns the rest of the reply into plain text, never into an exception out of the renderer.
// The DOM after finish() is the same as setText() of the whole text gives (a unit test checks it
// over random slicings) for replies within the budgets (budgets.ts).
import type { Token, Tokens } from 'marked';
import { FREEZE_AFTER, REDRAW_LIMIT, TAIL_LIMIT } from './budgets';
import { isClosedFence } from '../../../shared/codeFence';
import { BlockGroups } from './blockGroups';
import { LinkBook, REFRESH_BUDGET } from './linkBook';
import { attachMarkdownActions } from './markdownActions';
import { hasRawHtml, lexBlocks, lexBlockStructure, lexInline, type LinkDefinitions } from './markdownEngine';
import { LINE_COMMIT, OpenPlain, type OpenBlock } from './openBlocks';
import { OpenFence } from './openFence';
import { OpenParagraph } from './openParagraph';
import { PlainText } from './plainText';
import { MARKDOWN_CLASS, planBlock } from './renderMarkdown';
import { growParagraph, placeTail, renderBlock, reuseBlock, type Block } from './tailBlocks';
import { completeBlocks, forcedFreeze, lastBlock, linkSignature, plainEnd } from './tailRules';

export interface MarkdownActions {
  copy(text: string): void;
  insert(code: string): void;
  newFile(code: string, language: string): void;
  openLink(href: string): void;
  /** Apply code block number `blockIndex` of this markdown to its file (absent: the button does nothing). */
  apply?(blockIndex: number): void;
}

/** The last block of the tail, when it is handed to an open block: how. */
type Opening = 'plain' | 'paragraph' | 'fence';

export class StreamingMarkdown {
  private rawText = '';
  /** The source after the frozen blocks (\r\n and \r turned into \n): the tail, or what the open block has not taken. */
  private pending = '';
  private endsWithCarriageReturn = false;
  private tail: Block[] = [];
  private open: OpenBlock | undefined;
  private book = new LinkBook();
  /** All definitions the last lex saw (frozen ones read through), and those of them in the tail. */
  private visibleLinks: LinkDefinitions = this.book.frozen;
  private tailLinks: LinkDefinitions = {};
  private scheduled = false;
  private dirty = false;
  private readonly schedule: (callback: () => void) => void;
  private readonly doc: Document;
  private groups: BlockGroups;

  /** Renders into `container` (which it owns). `schedule` defaults to requestAnimationFrame. */
  constructor(
    private readonly container: HTMLElement,
    actions: MarkdownActions,
    schedule?: (callback: () => void) => void,
  ) {
    this.schedule = schedule ?? defaultSchedule(container);
    this.doc = container.ownerDocument;
    this.groups = new BlockGroups(container);
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
    this.pending += normalized.replace(/\r\n?/g, '\n');
    this.dirty = true;
    this.requestFrame();
  }

  /** Replaces the whole text (e.g. opening a stored reply) and renders at once. */
  setText(text: string): void {
    this.rawText = text;
    this.pending = text.replace(/\r\n?/g, '\n');
    this.endsWithCarriageReturn = text.endsWith('\r');
    this.tail = [];
    this.open = undefined;
    this.book = new LinkBook();
    this.visibleLinks = this.book.frozen;
    this.tailLinks = {};
    this.container.replaceChildren();
    this.groups = new BlockGroups(this.container);
    this.render(true, true);
    this.finishReferences();
    this.groups.finish();
  }

  /** Renders whatever is pending now (end of stream). */
  finish(): void {
    if (this.dirty || this.open) this.render(false, true);
    this.finishReferences();
    this.groups.finish();
  }

  get text(): string {
    return this.rawText;
  }

  private requestFrame(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      if (this.dirty) this.render();
      else this.refreshReferences(REFRESH_BUDGET);
    });
  }

  /**
   * `whole`: the text is not streaming (setText), so no paragraph is rendered piece by piece (a long
   * one still gets its parts: renderTokens builds it with GrowingParagraph). `final`: no more text
   * will come, so nothing is handed to an open block and an open block ends.
   */
  private render(whole = false, final = false): void {
    this.dirty = false;
    try {
      if (this.open) {
        const { taken, ended } = this.open.advance(this.pending, final, this.visibleLinks);
        this.pending = this.pending.slice(taken);
        if (!ended) return;
        this.open = undefined;
      }
      this.renderTail(whole, final);
    } catch {
      this.fallBack(final);
    }
    this.refreshReferences(REFRESH_BUDGET);
  }

  private renderTail(whole: boolean, final: boolean): void {
    const structure = lexBlockStructure(this.pending, this.book.frozen);
    const { tokens, links } = structure;
    this.visibleLinks = links;
    this.tailLinks = structure.found;
    const signature = `${this.book.version}:${linkSignature(structure.found)}`;
    let freezeCount = completeBlocks(tokens);
    if (this.pending.length > FREEZE_AFTER) freezeCount = Math.max(freezeCount, forcedFreeze(tokens));
    const last = lastBlock(tokens);
    const opening = whole || final ? undefined : this.openingFor(tokens, last);
    if (opening) freezeCount = last;
    // Paragraphs that grow piece by piece, and blocks shown otherwise than with their group, need no
    // inline lexing here (see planBlock and GrowingParagraph).
    const mayGrow = (token: Token, index: number): boolean =>
      !whole && token.type === 'paragraph' && (index >= freezeCount || this.tail[index]?.paragraph !== undefined);
    structure.lexInlineContent(
      new Set(tokens.filter((token, index) => planBlock(token) !== 'group' || mayGrow(token, index))),
    );
    const withInline = (token: Token): Token => {
      const paragraph = token as Tokens.Paragraph;
      if (token.type === 'paragraph' && paragraph.tokens.length === 0 && planBlock(token) === 'group')
        paragraph.tokens.push(...lexInline(paragraph.text, links));
      return token;
    };

    const frozenNext: Block[] = [];
    const tailNext: Block[] = [];
    const reused = new Set<Block>();
    let group: Token[] = [];
    const flushGroup = (): void => {
      if (group.length) frozenNext.push(renderBlock(this.doc, group, signature, links));
      group = [];
    };
    for (const [index, token] of tokens.entries()) {
      const old = this.tail[index];
      const target = index < freezeCount ? frozenNext : tailNext;
      const growing = mayGrow(token, index) && index >= freezeCount && !(old?.rawHtml && token.raw.startsWith(old.raw));
      if (opening === 'plain' && index >= last) continue; // the open block shows it
      if (old && reuseBlock(old, token, signature, links)) {
        flushGroup();
        reused.add(old);
        target.push(old);
      } else if (growing && growParagraph(this.doc, token as Tokens.Paragraph, signature, links, target)) {
        flushGroup();
      } else if (index < freezeCount) {
        // New blocks that are already complete (a burst of text, or setText) render together.
        group.push(withInline(token));
      } else {
        flushGroup();
        const block = renderBlock(this.doc, [withInline(token)], signature, links);
        if (token.type === 'paragraph' && hasRawHtml(token)) block.rawHtml = true;
        target.push(block);
      }
    }
    flushGroup();
    placeTail(this.container, this.tail, [...frozenNext, ...tailNext], reused);
    for (const block of frozenNext) this.freeze(block, links);
    this.groups.add(frozenNext.reduce((count, block) => count + block.nodes.length, 0));
    this.tail = tailNext;
    let frozenLength = 0;
    for (const token of tokens.slice(0, freezeCount)) frozenLength += token.raw.length;
    this.book.define(definitionsIn(tokens.slice(0, freezeCount)));
    this.pending = this.pending.slice(frozenLength);
    if (opening && last >= 0) this.openLast(opening, tokens[last] as Token);
  }

  /** Whether the last block is handed to an open block, and how (see budgets.ts). */
  private openingFor(tokens: readonly Token[], last: number): Opening | undefined {
    const token = tokens[last];
    if (!token) return undefined;
    if (planBlock(token) === 'plain') return 'plain';
    if (last < tokens.length - 1) return undefined; // a blank line ended it
    if (token.type === 'paragraph') {
      if (this.tail[last]?.rawHtml && token.raw.length > REDRAW_LIMIT) return 'plain';
      const partialLine = this.pending.length - this.pending.lastIndexOf('\n') - 1;
      return token.raw.length > TAIL_LIMIT && (partialLine === 0 || partialLine > LINE_COMMIT)
        ? 'paragraph'
        : undefined;
    }
    if (
      token.type === 'code' &&
      token.codeBlockStyle !== 'indented' &&
      token.raw.length > TAIL_LIMIT &&
      !isClosedFence(token.raw)
    ) {
      return token.raw.includes('\n') ? 'fence' : 'plain';
    }
    return undefined;
  }

  /** Hands the last block (now the only one in the tail, which starts with it) to an open block. */
  private openLast(opening: Opening, token: Token): void {
    const block = this.tail[0];
    let taken: number;
    let nodes = block?.nodes.length ?? 0;
    if (opening === 'paragraph' && block?.paragraph) {
      this.open = new OpenParagraph(block.paragraph, (token as Tokens.Paragraph).text, !this.pending.endsWith('\n'));
      taken = this.pending.length;
    } else if (opening === 'fence' && block?.code) {
      const adopted = OpenFence.adopt(block.code, token as Tokens.Code);
      this.open = adopted.open;
      taken = adopted.taken;
    } else {
      for (const node of block?.nodes ?? []) node.remove();
      const plain = PlainText.create(this.doc, '');
      this.container.append(...plain.nodes);
      nodes = plain.nodes.length;
      const open = new OpenPlain(plain, plainEnd(token));
      this.open = open;
      taken = open.advance(this.pending, false).taken;
    }
    this.tail = [];
    this.pending = this.pending.slice(taken);
    this.groups.add(nodes); // the open block's element stays where it is, growing inside
  }

  /** After an unexpected failure: the rest of the reply, from what is not frozen, as plain text. */
  private fallBack(final: boolean): void {
    for (const block of this.tail) for (const node of block.nodes) node.remove();
    this.tail = [];
    const plain = PlainText.create(this.doc, '');
    this.container.append(...plain.nodes);
    this.groups.add(plain.nodes.length);
    const open = new OpenPlain(plain, 'blank');
    const { taken, ended } = open.advance(this.pending, final);
    this.pending = this.pending.slice(taken);
    this.open = ended ? undefined : open;
    if (ended && this.pending) this.dirty = true;
    if (this.dirty) this.requestFrame();
  }

  /** A block leaves the tail: never compared again, but rendered again should a definition it uses arrive. */
  private freeze(block: Block, links: LinkDefinitions): void {
    block.key = '';
    delete block.paragraph;
    if (block.nodes.length) this.book.watch(block, links);
  }

  /** Definitions still in the tail apply to earlier blocks too once the reply is complete. */
  private finishReferences(): void {
    this.book.queueWaiting(Object.keys(this.tailLinks));
    this.refreshReferences(4 * REFRESH_BUDGET);
  }

  /** Renders again (within `budget` characters) the frozen blocks queued for new definitions. */
  private refreshReferences(budget: number): void {
    for (const target of this.book.take(budget)) {
      const block = target as Block;
      try {
        const replacement = renderBlock(
          this.doc,
          lexBlocks(block.raw, this.visibleLinks).tokens,
          '',
          this.visibleLinks,
        );
        block.nodes[0]?.before(...replacement.nodes);
        for (const node of block.nodes) node.remove();
        block.replaced = true;
        this.freeze(replacement, this.visibleLinks);
      } catch {
        // the block keeps the nodes it has: its text is shown, without the new link
      }
    }
    if (this.book.pending) this.requestFrame();
  }
}

/** The definitions found in `tokens` (top-level `def` tokens), first ones first. */
function definitionsIn(tokens: readonly Token[]): LinkDefinitions {
  const found = Object.create(null) as LinkDefinitions;
  for (const token of tokens) {
    if (token.type !== 'def') continue;
    const { tag, href, title } = token as Tokens.Def;
    if (!Object.hasOwn(found, tag)) found[tag] = { href, title };
  }
  return found;
}

function defaultSchedule(container: HTMLElement): (callback: () => void) => void {
  const view = container.ownerDocument.defaultView;
  if (view?.requestAnimationFrame) return (callback) => view.requestAnimationFrame(() => callback());
  return (callback) => setTimeout(callback, 16);
}
