// A CRLF document is completed in LF: the model reads and writes `\n`, and every rule that compares
// the answer with the text around the cursor (a re-typed prefix, an overlap with the suffix, typing
// through a shown suggestion) compares like with like. The place is converted once on the way in,
// the insertion once on the way out. VS Code keeps one line ending per document, so the offset in
// LF is the document's offset less one character per line above the cursor.
import { withLineEnding, type LineEnding } from '../edits/lineEndings';

export interface LfPlace {
  readonly offset: number;
  readonly prefix: string;
  readonly suffix: string;
}

/** The cursor's place as LF text: `offset` is the document's, `line` the cursor's line (0-based). */
export function lfPlace(ending: LineEnding, offset: number, line: number, prefix: string, suffix: string): LfPlace {
  if (ending === '\n') return { offset, prefix, suffix };
  return { offset: offset - line, prefix: withLineEnding(prefix, '\n'), suffix: withLineEnding(suffix, '\n') };
}

/** The insertion (LF) written with the document's line ending. */
export function insertionWithEnding(insertion: string, ending: LineEnding): string {
  return ending === '\n' ? insertion : withLineEnding(insertion, ending);
}
