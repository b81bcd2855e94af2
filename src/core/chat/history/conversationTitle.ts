// The title a new conversation gets from its first user message, until the user renames it.

const UNTITLED = 'New conversation';
const MAX_TITLE = 60;
const ELLIPSIS = '…';

/** A title from the first user message: first non-empty line, whitespace collapsed, at most 60 characters (cut at a word with an ellipsis). 'New conversation' when empty. */
export function titleFromText(text: string): string {
  const line = text
    .split(/\r\n|\r|\n/)
    .map(collapseWhitespace)
    .find((candidate) => candidate !== '');
  if (line === undefined) return UNTITLED;
  // Count code points, not UTF-16 units, so an emoji is never cut in half.
  const chars = Array.from(line);
  if (chars.length <= MAX_TITLE) return line;
  const room = chars.slice(0, MAX_TITLE - ELLIPSIS.length);
  const lastSpace = room.lastIndexOf(' ');
  // Cut at the last word boundary unless that would throw away most of the room (one very long word).
  const kept = lastSpace >= MAX_TITLE / 3 ? room.slice(0, lastSpace) : room;
  return `${kept.join('').trimEnd()}${ELLIPSIS}`;
}

/** Collapses every run of whitespace (tabs, non-breaking spaces, ...) to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
