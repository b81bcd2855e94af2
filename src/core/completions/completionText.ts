import type { CompletionPrompt } from './completionInput';

/** First version (signature stable). */
export function insertionFrom(raw: string, prompt: CompletionPrompt): string | undefined {
  let text = raw.slice(0, 16384);
  if (prompt.shape === 'line') text = text.split('\n')[0] ?? '';
  return text.trim() === '' ? undefined : text;
}
