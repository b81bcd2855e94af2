// What sending the message being written could cost, before it is sent: the input (the context
// meter's estimate of the request plus the draft) priced in full, the output between nothing and
// its bound (the conversation's max tokens, else the catalog's listed output limit). Shown only
// when it could reach the user's threshold, so the usual cheap send stays uncluttered; with no
// prices it says "unknown" rather than guessing. Pure; the catalog is cached, so no request per
// keystroke.
import { DEFAULT_TOKENS_PER_CHAR, MESSAGE_OVERHEAD_TOKENS } from '../../context/tokenEstimate';
import type { TokenPricing } from '../../models/modelPricing';
import type { CostEstimate } from '../../../shared/chatProtocol';

export interface CostEstimateInput {
  /** Tokens the next request holds before the draft (the context meter's figure, attachments included). */
  readonly contextTokens: number;
  /** Characters of the draft being typed. */
  readonly draftChars: number;
  /** Attachments wait for the next message (something to send even with an empty draft). */
  readonly hasAttachments: boolean;
  /** The answer's bound in tokens; undefined when neither the conversation nor the catalog gives one. */
  readonly maxOutputTokens: number | undefined;
  readonly pricing: TokenPricing | undefined;
  /** USD: show when the send could cost this much. */
  readonly threshold: number;
}

const round = (usd: number): number => Math.round(usd * 1e9) / 1e9;

/** The estimate to show beside Send, or undefined to show none. */
export function estimateSendCost(input: CostEstimateInput): CostEstimate | undefined {
  if (input.draftChars === 0 && !input.hasAttachments) return undefined;
  if (!input.pricing) return { kind: 'unknown' };
  const draftTokens =
    input.draftChars > 0 ? MESSAGE_OVERHEAD_TOKENS + Math.ceil(input.draftChars * DEFAULT_TOKENS_PER_CHAR) : 0;
  const low = round((input.contextTokens + draftTokens) * input.pricing.input);
  if (input.maxOutputTokens === undefined)
    // Only the input's part is a figure: shown when it alone reaches the threshold.
    return low >= input.threshold ? { kind: 'unbounded', low } : undefined;
  const high = round(low + input.maxOutputTokens * input.pricing.output);
  return high >= input.threshold ? { kind: 'range', low, high } : undefined;
}
