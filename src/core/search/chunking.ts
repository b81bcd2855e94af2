// Splitting a file into the pieces that get one embedding each.

export interface TextChunk {
  /** 0-based first line of the chunk. */
  readonly startLine: number;
  /** 0-based last line (inclusive). */
  readonly endLine: number;
  readonly text: string;
}

export interface ChunkOptions {
  /** Most lines in one chunk. */
  readonly maxLines: number;
  /** Most characters in one chunk: minified or generated files have few, very long lines. */
  readonly maxChars: number;
  /** Lines repeated at the start of the next chunk, so a passage cut at a boundary is found whole in one of them. */
  readonly overlapLines: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { maxLines: 40, maxChars: 2000, overlapLines: 5 };

/**
 * Line windows of at most `maxLines` lines and `maxChars` characters, overlapping by
 * `overlapLines`. A single line longer than `maxChars` is cut (its chunk keeps the line number).
 * Windows holding only whitespace are left out: they would match every query equally badly.
 */
export function chunkText(text: string, options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): TextChunk[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // the final line break ends a line, it starts none
  const chunks: TextChunk[] = [];
  const overlap = Math.max(0, Math.min(options.overlapLines, options.maxLines - 1));
  let start = 0;
  while (start < lines.length) {
    let end = start;
    let chars = (lines[start] ?? '').length;
    while (
      end + 1 < lines.length &&
      end + 1 - start < options.maxLines &&
      chars + 1 + (lines[end + 1] ?? '').length <= options.maxChars
    ) {
      end++;
      chars += 1 + (lines[end] ?? '').length;
    }
    const body = lines
      .slice(start, end + 1)
      .join('\n')
      .slice(0, options.maxChars);
    if (body.trim() !== '') chunks.push({ startLine: start, endLine: end, text: body });
    if (end + 1 >= lines.length) break;
    // Step back by the overlap, but always move forward at least one line.
    start = Math.max(start + 1, end + 1 - overlap);
  }
  return chunks;
}
