// A paragraph still growing at the end of a long streaming reply (see openBlocks.ts). Each frame
// marked lexes only the new lines, behind one stand-in paragraph line: the lines it keeps in that
// paragraph continue this one (GrowingParagraph renders them), and the first line it does not (a
// blank line, a heading, a list item, a fence, a table...) ends it. What marked would do to the
// whole paragraph because of a later line (a `===` under it makes it a heading) is not seen: the
// paragraph ends before that line instead. Should the paragraph turn out to hold raw HTML, which
// GrowingParagraph does not render in pieces, it is shown as plain text from then on, as such a
// paragraph this long is when rendered whole (renderTokens).
import type { Tokens } from 'marked';
import type { GrowingParagraph } from './growingParagraph';
import type { LinkDefinitions } from './guardedLexer';
import { lexBlockStructure } from './markdownEngine';
import { LINE_COMMIT, OpenPlain, splitLines, type OpenBlock, type Taken } from './openBlocks';
import { PlainText } from './plainText';

/** The stand-in for the paragraph's text so far: one line of plain text. */
const PROBE = 'p';

export class OpenParagraph implements OpenBlock {
  private plain: OpenPlain | undefined;

  /**
   * Takes over `paragraph`, which shows `text`: the paragraph's text up to a line end, or into a
   * line still arriving when `lineOpen` (a long line, taken as it comes).
   */
  constructor(
    private readonly paragraph: GrowingParagraph,
    private text: string,
    private lineOpen: boolean,
  ) {}

  advance(source: string, final: boolean, links: LinkDefinitions): Taken {
    if (this.plain) return this.plain.advance(source, final);
    let addition = '';
    let taken = 0;
    if (this.lineOpen) {
      const newline = source.indexOf('\n');
      addition = newline === -1 ? source : source.slice(0, newline);
      taken = newline === -1 ? source.length : newline + 1;
      this.lineOpen = newline === -1 && !final;
      if (this.lineOpen) return this.show(addition, '', { taken, ended: false }, links);
    }
    const { complete, partial } = splitLines(source.slice(taken), final);
    const lines = complete.endsWith('\n') ? complete.slice(0, -1) : complete;
    const kept = continuedLines(lines);
    for (const line of kept ? [kept] : []) addition += `\n${line}`;
    if (kept !== lines) {
      // A line that does not continue the paragraph ends it there; the rest is lexed as usual.
      return this.show(addition, '', { taken: taken + (kept ? kept.length + 1 : 0), ended: true }, links);
    }
    taken += complete.length;
    let preview = '';
    if (partial && continuedLines(partial) === partial) {
      if (partial.length > LINE_COMMIT) {
        addition += `\n${partial}`;
        taken += partial.length;
        this.lineOpen = true;
      } else {
        preview = `\n${partial}`;
      }
    }
    return this.show(addition, preview, { taken, ended: final }, links);
  }

  /** Appends `addition` (and shows `preview`); should the paragraph refuse, goes on as plain text. */
  private show(addition: string, preview: string, result: Taken, links: LinkDefinitions): Taken {
    this.text += addition;
    if (this.paragraph.append(addition, preview, links)) return result;
    // Raw HTML (or a failed render): the paragraph's text so far is shown as plain text in its
    // place, and the block goes on as plain text (ending at a blank line).
    const [element, lineBreak] = this.paragraph.nodes;
    if (!element) return result;
    const plain = PlainText.create((element as Element).ownerDocument, this.text);
    element.replaceWith(...plain.nodes);
    lineBreak?.remove();
    this.plain = new OpenPlain(plain, 'blank');
    return result;
  }
}

/** The lines at the start of `lines` (joined by line ends) that marked keeps in a paragraph they follow. */
function continuedLines(lines: string): string {
  if (!lines) return '';
  const token = lexBlockStructure(`${PROBE}\n${lines}`).tokens[0] as Tokens.Paragraph | undefined;
  if (token?.type !== 'paragraph' || !token.text.startsWith(`${PROBE}\n`)) return '';
  return token.text.slice(PROBE.length + 1);
}
