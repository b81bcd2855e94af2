// A top-level paragraph rendered in pieces. A reply that is one long paragraph (no blank line, as
// logs or some models write) would otherwise be lexed, sanitized and laid out whole on every frame
// while it streams: O(paragraph) per frame, over 50 ms a frame near 100 KB.
//
// - Rendering: the lines before the last safe cut (see paragraphCut) are rendered once and kept;
//   only the text after them is rendered again on the next update, into the same <p> (or its
//   last part).
// - Layout: Chromium lays out a paragraph's lines again from the first whenever its content
//   changes (about 30 ms at 100 KB, measured), and once more whenever the paragraph is laid out
//   anew. So a paragraph longer than PART_CHARS is split into block-level parts of at least that
//   size, each laid out on its own, at line ends that depend on its text only (findPartEnds): the
//   same parts whether it streams or is rendered whole (renderTokens builds long paragraphs with
//   this class too). Each part starts on a new line where one long paragraph would run on; in a
//   text over 4 KB without a blank line that is a small price for a panel that stays responsive.
// The nodes are those marked and DOMPurify give for the paragraph's text (or for each part's),
// possibly split over more text nodes, which serialize and display the same.
import type { Token } from 'marked';
import { hasRawHtml, lexInline, renderInline, type LinkDefinitions } from './markdownEngine';
import { findPartEnds, lastCutPoint, lexClosed, newPartSearch } from './paragraphCut';

export { PART_CHARS } from './paragraphCut';

/** Characters of complete lines below which the unsettled text is rendered again rather than cut. */
const MIN_CUT = 256;

/** A part's class: display: block (media/chatMarkdown.css). The sanitizer drops `class` from model HTML. */
export const PART_CLASS = 'md-paragraph-part';

export class GrowingParagraph {
  /** What the paragraph puts in the container: its element, and the line break marked writes after it. */
  readonly nodes: ChildNode[];
  private readonly element: HTMLElement;
  /** Where new nodes go: the paragraph, or its last part once it has parts. */
  private current: HTMLElement;
  private readonly parts = newPartSearch();
  /** The start of the paragraph's text whose nodes are final. */
  private settled = '';
  /** Nodes of the text after `settled`, replaced on each update. */
  private unsettled: ChildNode[] = [];
  /** Length of the last cut found unsafe: the next try waits for twice as much text. */
  private refusedAt = 0;
  /** An update failed part way: the nodes no longer match `settled` (see update). */
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
   * Shows `text`, which must begin with the text shown so far. False when that is not so, when raw
   * HTML appears, or when rendering fails: then the caller renders the paragraph whole, and this
   * one, left half updated, refuses every later update.
   */
  update(text: string, links: LinkDefinitions): boolean {
    if (this.failed || !text.startsWith(this.settled)) return false;
    this.failed = true; // until this update completes

    for (const node of this.unsettled) node.remove();
    this.unsettled = [];
    // Parts that ended since the last update: settle up to each end, then start the next part.
    for (const end of findPartEnds(text, this.parts, links)) {
      if (!this.settle(text, end, links)) return false;
      this.startPart();
    }
    const rest = text.slice(this.settled.length);
    const cut = lastCutPoint(rest);
    // A cut costs a second lex and sanitize this update: worth it once the rest is long. After a
    // refusal (something still open, e.g. a lone `*`), wait for twice the text: a paragraph that
    // never closes it then costs O(its length) per update, as it would without cutting.
    if (cut >= MIN_CUT && cut >= 2 * this.refusedAt) {
      const closed = lexClosed(rest.slice(0, cut), links);
      if (!closed) this.refusedAt = cut;
      else if (this.append(closed)) {
        this.settled += rest.slice(0, cut);
        this.refusedAt = 0;
      } else return false;
    }
    const unsettled = this.append(lexInline(text.slice(this.settled.length), links));
    if (!unsettled) return false;
    this.unsettled = unsettled;
    this.failed = false;
    return true;
  }

  /** Renders the text from the settled end to `end` (a part's end, so nothing is open before it) as final. */
  private settle(text: string, end: number, links: LinkDefinitions): boolean {
    if (end < this.settled.length) return false; // parts end after what is settled; never seen
    if (end > this.settled.length && !this.append(lexInline(text.slice(this.settled.length, end), links))) return false;
    this.settled = text.slice(0, end);
    this.refusedAt = 0;
    return true;
  }

  /** Appends `tokens` to the current part; the nodes added, or undefined for raw HTML or a failed render. */
  private append(tokens: Token[]): ChildNode[] | undefined {
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
