// Which purpose a model serves (wire-conventions "Quota and models"): explicit fields first, then
// the id. Unknown means chat: a real catalog is full of ids that give no hint (`anthropic/sonnet-4.5`,
// `amazon/nova-pro-v1`), and hiding them from chat pickers hides most of what the gateway offers.
// The id only moves a model out of chat when it clearly names another purpose (embed, rerank,
// whisper, tts, dall-e...). Only a default: the user may correct it, and use any model for anything.
import { isRecord } from '../parse/json';
import type { ModelCategory } from '../types/account';

/** Words of explicit field values (type, mode, capabilities, endpoints), most specific first. */
const PURPOSES: readonly [RegExp, ModelCategory][] = [
  [/rerank/, 'rerank'],
  [/embed|vector/, 'embedding'],
  [/transcri|speech[-_ ]?to[-_ ]?text|\bstt\b|\basr\b|whisper/, 'transcription'],
  [/tts|text[-_ ]?to[-_ ]?speech|speech|audio[-_ ]?(generation|output)/, 'speech'],
  [/image|dall-?e|flux|stable[-_ ]?diffusion|sdxl|imagen|midjourney|gpt-image/, 'image'],
  [/chat|completion|text|llm|language|conversation|instruct|messages|responses|reason/, 'chat'],
];

/** Ids that clearly name a purpose other than chat. No chat patterns: an id without a hint is chat anyway. */
const NON_CHAT_IDS: readonly [RegExp, ModelCategory][] = [
  [/rerank/, 'rerank'],
  [/embed/, 'embedding'],
  [/transcri|whisper|speech[-_ ]?to[-_ ]?text|(^|[^a-z])(stt|asr)([^a-z]|$)/, 'transcription'],
  [/(^|[^a-z])tts([^a-z]|$)|text[-_ ]?to[-_ ]?speech|(^|[/_-])speech([-_.]|$)/, 'speech'],
  [
    /dall-?e|(^|[^a-z])flux([^a-z]|$)|stable[-_ ]?diffusion|sdxl|(^|[^a-z])imagen([^a-z]|$)|midjourney|text[-_ ]?to[-_ ]?image|gpt-image|(^|[^a-z])image([-_ ]?gen(eration)?)?([^a-z]|$)/,
    'image',
  ],
];

/** Capability words about what a chat model reads, not what it makes ("image_input", "vision"). */
const INPUT_SIDE = /input|vision|understanding|read/;

function match(table: readonly [RegExp, ModelCategory][], text: string): ModelCategory | undefined {
  const lower = text.toLowerCase();
  for (const [pattern, category] of table) if (pattern.test(lower)) return category;
  return undefined;
}

function words(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (isRecord(value))
    return Object.entries(value)
      .filter(([, v]) => v === true)
      .map(([k]) => k);
  return [];
}

/** From input/output modalities: audio in -> transcription, audio out -> speech, image out -> image, vectors out -> embedding. */
function fromModalities(input: string[], output: string[]): ModelCategory | undefined {
  const has = (list: string[], word: RegExp): boolean => list.some((item) => word.test(item.toLowerCase()));
  if (has(output, /embed|vector/)) return 'embedding';
  if (has(output, /image/) && !has(output, /text/)) return 'image';
  if (has(output, /audio|speech/) && !has(output, /text/)) return 'speech';
  if (has(input, /audio/) && output.length > 0 && !has(input, /text/)) return 'transcription';
  if (output.length > 0 && has(output, /text/)) return 'chat';
  return undefined;
}

/**
 * A list of purposes (capabilities, endpoints): a model that can chat is chat (a chat model may
 * also list "embeddings" or "image_input"), else the first other purpose named.
 */
function fromPurposeList(names: string[]): ModelCategory | undefined {
  const categories = names.filter((name) => !INPUT_SIDE.test(name.toLowerCase())).map((name) => match(PURPOSES, name));
  if (categories.includes('chat')) return 'chat';
  return categories.find((category) => category !== undefined);
}

function fromExplicitFields(model: Record<string, unknown>): ModelCategory | undefined {
  for (const field of ['category', 'type', 'task', 'mode', 'model_type']) {
    const value = model[field];
    if (typeof value === 'string' && value !== 'model') {
      const category = match(PURPOSES, value);
      if (category) return category;
    }
  }
  const architecture = isRecord(model.architecture) ? model.architecture : undefined;
  const modalities = model.modalities;
  const input = [
    ...words(isRecord(modalities) ? modalities.input : undefined),
    ...words(architecture?.input_modalities),
    ...words(model.input_modalities),
  ];
  const output = [
    ...words(isRecord(modalities) ? modalities.output : undefined),
    ...words(architecture?.output_modalities),
    ...words(model.output_modalities),
  ];
  // OpenRouter writes "text+image->text".
  const arrow = typeof architecture?.modality === 'string' ? architecture.modality.split('->') : [];
  if (arrow.length === 2) {
    input.push(...(arrow[0] as string).split('+'));
    output.push(...(arrow[1] as string).split('+'));
  }
  const byModality = fromModalities(input, output);
  if (byModality) return byModality;
  // Endpoints (e.g. "/v1/embeddings"), then capabilities or a flat modalities list.
  for (const value of [
    model.endpoints,
    model.supported_endpoints,
    model.capabilities,
    Array.isArray(modalities) ? modalities : undefined,
  ]) {
    const category = fromPurposeList(words(value));
    if (category) return category;
  }
  return undefined;
}

/** The model's category: its catalog fields, else a clearly non-chat id, else chat. */
export function classifyModel(model: { id: string; [key: string]: unknown } | string): ModelCategory {
  if (typeof model === 'string') return match(NON_CHAT_IDS, model) ?? 'chat';
  return fromExplicitFields(model) ?? match(NON_CHAT_IDS, model.id) ?? 'chat';
}
