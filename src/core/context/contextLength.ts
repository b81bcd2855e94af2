// A model's context length and output limit as the catalog lists them. The spec shows no such
// fields; catalogs in the wild use these names. Undefined when none is listed: the chat then says
// it does not know, rather than inventing a figure.
import type { Model } from '../types/account';

/**
 * Above this a listed limit is nonsense, not a model (the largest windows offered are about
 * 10 million tokens): a catalog that says 1e300 must not switch off every budget downstream.
 */
export const MAX_CATALOG_TOKENS = 100_000_000;

/** A positive whole number of tokens, from a number or a numeric string; anything else is "not listed". */
export function catalogTokens(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 1 || number > MAX_CATALOG_TOKENS)
    return undefined;
  return Math.floor(number);
}

function topProvider(model: Model): Record<string, unknown> {
  return typeof model.top_provider === 'object' && model.top_provider !== null && !Array.isArray(model.top_provider)
    ? (model.top_provider as Record<string, unknown>)
    : {};
}

export function catalogContextLength(model: Model | undefined): number | undefined {
  if (!model) return undefined;
  const top = topProvider(model);
  return (
    catalogTokens(model.context_length) ??
    catalogTokens(model.context_window) ??
    catalogTokens(model.max_input_tokens) ??
    catalogTokens(top.context_length)
  );
}

export function catalogMaxOutputTokens(model: Model | undefined): number | undefined {
  if (!model) return undefined;
  const top = topProvider(model);
  return (
    catalogTokens(model.max_output_tokens) ??
    catalogTokens(model.max_completion_tokens) ??
    catalogTokens(top.max_completion_tokens)
  );
}
