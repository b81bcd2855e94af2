import type { ReplyCost, ReplyStatus } from '../../shared/chatModel';

/**
 * The cost part of a reply's footer, always with where the figure comes from. A stopped or failed
 * reply often costs nothing: "$0.0000" would only be noise there.
 */
export function costText(cost: ReplyCost, status: ReplyStatus): string | undefined {
  if (cost.state === 'pending') return 'cost pending (waiting for the balance to change)';
  if (cost.state === 'unknown') return 'cost unknown (no balance difference could be read)';
  if (cost.credits <= 0) {
    if (status !== 'done') return undefined;
    return cost.source === 'pricing'
      ? 'free (from pricing)'
      : cost.source === 'balance'
        ? 'no charge seen (balance unchanged)'
        : undefined;
  }
  const source = cost.source === 'pricing' ? 'from pricing' : 'balance change';
  return cost.estimate
    ? `≈ ${formatCost(cost.credits)} (${source}, estimate: other requests overlapped)`
    : `${formatCost(cost.credits)} (${source})`;
}

/** Credits a reply cost: cents for the usual amounts, and tiny ones never rounded to nothing. */
function formatCost(credits: number): string {
  if (credits < 0.0001) return '< $0.0001';
  return `$${credits.toFixed(credits < 1 ? 4 : 2)}`;
}
