// A file keeps its line endings when a model edits it: models write `\n`, a Windows file has
// `\r\n`. The model's text is converted to the file's ending before it is matched or inserted.

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

/** The text split into lines without their breaks (a final break gives no empty last line). */
export function linesOf(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
