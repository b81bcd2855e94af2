// The replacement as far as a streaming answer has written it, kept up piece by piece: only whole
// lines of the code (a half line would flicker as a change), nothing before the opening fence,
// nothing after the closing one, in the selection's line endings (a CRLF file would otherwise show
// every streamed line as changed). Incremental because the answer comes in pieces of a few
// characters: redoing the whole answer on each one is quadratic (seconds of the extension host's
// thread for a long answer). Each character is looked at a bounded number of times: once for its
// line break, once when its complete line is read. The fence rules are codeFromAnswer's
// (mergeAnswer.ts), so the preview is the code the final extraction gives.
import type { LineEnding } from '../edits/lineEndings';

const OPENING = /^ {0,3}(`{3,}|~{3,})[^`]*$/;

function bare(line: string): string {
  return line.replace(/\r?\n$/, '');
}

export class StreamedReplacement {
  /** Characters looked at so far (what the unit test counts to prove the work is linear). */
  scanned = 0;
  /** The line not yet ended. */
  private partial = '';
  private state: 'before' | 'inside' | 'closed' = 'before';
  private closing: RegExp | undefined;
  private code = '';
  private readonly asked: RegExp | undefined;

  constructor(
    private readonly eol: LineEnding = '\n',
    expectedFence?: string,
  ) {
    this.asked = expectedFence ? new RegExp(`^ {0,3}${expectedFence}(?!\`)[^\`]*$`) : undefined;
  }

  /** The replacement so far: undefined while the opening fence has not come (the model may be writing a sentence first). */
  get current(): string | undefined {
    return this.state === 'before' ? undefined : this.code;
  }

  /** Takes the next piece of the answer; true when the replacement so far changed. */
  push(piece: string): boolean {
    this.scanned += piece.length;
    if (this.state === 'closed') return false;
    const lastBreak = piece.lastIndexOf('\n');
    if (lastBreak < 0) {
      this.partial += piece;
      return false;
    }
    const complete = this.partial + piece.slice(0, lastBreak + 1);
    this.partial = piece.slice(lastBreak + 1);
    const before = this.current;
    for (const line of complete.split(/(?<=\n)/)) {
      this.scanned += line.length;
      if (!this.take(line)) break;
    }
    return this.current !== before;
  }

  /** One complete line; false once the closing fence came (the rest is the model's prose). */
  private take(line: string): boolean {
    const text = bare(line);
    if (this.state === 'before') {
      if (!(this.asked?.test(text) || OPENING.test(text))) return true;
      const opener = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1] ?? '```';
      this.closing = new RegExp(`^ {0,3}${opener[0] === '`' ? '`' : '~'}{${opener.length},}[ \\t]*$`);
      this.state = 'inside';
      return true;
    }
    if (this.closing?.test(text)) {
      this.state = 'closed';
      return false;
    }
    this.code += text + this.eol;
    return true;
  }
}

/** The replacement out of a whole answer so far (one piece): for tests and one-off callers. */
export function streamedReplacement(
  answerSoFar: string,
  eol: LineEnding = '\n',
  expectedFence?: string,
): string | undefined {
  const stream = new StreamedReplacement(eol, expectedFence);
  stream.push(answerSoFar);
  return stream.current;
}
