// The renderer's fallback: model output shown as the text it is, when rendering it as markdown
// would cost more than the budgets allow (budgets.ts) or marked, DOMPurify or highlight.js gave up
// on it. Only createElement and text nodes: nothing in it is parsed, so nothing in it can run, and
// every character received is shown. Line breaks are kept (white-space: pre-wrap, chatMarkdown.css).
//
// It may grow while it streams (append), and a long one is laid out in parts like a long paragraph
// (see GrowingParagraph): Chromium lays out a text block from its first line whenever it changes,
// so one growing 1 MB text node would cost O(reply) per frame. Where the parts end depends on the
// text only, so a streamed block and the same text rendered whole give the same nodes.
import { CHUNK_CHARS, PART_CHARS, PART_CLASS } from './budgets';

/** The class of a plain-text block, for its styling (and for tests to find the fallback). */
const PLAIN_CLASS = 'md-plain';

export class PlainText {
  /** What it puts in the container. */
  readonly nodes: ChildNode[];
  private readonly element: HTMLElement;
  private current: HTMLElement;
  private node: Text | undefined;
  /** The text of the current part so far. */
  private part = '';

  private constructor(private readonly doc: Document) {
    this.element = doc.createElement('p');
    this.element.className = PLAIN_CLASS;
    this.current = this.element;
    this.nodes = [this.element];
  }

  static create(doc: Document, text: string): PlainText {
    const plain = new PlainText(doc);
    plain.append(text);
    return plain;
  }

  /** Shows `text` after what is shown. */
  append(text: string): void {
    let rest = text;
    while (rest) {
      // The part ends within CHUNK_CHARS of its start: look no further (rest may be 1 MB).
      const end = plainPartEnd(this.part + rest.slice(0, CHUNK_CHARS + 1 - this.part.length), this.part.length);
      const taken = end === undefined ? rest : rest.slice(0, end - this.part.length);
      this.write(taken);
      rest = rest.slice(taken.length);
      if (end !== undefined) this.startPart();
    }
  }

  private write(text: string): void {
    if (!text) return;
    this.part += text;
    if (this.node) this.node.appendData(text);
    else this.current.append((this.node = this.doc.createTextNode(text)));
  }

  private startPart(): void {
    if (this.current === this.element) {
      const first = this.doc.createElement('span');
      first.className = PART_CLASS;
      first.append(...Array.from(this.element.childNodes));
      this.element.append(first);
    }
    this.current = this.doc.createElement('span');
    this.current.className = PART_CLASS;
    this.element.append(this.current);
    this.node = undefined;
    this.part = '';
  }
}

/**
 * Where the plain part that `text` holds from its start ends, if it ends before the text does: after
 * the first line end at least PART_CHARS in, else (a very long line) after the last space within
 * CHUNK_CHARS, else at CHUNK_CHARS. `known` characters were already looked at.
 */
function plainPartEnd(text: string, known: number): number | undefined {
  const lineEnd = text.indexOf('\n', Math.max(known, PART_CHARS - 1));
  if (lineEnd !== -1 && lineEnd < CHUNK_CHARS) return lineEnd + 1;
  if (text.length <= CHUNK_CHARS) return undefined;
  const space = Math.max(text.lastIndexOf(' ', CHUNK_CHARS - 1), text.lastIndexOf('\t', CHUNK_CHARS - 1));
  if (space > 0) return space + 1;
  const code = text.charCodeAt(CHUNK_CHARS - 1);
  return code >= 0xd800 && code <= 0xdbff ? CHUNK_CHARS - 1 : CHUNK_CHARS;
}

/** A plain-text block of `text` (its trailing line ends dropped, as a rendered block would). */
export function plainBlock(doc: Document, text: string): ChildNode[] {
  return PlainText.create(doc, text.replace(/\n+$/, '')).nodes;
}
