// A fenced code block still open at the end of a long streaming reply (see openBlocks.ts). Each
// frame marked lexes only the new lines, behind a copy of the fence's opening characters (its
// indentation and backticks or tildes: enough for marked to find the closing line and strip the
// same indentation from each line); the code block appends them (appendCode), highlighting only
// its last segment again.
import type { Tokens } from 'marked';
import { appendCode, setCode } from './codeBlocks';
import { lexBlockStructure } from './markdownEngine';
import { countLines, LINE_COMMIT, splitLines, type OpenBlock, type Taken } from './openBlocks';

export class OpenFence implements OpenBlock {
  /** Lines of code the block shows (committed). */
  private lines = 0;
  /** The last line taken was cut before its end (a long one): the rest of it is code, whatever it holds. */
  private lineOpen = false;

  /** `probe`: the fence's opening characters. */
  private constructor(
    private readonly block: Element,
    private readonly probe: string,
  ) {}

  /**
   * Takes over the code block rendered from `token`, an open fence at the end of the tail whose
   * opening line is complete: its code becomes the token's complete lines, and the line still
   * arriving is shown as a preview. Returns it and how much of the token's source it took.
   */
  static adopt(block: Element, token: Tokens.Code): { open: OpenFence; taken: number } {
    const open = new OpenFence(block, /^ {0,3}(?:`{3,}|~{3,})/.exec(token.raw)?.[0] ?? '```');
    const opening = token.raw.indexOf('\n') + 1;
    const { complete, partial } = splitLines(token.raw.slice(opening), false);
    let code = '';
    for (const line of open.lex(complete).lines) code = open.add(code, line);
    const last = open.partialLine(code, partial);
    setCode(block, last.code, last.preview);
    return { open, taken: opening + complete.length + last.taken };
  }

  advance(text: string, final: boolean): Taken {
    let code = '';
    let taken = 0;
    if (this.lineOpen) {
      const newline = text.indexOf('\n');
      code = newline === -1 ? text : text.slice(0, newline);
      taken = newline === -1 ? text.length : newline + 1;
      this.lineOpen = newline === -1 && !final;
      if (this.lineOpen) {
        appendCode(this.block, code, '', false);
        return { taken, ended: false };
      }
    }
    const { complete, partial } = splitLines(text.slice(taken), final);
    const lexed = this.lex(complete);
    for (const line of lexed.lines) code = this.add(code, line);
    if (lexed.closed) {
      appendCode(this.block, code, '', true);
      return { taken: taken + lexed.taken, ended: true };
    }
    const last = this.partialLine(code, partial);
    appendCode(this.block, last.code, last.preview, false);
    return { taken: taken + complete.length + last.taken, ended: final };
  }

  /** `code` with `line` appended as a new line of the block. */
  private add(code: string, line: string): string {
    return this.lines++ > 0 ? `${code}\n${line}` : code + line;
  }

  /**
   * The line still arriving: a preview, or nothing while it could be the closing line; a long one
   * that cannot be is taken now (and its rest as it comes).
   */
  private partialLine(code: string, partial: string): { code: string; preview: string; taken: number } {
    const lexed = this.lex(partial);
    const line = lexed.lines[0];
    if (lexed.closed || line === undefined) return { code, preview: '', taken: 0 };
    if (partial.length > LINE_COMMIT) {
      this.lineOpen = true;
      return { code: this.add(code, line), preview: '', taken: partial.length };
    }
    return { code, preview: this.lines > 0 ? `\n${line}` : line, taken: 0 };
  }

  /**
   * The lines of code in `source` (lines, the last one complete or not) and, when the fence closes
   * there, how much of the source that took (to the end of the closing line).
   */
  private lex(source: string): { lines: string[]; closed: boolean; taken: number } {
    if (!source) return { lines: [], closed: false, taken: 0 };
    // A line after the source shows whether marked closed the fence: it is code only if not.
    const src = `${this.probe}\n${source}${source.endsWith('\n') ? '' : '\n'}.`;
    const token = lexBlockStructure(src).tokens[0] as Tokens.Code | undefined;
    if (token?.type !== 'code') return { lines: [], closed: false, taken: 0 };
    const closed = token.raw.length < src.length;
    const count = closed ? countLines(token.raw) - 1 : countLines(src) - 1;
    const lines = count > 0 ? token.text.split('\n').slice(0, count) : [];
    return { lines, closed, taken: closed ? token.raw.length - this.probe.length - 1 : source.length };
  }
}
