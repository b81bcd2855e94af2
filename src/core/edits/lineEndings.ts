// A file keeps its line endings when a model edits it: models write `\n`, a Windows file has
// `\r\n`. The model's text is converted to the file's ending before it is matched or inserted.
// Also the one line splitter of core (Apply's hunks, the edit tools' replacements and messages).

export type LineEnding = '\n' | '\r\n';

/** The file's line ending: CRLF when most of its line breaks are CRLF (a new or one-line file: LF). */
export function lineEndingOf(text: string): LineEnding {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/** `text` with every line break (`\r\n`, `\n`, a lone `\r`) written as `ending`. */
export function withLineEnding(text: string, ending: LineEnding): string {
  return text.replace(/\r\n|\r|\n/g, ending);
}

/** `text` as lines with their terminators (`\n`, `\r\n` or a lone `\r`); no empty last line. */
export function splitLines(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}

/** The text split into lines without their breaks (a final break gives no empty last line; "" is one empty line). */
export function linesOf(text: string): string[] {
  if (text === '') return [''];
  return splitLines(text).map((line) => line.replace(/(?:\r\n|\r|\n)$/, ''));
}
