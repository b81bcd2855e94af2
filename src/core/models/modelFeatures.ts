// What a chat model can do, as the catalog says it (the spec lists no such fields; catalogs in the
// wild use these shapes): `capabilities` as an object of booleans ({tools: true}) or a list of
// words (["tools", "reasoning"]), OpenRouter's `supported_parameters` (an exhaustive list of the
// request fields the model honours), LiteLLM's `supports_*` booleans, and input modalities.
// Each answer is undefined when the catalog does not say: the caller picks the default.
import { isRecord } from '../parse/json';
import type { Model } from '../types/account';

export interface ModelFeatures {
  /** The model takes function tools. */
  readonly toolCalling?: boolean;
  /** The model reasons (thinks) before it answers. */
  readonly reasoning?: boolean;
  /** The model reads images. */
  readonly imageInput?: boolean;
}

const TOOL_WORDS = ['tools', 'tool_calling', 'tool_use', 'function_calling', 'functions', 'tool_choice'];
const REASONING_WORDS = ['reasoning', 'thinking', 'extended_thinking', 'reasoning_effort', 'include_reasoning'];
const IMAGE_WORDS = ['vision', 'image_input', 'images', 'image'];

function normal(word: string): string {
  return word
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, '_');
}

/** The words a list names (strings only; anything else in it is ignored). */
function wordList(value: unknown): string[] | undefined {
  return Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string').map(normal)
    : undefined;
}

/** A boolean the catalog states under one of `names` in `record` (the first stated wins). */
function stated(record: Record<string, unknown>, names: readonly string[]): boolean | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'boolean') return value;
  }
  return undefined;
}

function feature(
  model: Model,
  words: readonly string[],
  flags: readonly string[],
  fromParameters = false,
): boolean | undefined {
  const capabilities = model.capabilities;
  // An object of booleans says yes and no.
  if (isRecord(capabilities)) {
    const said = stated(capabilities, words);
    if (said !== undefined) return said;
  }
  const flag = stated(model, flags);
  if (flag !== undefined) return flag;
  // A list of words only says yes: a missing word may just be an incomplete list...
  const listed = wordList(capabilities);
  if (listed?.some((word) => words.includes(word))) return true;
  // ...except supported_parameters, which lists every request field the model takes.
  const parameters = wordList(model.supported_parameters);
  if (fromParameters && parameters && parameters.length > 0) return parameters.some((word) => words.includes(word));
  return undefined;
}

function imageInput(model: Model): boolean | undefined {
  const said = feature(model, IMAGE_WORDS, ['supports_vision', 'supports_image_input']);
  if (said !== undefined) return said;
  const architecture = isRecord(model.architecture) ? model.architecture : undefined;
  const modalities =
    wordList(architecture?.input_modalities) ??
    wordList(model.input_modalities) ??
    (isRecord(model.modalities) ? wordList(model.modalities.input) : undefined);
  return modalities && modalities.length > 0 ? modalities.includes('image') : undefined;
}

export function catalogFeatures(model: Model): ModelFeatures {
  const toolCalling = feature(
    model,
    TOOL_WORDS,
    ['supports_tools', 'supports_function_calling', 'supports_tool_choice'],
    true,
  );
  const reasoning = feature(model, REASONING_WORDS, ['supports_reasoning', 'reasoning'], true);
  const image = imageInput(model);
  return {
    ...(toolCalling !== undefined ? { toolCalling } : {}),
    ...(reasoning !== undefined ? { reasoning } : {}),
    ...(image !== undefined ? { imageInput: image } : {}),
  };
}

/** Whether the chat may send the model images: only when its catalog entry says it reads them. */
export function takesImages(model: Model | undefined): boolean {
  return model !== undefined && catalogFeatures(model).imageInput === true;
}
