// What VS Code's model picker shows for each gateway chat model, from the catalog. The limits and
// features are read by core (contextLength.ts, modelFeatures.ts), so the chat panel and VS Code's
// chat agree on what a model can take.
import { catalogContextLength, catalogMaxOutputTokens } from '../context/contextLength';
import { catalogFeatures } from '../models/modelFeatures';
import { contextBudget } from '../context/contextBudget';
import { estimateTextTokens, MESSAGE_OVERHEAD_TOKENS } from '../context/tokenEstimate';
import type { Model } from '../types/account';
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
  /**
   * The catalog says the model reasons before answering. VS Code's stable API (1.104) has no
   * capability for it, so the picker shows it in `detail` and the tooltip; kept here for callers.
   */
  readonly reasoning: boolean;
}

/** Used when the catalog gives no context length: typical of current chat models, and only a hint to VS Code. */
export const DEFAULT_CONTEXT_LENGTH = 128_000;
/** Used when the catalog gives no output limit: a long answer, never more than the window allows. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;

function count(tokens: number): string {
  return tokens >= 1000 ? `${Math.round(tokens / 1000).toLocaleString('en-US')}K` : String(tokens);
}

/**
 * The most the answer may ask for when VS Code fills the prompt up to maxInputTokens: the
 * budget's output reserve. /messages always sends max_tokens, and a model with a small context
 * refuses input plus max_tokens over it; undefined when the catalog lists no context length.
 */
export function answerRoomOf(model: Model): number | undefined {
  const listedContext = catalogContextLength(model);
  return listedContext ? contextBudget(listedContext, catalogMaxOutputTokens(model)).output : undefined;
}

export function modelInformation(model: Model): ModelInformation {
  const slash = model.id.indexOf('/');
  const name = slash > 0 ? model.id.slice(slash + 1) : model.id;
  const listedContext = catalogContextLength(model);
  const contextLength = listedContext ?? DEFAULT_CONTEXT_LENGTH;
  const listedOutput = catalogMaxOutputTokens(model);
  // An answer never outgrows the window it shares with the prompt.
  const maxOutputTokens = Math.min(listedOutput ?? DEFAULT_MAX_OUTPUT_TOKENS, contextLength);
  // VS Code fills the prompt up to maxInputTokens and counts with provideTokenCount (our
  // estimate): the same budget as the chat panel's (room for the answer, a margin for the
  // estimate's error), so a full prompt still leaves the model room to answer.
  const maxInputTokens = Math.max(1, contextBudget(contextLength, listedOutput).input);
  const features = catalogFeatures(model);
  // Tool calling is the norm for chat models; only a catalog that says otherwise turns it off.
  const toolCalling = features.toolCalling ?? true;
  const reasoning = features.reasoning === true;
  const status = typeof model.provider_info?.status === 'string' ? model.provider_info.status : undefined;
  const provider = providerOf(model);
  const limits = listedContext
    ? `${count(listedContext)} token context, ${count(maxOutputTokens)} output`
    : 'context length not listed by the gateway';
  const traits = [reasoning ? 'reasons before answering' : '', toolCalling ? '' : 'no tool calling'].filter(Boolean);
  return {
    id: model.id,
    name,
    family: typeof model.family === 'string' ? model.family : name.replace(/[-_:.]?\d[\w.-]*$/, '') || name,
    version:
      typeof model.version === 'string'
        ? model.version
        : typeof model.created === 'number' && Number.isFinite(model.created)
          ? safeDate(model.created)
          : '1',
    maxInputTokens,
    maxOutputTokens,
    tooltip: `${model.id} through the Unified Inference gateway${status ? ` (provider ${status})` : ''}: ${[limits, ...traits].join('; ')}`,
    detail: reasoning ? `${provider} · reasoning` : provider,
    capabilities: {
      toolCalling,
      // Only when the catalog says the model reads images: VS Code then lets the user attach them,
      // and requestMessages.ts maps them to image parts; for the others it keeps images out.
      imageInput: features.imageInput === true,
    },
    reasoning,
  };
}

/** A catalog's `created` as a date; a timestamp no Date can hold is no version. */
function safeDate(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? '1' : date.toISOString().slice(0, 10);
}

/** The gateway's chat models, as VS Code's picker lists them. */
export function chatModelInformation(models: readonly Model[]): ModelInformation[] {
  return models.filter((model) => categoryOf(model) === 'chat').map(modelInformation);
}

/**
 * VS Code's token count: core's estimate (tokenEstimate.ts, deliberately pessimistic at three
 * characters a token), plus a message's role overhead when a message is counted. Not the
 * provider's tokenizer (none is exposed).
 */
export function estimateTokens(text: string, asMessage = false): number {
  return estimateTextTokens(text) + (asMessage ? MESSAGE_OVERHEAD_TOKENS : 0);
}
