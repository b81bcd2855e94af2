// What VS Code's model picker shows for each gateway chat model. Pure (no vscode import).
import type { Model } from '../../core/index';
import { categoryOf, providerOf } from '../models/catalogTree';

export interface ModelInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly tooltip: string;
  readonly detail: string;
  readonly capabilities: { readonly toolCalling: boolean; readonly imageInput: boolean };
}

/** Used when the catalog gives no limits: typical of current chat models, and only a hint to VS Code. */
export const DEFAULT_MAX_INPUT_TOKENS = 128_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;

function positiveNumber(...values: unknown[]): number | undefined {
  for (const value of values) {
    const number = typeof value === 'string' ? Number(value) : value;
    if (typeof number === 'number' && Number.isFinite(number) && number > 0) return Math.floor(number);
  }
  return undefined;
}

export function modelInformation(model: Model): ModelInformation {
  const slash = model.id.indexOf('/');
  const name = slash > 0 ? model.id.slice(slash + 1) : model.id;
  const capabilities = (typeof model.capabilities === 'object' && model.capabilities !== null ? model.capabilities : {}) as Record<string, unknown>;
  const contextLength = positiveNumber(model.context_length, model.context_window, model.max_input_tokens, (model.top_provider as Record<string, unknown> | undefined)?.context_length);
  const maxOutput = positiveNumber(model.max_output_tokens, model.max_completion_tokens, (model.top_provider as Record<string, unknown> | undefined)?.max_completion_tokens);
  const status = typeof model.provider_info?.status === 'string' ? model.provider_info.status : undefined;
  return {
    id: model.id,
    name,
    family: typeof model.family === 'string' ? model.family : name.replace(/[-_:.]?\d[\w.-]*$/, '') || name,
    version: typeof model.version === 'string' ? model.version : typeof model.created === 'number' ? new Date(model.created * 1000).toISOString().slice(0, 10) : '1',
    maxInputTokens: contextLength ?? DEFAULT_MAX_INPUT_TOKENS,
    maxOutputTokens: maxOutput ?? Math.min(DEFAULT_MAX_OUTPUT_TOKENS, contextLength ?? DEFAULT_MAX_OUTPUT_TOKENS),
    tooltip: `${model.id} through the Unified Inference gateway${status ? ` (provider ${status})` : ''}`,
    detail: providerOf(model),
    capabilities: {
      // Tool calling is the norm for chat models; a catalog can say otherwise.
      toolCalling: capabilities.tools !== false && capabilities.tool_calling !== false && capabilities.function_calling !== false,
      // Never advertised: the request mapping (requestMessages.ts, gatewayMessages.ts) carries text
      // and tool parts only, and the gateway's API documents string content only. VS Code then keeps
      // images out of requests to these models instead of their being dropped unseen.
      imageInput: false,
    },
  };
}

/** The gateway's chat models, as VS Code's picker lists them. */
export function chatModelInformation(models: readonly Model[]): ModelInformation[] {
  return models.filter((model) => categoryOf(model) === 'chat').map(modelInformation);
}

/**
 * A token count estimate: about four characters per token for English text and code, which is
 * what VS Code needs to budget a prompt. Not the provider's tokenizer (none is exposed).
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
