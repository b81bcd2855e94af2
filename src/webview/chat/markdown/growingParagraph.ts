// A top-level paragraph rendered in pieces. A reply that is one long paragraph (no blank line, as
// logs or some models write) would otherwise be lexed, sanitized and laid out whole on every frame
// while it streams: O(paragraph) per frame, over 50 ms a frame near 100 KB.
//
// The text is cut three ways, each at places that depend on the text alone, so a paragraph that
// streams in any slices ends up with the nodes it gets when rendered whole:
// - Chunks: marked lexes each chunk on its own, and a chunk ends where lexing it would pass the
//   inline budget (chunkEnd in budgets.ts). Ordinary text stays well inside one chunk per part;
//   text dense with `*`, `_`, `[`... is cut at a line end (or a space) where marked might have
//   paired something across the cut, which it would only do at a cost that grows with the square
//   of the text.
// - Parts (layout): Chromium lays out a paragraph's lines again from the first whenever its
//   content changes (about 30 ms at 100 KB, measured), so a paragraph is split into block-level
//   parts of at least PART_CHARS: a part ends at the first line end past that where nothing is left
//   open (paragraphCut), or at the first chunk end past it. Each part starts on a new line where one
//   long paragraph would run on; in a text over 4 KB without a blank line that is a small price for
//   a panel that stays responsive.
// - While streaming: the lines before the last safe cut (paragraphCut) are rendered once and kept;
//   only the text after them is rendered again on the next update, into the same <p> (or part).
// The nodes are those marked and DOMPurify give for each chunk's text, possibly split over more
// text nodes, which serialize and display the same.
import type { Token } from 'marked';
import type { LinkDefinitions } from './guardedLexer';
import { hasRawHtml, lexInline, renderInline } from './markdownEngine';
import { chunkEnd, PART_CHARS, PART_CLASS } from './budgets';
import { lastCutPoint, lexClosed, mayCutAfter, PART_END_TRIES } from './paragraphCut';

export { PART_CHARS, PART_CLASS } from './budgets';

/** Characters of complete lines below which the unsettled text is rendered again rather than cut. */
const MIN_CUT = 256;

export class GrowingParagraph {
  /** What the paragraph puts in the container: its element, and the line break marked writes after it. */
  readonly nodes: ChildNode[];
  private readonly element: HTMLElement;
  /** Where new nodes go: the paragraph, or its last part once it has parts. */
  private current: HTMLElement;
  /** Offsets in the paragraph's text: where the current part and chunk start, and up to where the nodes are final. */
  private partStart = 0;
  private chunkStart = 0;
  private settled = 0;
  /** The paragraph's text from chunkStart on, as far as it is known. */
  private chunk = '';
  /** Text after `chunk` shown but not committed (a line still arriving, see append). */
  private preview = '';
  /** Where the next line end is looked for as the end of the part, and the line ends refused in a row. */
  private search = { from: 0, tries: 0 };
  /** Nodes of the text after `settled`, replaced on each update. */
  private unsettled: ChildNode[] = [];
  /** Length of the last cut found unsafe: the next try waits for twice as much text. */
  private refusedAt = 0;
  /** An update failed part way: the nodes no longer match the text (see update). */
  private failed = false;

  private constructor(doc: Document) {
    this.element = doc.createElement('p');
    this.current = this.element;
    this.nodes = [this.element, doc.createTextNode('\n')];
  }

  /** A paragraph showing `text`, or undefined when it holds raw HTML (render it whole instead). */
  static create(text: string, links: LinkDefinitions, doc: Document): GrowingParagraph | undefined {
    const paragraph = new GrowingParagraph(doc);
    return paragraph.update(text, links) ? paragraph : undefined;
  }

  /**
   * Shows `text`, the paragraph's whole text so far, which must begin with the text whose nodes
   * are final. False when that is not so, when raw HTML appears, or when rendering fails: then the
   * caller renders the paragraph whole, and this one, left half updated, refuses every later update.
   */
  update(text: string, links: LinkDefinitions): boolean {
    if (this.failed || text.length < this.settled) return false;
    const kept = this.settled - this.chunkStart;
    if (!text.startsWith(this.chunk.slice(0, kept), this.chunkStart)) return false;
    this.chunk = text.slice(this.chunkStart);
    this.preview = '';
    return this.advance(links);
  }

  /**
   * Appends `more` to the text (which the caller knows is unchanged before it) and shows `preview`
   * after it without committing it: what a paragraph too long to lex from its start each frame
   * receives (openBlocks.ts). False as for update.
   */
  append(more: string, preview: string, links: LinkDefinitions): boolean {
    if (this.failed) return false;
    this.chunk += more;
    this.preview = preview;
    return this.advance(links);
  }

