// Speech input is at most 4096 characters per request; longer text is sent as several requests,
// split where a listener would pause (wire-conventions "Audio").
export const MAX_SPEECH_INPUT = 4096;

/** Splits at sentence ends, else at spaces, else hard; every piece has at most `max` characters. */
export function splitSpeechInput(text: string, max: number = MAX_SPEECH_INPUT): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  let start = 0;
  while (chars.length - start > max) {
    const window = chars.slice(start, start + max).join('');
    let cut = lastMatchEnd(window, /[.!?…。！？]["')\]]*\s+/g);
    if (cut <= 0) cut = lastMatchEnd(window, /\s+/g);
    const length = cut > 0 ? Array.from(window.slice(0, cut)).length : max;
    const piece = chars.slice(start, start + length).join('').trim();
    if (piece !== '') pieces.push(piece);
    start += length;
  }
  const rest = chars.slice(start).join('').trim();
  if (rest !== '') pieces.push(rest);
  return pieces;
}

function lastMatchEnd(text: string, pattern: RegExp): number {
  let end = -1;
  for (const match of text.matchAll(pattern)) end = (match.index ?? 0) + match[0].length;
  return end;
}
