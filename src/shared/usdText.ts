/**
 * A USD amount as the chat shows it (reply costs, totals, estimates, the spend cap): four decimals
 * under a dollar (replies usually cost fractions of a cent), and tiny amounts never rounded to
 * nothing. Deterministic (no Intl), so host and webview write the same text.
 */
export function usdText(usd: number): string {
  if (usd > 0 && usd < 0.0001) return '< $0.0001';
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}
