// Small statistics for the chat benchmark (nearest-rank percentiles: every reported value is one
// that was measured, never an interpolation between two).

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

/** Characters that are not whitespace: the unit both the bench and the page count text in (see pageScripts.ts). */
export function visibleChars(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 32 && code !== 160) count++;
  }
  return count;
}
