// A chat model's token prices from its catalog entry. The spec lists no pricing field ("fields
// vary by provider"), so only shapes whose unit is unambiguous are read; anything else means "no
// pricing", and the reply's cost then comes from the balance instead of a guess.
import { isRecord } from '../parse/json';

/** USD per token. */
export interface TokenPricing {
  readonly input: number;
  readonly output: number;
}

/** A price as catalogs write it: a number or a numeric string ("0.000003"); never negative. */
function price(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function pair(input: unknown, output: unknown, perTokens: number): TokenPricing | undefined {
  const a = price(input);
  const b = price(output);
  return a === undefined || b === undefined ? undefined : { input: a / perTokens, output: b / perTokens };
}

/** How many tokens a `unit` field prices, when it says ("per_token", "1M tokens", "per_1k_tokens"). */
function unitTokens(unit: unknown): number | undefined {
  if (typeof unit !== 'string') return undefined;
  const text = unit.toLowerCase().replace(/[\s_-]/g, '');
  if (/^(per)?(1)?tokens?$/.test(text)) return 1;
  if (/^(per)?(1k|1000|thousand)tokens?$/.test(text)) return 1e3;
  if (/^(per)?(1m|1000000|million)tokens?$/.test(text)) return 1e6;
  return undefined;
}

/**
 * Reads, in order: `pricing.prompt` / `pricing.completion` (USD per token, as OpenRouter lists
 * them); `input_cost_per_token` / `output_cost_per_token` (per token, LiteLLM); `pricing.input` /
 * `pricing.output` (per million tokens, as the local gateway and most price lists write them, or
 * per `pricing.unit` when it is given). Both prices must be present: half a price is no price.
 */
export function modelPricing(model: Record<string, unknown> | undefined): TokenPricing | undefined {
  if (!model) return undefined;
  const pricing = isRecord(model.pricing) ? model.pricing : undefined;
  if (pricing && (pricing.prompt !== undefined || pricing.completion !== undefined))
    return pair(pricing.prompt, pricing.completion, 1);
  if (model.input_cost_per_token !== undefined) return pair(model.input_cost_per_token, model.output_cost_per_token, 1);
  if (pricing && pricing.input !== undefined) {
    const per = pricing.unit === undefined ? 1e6 : unitTokens(pricing.unit);
    return per === undefined ? undefined : pair(pricing.input, pricing.output, per);
  }
  return undefined;
}

/** USD for a reply's tokens, rounded to nano-dollars (float noise off, tiny replies still above zero). */
export function pricedCost(
  pricing: TokenPricing,
  usage: { readonly promptTokens: number; readonly completionTokens: number },
): number {
  return Math.round((usage.promptTokens * pricing.input + usage.completionTokens * pricing.output) * 1e9) / 1e9;
}

/**
 * The input price alone (USD per token), for models billed by input only (embedding, rerank): the
 * catalog lists `pricing.input` without an output price. Same shapes as modelPricing.
 */
export function inputTokenPrice(model: Record<string, unknown> | undefined): number | undefined {
  const both = modelPricing(model);
  if (both) return both.input;
  const pricing = model && isRecord(model.pricing) ? model.pricing : undefined;
  if (model?.input_cost_per_token !== undefined) return price(model.input_cost_per_token);
  if (pricing?.prompt !== undefined) return price(pricing.prompt);
  if (pricing?.input === undefined) return undefined;
  const per = pricing.unit === undefined ? 1e6 : unitTokens(pricing.unit);
  const input = price(pricing.input);
  return per === undefined || input === undefined ? undefined : input / per;
}
