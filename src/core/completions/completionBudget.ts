// How much one completion may send: a share of the model's context (the answer needs room too) and
// a money bound, so an expensive model gets a shorter prompt rather than a larger bill per keystroke.
import type { CompletionBudget } from './completionInput';

/** When the catalog does not say: a context every chat model has. */
const DEFAULT_COMPLETION_CONTEXT_TOKENS = 8_192;
/** The most input tokens of one completion whatever the model: the nearest code matters most, and latency grows with the prompt. */
export const MAX_COMPLETION_INPUT_TOKENS = 3_000;
/** The fewest: a prompt smaller than this is not worth sending. */
const MIN_COMPLETION_INPUT_TOKENS = 256;
/** USD one completion's input may cost at most (0.3 cents: 1,000 tokens at $3 per million). */
const MAX_COMPLETION_INPUT_USD = 0.003;

/** `inputPricePerToken`: USD per input token from the catalog, when it lists one. */
export function completionBudget(
  contextTokens: number | undefined,
  inputPricePerToken: number | undefined,
): CompletionBudget {
  const context = contextTokens ?? DEFAULT_COMPLETION_CONTEXT_TOKENS;
  const byContext = Math.floor(context * 0.6);
  const byMoney =
    inputPricePerToken && inputPricePerToken > 0 ? Math.floor(MAX_COMPLETION_INPUT_USD / inputPricePerToken) : Infinity;
  const maxInputTokens = Math.max(
    Math.min(MIN_COMPLETION_INPUT_TOKENS, byContext),
    Math.min(MAX_COMPLETION_INPUT_TOKENS, byContext, byMoney),
  );
  return { contextTokens: context, maxInputTokens };
}
