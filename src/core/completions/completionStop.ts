import type { CompletionPrompt } from './completionInput';

/** First version (signature stable). */
export function completionIsComplete(rawSoFar: string, prompt: CompletionPrompt): boolean {
  if (rawSoFar.length >= 16384) return true;
  if (prompt.shape === 'line') return /\S[^\n]*\n/.test(rawSoFar);
  return false;
}
