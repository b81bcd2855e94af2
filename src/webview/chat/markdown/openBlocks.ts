// The last block of a streaming reply when it is too long to lex from its start on every frame
// (budgets.ts: TAIL_LIMIT, REDRAW_LIMIT). StreamingMarkdown hands it the source as it arrives; it
// takes the lines that belong to it, with work proportional to the new text only, until the block
// ends, and what follows is lexed as usual. Three kinds: a fence still open (openFence.ts), a
// paragraph (openParagraph.ts), and a block shown as plain text (here).
import type { LinkDefinitions } from './guardedLexer';
import type { PlainText } from './plainText';

/** What advance took: characters of the source given, and whether the block ended there. */
export interface Taken {
  readonly taken: number;
  readonly ended: boolean;
}

export interface OpenBlock {
  /**
   * Takes what belongs to the block from `text`, the source after what it took so far. `final`:
   * nothing more will come, so a line still arriving is complete and the block ends.
   */
  advance(text: string, final: boolean, links: LinkDefinitions): Taken;
}

/** A line longer than this is taken before it ends (and shown as it arrives), once marked has said it belongs. */
export const LINE_COMMIT = 1_024;

/** `text` as complete lines and the line still arriving (none when `final`). */
export function splitLines(text: string, final: boolean): { complete: string; partial: string } {
  const end = final ? text.length : text.lastIndexOf('\n') + 1;
  return { complete: text.slice(0, end), partial: text.slice(end) };
}

export function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * Where a block shown as plain text ends, as marked would end it (closely enough: past the budget
 * the text matters more than its markdown): a one-line block (a heading) at its line end; a table,
 * a quote or raw HTML at a blank line; a list or indented code at a blank line followed by a line
 * that is neither indented nor a list item.
 */
export type PlainEnd = 'line' | 'blank' | 'list';

/** What may follow a blank line and still belong to a list (or to indented code). */
const LIST_GOES_ON = /^(?:[ \t]|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;
/** A line too short yet to tell whether it goes on (`1` may become `1. item`). */
const UNDECIDED = /^(?:\d{1,9}|)$/;

/** A block past its budget, shown as plain text (PlainText) while it streams. */
export class OpenPlain implements OpenBlock {
  /** Text taken but not shown yet: line ends and blank lines, until text after them shows they belong. */
  private held = '';

  constructor(
    private readonly plain: PlainText,
    private readonly end: PlainEnd,
  ) {}

  advance(text: string, final: boolean): Taken {
    let at = 0;
    for (;;) {
      const newline = text.indexOf('\n', at);
      const line = newline === -1 ? text.slice(at) : text.slice(at, newline);
      const blank = !/\S/.test(line);
      if (this.end === 'line' && newline !== -1) {
        this.show(line);
        return { taken: newline, ended: true };
      }
      if (!blank) {
        const afterBlank = /\n[ \t]*\n/.test(this.held);
        if (afterBlank && this.end === 'blank') return { taken: at, ended: true };
        if (afterBlank && this.end === 'list' && !LIST_GOES_ON.test(line)) {
          if (newline === -1 && !final && UNDECIDED.test(line.trim())) return { taken: at, ended: false };
          return { taken: at, ended: true };
        }
        this.show(line);
      } else {
        this.held += line;
      }
      if (newline === -1) return { taken: text.length, ended: final };
      this.held += '\n';
      at = newline + 1;
    }
  }

  private show(line: string): void {
    this.plain.append(this.held + line);
    this.held = '';
  }
}
