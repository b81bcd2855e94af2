// How many tokens a request may put in front of the model: the context length, less the room
// the answer needs, less a margin for the estimate's error (tokenEstimate.ts counts characters,
// not tokens).

export interface ContextBudget {
  /** Tokens the request's input may use. */
  readonly input: number;
  /** Room kept for the answer. */
  readonly output: number;
  readonly margin: number;
}

/** An answer's room when the conversation sets no max tokens: a long answer, a quarter of a small context at most. */
const DEFAULT_OUTPUT_RESERVE = 4096;

export function contextBudget(contextLength: number, maxOutputTokens?: number): ContextBudget {
  const output = Math.min(
    maxOutputTokens && maxOutputTokens > 0 ? maxOutputTokens : DEFAULT_OUTPUT_RESERVE,
    Math.floor(contextLength / 4),
  );
  // 5 %, and at least 64: the estimate is pessimistic already; the margin covers what it cannot
  // see (provider-side prompt templates, tool schema rendering).
  const margin = Math.max(64, Math.ceil(contextLength * 0.05));
  return { input: Math.max(0, contextLength - output - margin), output, margin };
}
