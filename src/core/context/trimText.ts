// Cutting a long text down while keeping what usually matters in it: the beginning (what it is)
// and the end (how it ended: the last lines of a log, the closing of a file). The cut says so, so
// neither the model nor the user mistakes it for the whole.

/** Texts at most this long are never trimmed: the note would cost as much as it saves. */
export const MIN_TRIM_CHARS = 200;

function trimmedNote(chars: number): string {
  return `[trimmed ${chars.toLocaleString('en-US')} chars to fit the model's context window]`;
}

/** The text cut to about `maxChars` (head two thirds, tail one third, the note between), and how much was cut. */
export function trimMiddle(text: string, maxChars: number): { text: string; trimmed: number } {
  const limit = Math.max(MIN_TRIM_CHARS, Math.floor(maxChars));
  if (text.length <= limit) return { text, trimmed: 0 };
  const keep = Math.max(0, limit - 80);
  const head = Math.ceil((keep * 2) / 3);
  const tail = keep - head;
  const trimmed = text.length - head - tail;
  return {
    text: `${text.slice(0, head)}\n\n${trimmedNote(trimmed)}\n\n${tail > 0 ? text.slice(text.length - tail) : ''}`,
    trimmed,
  };
}
