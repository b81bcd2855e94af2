// A model of the catalog as the extension keeps it (extension state, the views, VS Code's model
// picker): only the fields something reads (the spec's, and the ones contextLength.ts,
// modelCategory.ts, modelFeatures.ts, modelPricing.ts and the pickers look at), each of the type it
// is read as. The gateway's answer is untrusted: whatever else a model entry carries (an echoed
// header, a provider's notes, megabytes of anything) is not kept, and what is kept is bounded: at
// most 64 words of at most 64 characters a list, 256 characters a string.
import type { Model } from '../types/account';
import { isRecord } from './json';
import { parseModel } from './resources';

type Shape = 'string' | 'boolean' | 'amount' | 'words' | { readonly [field: string]: Shape };

/**
 * Capability and modality lists: a word, a list of words, or a record of words set to true or
 * false; `modalities` may also be `{input: [...], output: [...]}` (a word or a list each).
 */
function words(value: unknown): unknown {
  if (typeof value === 'string') return short(value);
  if (Array.isArray(value)) return wordList(value);
  if (!isRecord(value)) return undefined;
  const kept: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value).slice(0, MAX_WORDS)) {
    if (name.length > MAX_WORD_LENGTH) continue;
    if (typeof item === 'boolean') kept[name] = item;
    else if (Array.isArray(item)) kept[name] = wordList(item);
    else if (typeof item === 'string' && (name === 'input' || name === 'output')) kept[name] = short(item);
  }
  return kept;
}

// Real catalogs list a few dozen capabilities of a few words each; past these, what is kept could
// only be filler, and each entry is stored in extension state for every model.
const MAX_WORDS = 64;
const MAX_WORD_LENGTH = 64;
const MAX_STRING_LENGTH = 256;

function wordList(items: readonly unknown[]): string[] {
  return items
    .filter((item): item is string => typeof item === 'string' && item.length <= MAX_WORD_LENGTH)
    .slice(0, MAX_WORDS);
}

function short(text: string): string {
  return text.length > MAX_STRING_LENGTH ? text.slice(0, MAX_STRING_LENGTH) : text;
}

const AMOUNT = 'amount';
const FIELDS: { readonly [field: string]: Shape } = {
  created: 'amount',
  owned_by: 'string',
  provider: 'string',
  created_at: 'string',
  provider_info: { status: 'string' },
  family: 'string',
  version: 'string',
  category: 'string',
  type: 'string',
  task: 'string',
  mode: 'string',
  model_type: 'string',
  architecture: { input_modalities: 'words', output_modalities: 'words', modality: 'string' },
  modalities: 'words',
  input_modalities: 'words',
  output_modalities: 'words',
  endpoints: 'words',
  supported_endpoints: 'words',
  capabilities: 'words',
  supported_parameters: 'words',
  supports_vision: 'boolean',
  supports_image_input: 'boolean',
  supports_tools: 'boolean',
  supports_function_calling: 'boolean',
  supports_tool_choice: 'boolean',
  supports_reasoning: 'boolean',
  reasoning: 'boolean',
  pricing: { prompt: AMOUNT, completion: AMOUNT, input: AMOUNT, output: AMOUNT, unit: 'string' },
  input_cost_per_token: AMOUNT,
  output_cost_per_token: AMOUNT,
  context_length: AMOUNT,
  context_window: AMOUNT,
  max_input_tokens: AMOUNT,
  max_output_tokens: AMOUNT,
  max_completion_tokens: AMOUNT,
  top_provider: { context_length: AMOUNT, max_completion_tokens: AMOUNT },
};

function shaped(value: unknown, shape: Shape): unknown {
  switch (shape) {
    case 'string':
      return typeof value === 'string' ? short(value) : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'amount':
      return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'string'
        ? typeof value === 'string'
          ? short(value)
          : value
        : undefined;
    case 'words':
      return words(value);
    default:
      return isRecord(value) ? keep(value, shape) : undefined;
  }
}

function keep(value: Record<string, unknown>, fields: { readonly [field: string]: Shape }): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [field, shape] of Object.entries(fields)) {
    if (!Object.prototype.hasOwnProperty.call(value, field)) continue;
    const item = shaped(value[field], shape);
    if (item !== undefined) kept[field] = item;
  }
  return kept;
}

/** The known fields of one catalog entry (as the gateway sent it, or as stored before); undefined without an id. */
export function catalogEntry(value: unknown): Model | undefined {
  const model = parseModel(value);
  return model && { ...keep(model, FIELDS), id: model.id, object: model.object };
}
