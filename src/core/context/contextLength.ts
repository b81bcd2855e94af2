// A model's context length as the catalog lists it. The spec shows no such field; catalogs in the
// wild use these names. Undefined when none is listed: the chat then says it does not know,
// rather than inventing a figure.
import type { Model } from '../types/account';

function positive(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? Math.floor(number) : undefined;
}

export function catalogContextLength(model: Model | undefined): number | undefined {
  if (!model) return undefined;
  const top = typeof model.top_provider === 'object' && model.top_provider !== null ? (model.top_provider as Record<string, unknown>) : {};
  return positive(model.context_length) ?? positive(model.context_window) ?? positive(model.max_input_tokens) ?? positive(top.context_length);
}

export function catalogMaxOutputTokens(model: Model | undefined): number | undefined {
  if (!model) return undefined;
  const top = typeof model.top_provider === 'object' && model.top_provider !== null ? (model.top_provider as Record<string, unknown>) : {};
  return positive(model.max_output_tokens) ?? positive(model.max_completion_tokens) ?? positive(top.max_completion_tokens);
}
