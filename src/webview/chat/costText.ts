import type { ConversationCost, ReplyCost, ReplyStatus } from '../../shared/chatModel';
import type { CostEstimate } from '../../shared/chatProtocol';
import { usdText } from '../../shared/usdText';

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
  return credits <= 0 ? '< $0.0001' : usdText(credits);
}

/**
 * A conversation's total (header, History row): "≥" when some reply told no cost, "≈" when a
 * figure is a balance difference others overlapped; "cost unknown" when no reply told one.
 */
export function conversationCostText(cost: ConversationCost | undefined): string | undefined {
  if (!cost) return undefined;
  const known = cost.credits > 0 || cost.unknownReplies === 0;
  if (!known) return 'cost unknown';
  const amount = usdText(cost.credits);
  if (cost.unknownReplies > 0) return `≥ ${amount}`;
  return cost.approximate ? `≈ ${amount}` : amount;
}

/** What the total's figure leaves out, for its tooltip. */
export function conversationCostTitle(cost: ConversationCost): string {
  const parts = ['What the replies of this conversation cost together'];
  if (cost.unknownReplies > 0)
    parts.push(
      `${cost.unknownReplies} ${cost.unknownReplies === 1 ? 'reply' : 'replies'} told no cost, so the total is at least this`,
    );
  if (cost.approximate) parts.push('some figures are balance differences other requests overlapped');
  return `${parts.join('; ')}.`;
}

/** The estimate beside Send: a range, the input's part when the output is not bounded, or "cost unknown". */
export function estimateText(estimate: CostEstimate): { readonly text: string; readonly title: string } {
  switch (estimate.kind) {
    case 'range':
      return {
        text: `≈ ${usdText(estimate.low)} – ${usdText(estimate.high)}`,
        title:
          'Estimated cost of sending: the request priced in full (counted from characters), the answer from nothing up to its max tokens.',
      };
    case 'unbounded':
      return {
        text: `≥ ${usdText(estimate.low)} (output not bounded)`,
        title:
          'Estimated cost of sending the request; the answer adds to it, and neither the conversation nor the catalog bounds its length (set Max tokens).',
      };
    case 'unknown':
      return {
        text: 'cost unknown',
        title: "The model catalog lists no prices for this model, so the send's cost cannot be estimated.",
      };
  }
}
