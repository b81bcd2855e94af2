// A top-level paragraph that is still streaming, rendered in pieces. A reply that is one long
// paragraph (no blank line, as logs or some models write) would otherwise be lexed, sanitized and
// laid out whole on every frame: O(paragraph) per frame, over 50 ms a frame near 100 KB. Here the
// lines before the last safe cut (see paragraphCut) are rendered once and kept; only the text after
// them is rendered again each frame, and appended to the same <p>. The nodes are those marked and
// DOMPurify give for the whole paragraph (text may be split over more text nodes, which serialize
// and display the same).
import type { Token } from 'marked';
import { hasRawHtml, lexInline, renderInline, type LinkDefinitions } from './markdownEngine';
import { lastCutPoint, lexClosed } from './paragraphCut';

export class GrowingParagraph {
  /** What the paragraph puts in the container: its element, and the line break marked writes after it. */
  readonly nodes: ChildNode[];
  private readonly element: HTMLElement;
  /** The start of the paragraph's text whose nodes are final. */
  private settled = '';
  /** Nodes of the text after `settled`, replaced on each update. */
  private unsettled: ChildNode[] = [];
  /** Length of the last cut found unsafe: the next try waits for twice as much text. */
  private refusedAt = 0;

  private constructor(doc: Document) {
    this.element = doc.createElement('p');
    this.nodes = [this.element, doc.createTextNode('\n')];
  }

  /** A paragraph showing `text`, or undefined when it holds raw HTML (render it whole instead). */
  static create(text: string, links: LinkDefinitions, doc: Document): GrowingParagraph | undefined {
    const paragraph = new GrowingParagraph(doc);
    return paragraph.update(text, links) ? paragraph : undefined;
  }

  /**
   * Shows `text`, which must begin with the text shown so far. False when that is not so, when raw
   * HTML appears, or when rendering fails: then the caller renders the paragraph whole.
   */
  update(text: string, links: LinkDefinitions): boolean {
    if (!text.startsWith(this.settled)) return false;
    const doc = this.element.ownerDocument;
    let rest = text.slice(this.settled.length);
    const cut = lastCutPoint(rest);
    // After a refusal (something still open, e.g. a lone `*`), wait for twice the text: a paragraph
    // that never closes it then costs O(its length) per frame, as it would without cutting.
    if (cut > 0 && cut >= 2 * this.refusedAt) {
      const closed = lexClosed(rest.slice(0, cut), links);
      const fragment = closed && renderInline(closed, doc);
      if (fragment) {
        this.element.insertBefore(fragment, this.unsettled[0] ?? null);
        this.settled += rest.slice(0, cut);
        rest = rest.slice(cut);
        this.refusedAt = 0;
      } else {
        this.refusedAt = cut;
      }
    }
    const tokens: Token[] = lexInline(rest, links);
    if (tokens.some(hasRawHtml)) return false;
    const fragment = renderInline(tokens, doc);
    if (!fragment) return false;
    for (const node of this.unsettled) node.remove();
    this.unsettled = Array.from(fragment.childNodes);
    this.element.append(fragment);
    return true;
  }
}
