import type { CompletionShape } from './completionInput';

/** First version (signature stable): refined below in later commits. */
export function completionShape(prefix: string, suffix: string): CompletionShape {
  const lineStart = prefix.lastIndexOf('\n') + 1;
  const before = prefix.slice(lineStart);
  const nl = suffix.indexOf('\n');
  const after = nl < 0 ? suffix : suffix.slice(0, nl);
  if (/[^\s)\]}'"`;,]/.test(after)) return 'line';
  if (before.trim() !== '') return 'line';
  return 'block';
}