  private advance(links: LinkDefinitions): boolean {
    this.failed = true; // until this update completes
    for (const node of this.unsettled) node.remove();
    this.unsettled = [];
    for (;;) {
      const end = chunkEnd(this.chunk, 0);
      const partEnd = this.findPartEnd(end ?? this.chunk.length, links);
      const cut = partEnd ?? end;
      if (cut === undefined) break;
      if (!this.settleTo(cut, links)) return false;
      this.nextChunk(cut, partEnd !== undefined || this.chunkStart + cut - this.partStart >= PART_CHARS);
    }
    const rest = this.chunk.slice(this.settled - this.chunkStart);
    const cut = lastCutPoint(rest);
    // A cut costs a second lex and sanitize this update: worth it once the rest is long. After a
    // refusal (something still open, e.g. a lone `*`), wait for twice the text: a chunk that never
    // closes it then costs O(its length) per update, as it would without cutting.
    if (cut >= MIN_CUT && cut >= 2 * this.refusedAt) {
      const closed = lexClosed(rest.slice(0, cut), links);
      if (!closed) this.refusedAt = cut;
      else if (this.write(closed)) {
        this.settled += cut;
        this.refusedAt = 0;
      } else return false;
    }
    const unsettled = this.write(lexInline(this.chunk.slice(this.settled - this.chunkStart) + this.preview, links));
    if (!unsettled) return false;
    this.unsettled = unsettled;
    this.failed = false;
    return true;
  }

  /**
   * The end of the current part, relative to the chunk, if it is a line end before `limit`: the
   * first line end at least PART_CHARS after the part's start before which nothing in the chunk is
   * left open. After PART_END_TRIES refusals in a row, only line ends twice as far from the part's
   * start are tried, so the work stays linear.
   */
  private findPartEnd(limit: number, links: LinkDefinitions): number | undefined {
    for (;;) {
      const from = Math.max(this.search.from, this.partStart + PART_CHARS - 1, this.chunkStart) - this.chunkStart;
      // Within the chunk only: the rest of a long text is not looked at again for every chunk.
      const found = from < limit ? this.chunk.slice(from, limit).indexOf('\n') : -1;
      if (found === -1) return undefined;
      const newline = from + found;
      const end = newline + 1;
      this.search.from = this.chunkStart + end;
      if (!mayCutAfter(this.chunk, newline)) continue;
      if (lexClosed(this.chunk.slice(0, end), links)) return end;
      if (++this.search.tries >= PART_END_TRIES) {
        this.search.from = this.partStart + 2 * (this.chunkStart + end - this.partStart);
        this.search.tries = PART_END_TRIES - 1; // one try per doubling from now on
      }
    }
  }

  /** Renders the chunk's text from the settled end to `end` (relative to the chunk) as final. */
  private settleTo(end: number, links: LinkDefinitions): boolean {
    const from = this.settled - this.chunkStart;
    if (end < from) return false; // chunks and parts end after what is settled; never seen
    if (end > from && !this.write(lexInline(this.chunk.slice(from, end), links))) return false;
    this.settled = this.chunkStart + end;
    return true;
  }

  /** Starts the next chunk `end` characters into this one (and a new part when `newPart`). */
  private nextChunk(end: number, newPart: boolean): void {
    this.chunk = this.chunk.slice(end);
    this.chunkStart += end;
    this.settled = this.chunkStart;
    this.refusedAt = 0;
    if (!newPart) return;
    this.startPart();
    this.partStart = this.chunkStart;
    this.search = { from: this.chunkStart, tries: 0 };
  }

  /** Appends `tokens` to the current part; the nodes added, or undefined for raw HTML or a failed render. */
  private write(tokens: Token[]): ChildNode[] | undefined {
    if (tokens.some(hasRawHtml)) return undefined;
    const fragment = renderInline(tokens, this.element.ownerDocument);
    if (!fragment) return undefined;
    const nodes = Array.from(fragment.childNodes);
    this.current.append(fragment);
    return nodes;
  }

  /** The paragraph's first part holds what it shows so far; later ones start empty. */
  private startPart(): void {
    const doc = this.element.ownerDocument;
    if (this.current === this.element) {
      const first = doc.createElement('span');
      first.className = PART_CLASS;
      first.append(...Array.from(this.element.childNodes));
      this.element.append(first);
    }
    this.current = doc.createElement('span');
    this.current.className = PART_CLASS;
    this.element.append(this.current);
  }
}
