// Which purpose a model serves (wire-conventions "Quota and models"): explicit fields first, then
// the id. Only a default for pickers: the user may use any model for anything.
import { isRecord } from './parse/json';
import type { ModelCategory } from './types/account';

const NAMES: readonly [RegExp, ModelCategory][] = [
  [/rerank/, 'rerank'],
  [/embed|vector/, 'embedding'],
  [/transcri|speech[-_ ]?to[-_ ]?text|stt|asr|whisper/, 'transcription'],
  [/tts|text[-_ ]?to[-_ ]?speech|speech|audio[-_ ]?(generation|output)/, 'speech'],
  [/image|dall-?e|flux|stable[-_ ]?diffusion|sdxl|imagen|midjourney|text[-_ ]?to[-_ ]?image|gpt-image/, 'image'],
  [/chat|completion|text|llm|language|conversation|instruct/, 'chat'],
  // Catalogs without type fields: the common chat model families, checked after the specific
  // purposes above (so gpt-image, *-tts and *-transcribe models keep their own category).
  [/gpt|claude|gemini|gemma|llama|mistral|mixtral|codestral|qwen|deepseek|grok|command-?r|phi-?\d|sonar|nemotron|(^|\/)o\d(-|$)|kimi|glm|reason/, 'chat'],
];

function fromName(text: string): ModelCategory | undefined {
  const lower = text.toLowerCase();
  for (const [pattern, category] of NAMES) if (pattern.test(lower)) return category;
  return undefined;
}

function words(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (isRecord(value)) return Object.entries(value).filter(([, v]) => v === true).map(([k]) => k);
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

function fromExplicitFields(model: Record<string, unknown>): ModelCategory | undefined {
  for (const field of ['category', 'type', 'task', 'mode']) {
    const value = model[field];
    if (typeof value === 'string' && value !== 'model') {
      const category = fromName(value);
      if (category) return category;
    }
  }
  const architecture = isRecord(model.architecture) ? model.architecture : undefined;
  const modalities = model.modalities;
  const input = [...words(isRecord(modalities) ? modalities.input : undefined), ...words(architecture?.input_modalities)];
  const output = [...words(isRecord(modalities) ? modalities.output : undefined), ...words(architecture?.output_modalities)];
  // OpenRouter writes "text+image->text".
  const arrow = typeof architecture?.modality === 'string' ? architecture.modality.split('->') : [];
  if (arrow.length === 2) {
    input.push(...(arrow[0] as string).split('+'));
    output.push(...(arrow[1] as string).split('+'));
  }
  const byModality = fromModalities(input, output);
  if (byModality) return byModality;
  // Capabilities or a flat modalities list: a list of purposes.
  for (const value of [model.capabilities, Array.isArray(modalities) ? modalities : undefined]) {
    const names = words(value);
    for (const category of ['rerank', 'embedding', 'transcription', 'speech', 'image'] as const) {
      if (names.some((name) => fromName(name) === category)) return category;
    }
    if (names.some((name) => fromName(name) === 'chat')) return 'chat';
  }
  return undefined;
}

export function classifyModel(model: { id: string; [key: string]: unknown } | string): ModelCategory {
  return identifyModelCategory(model) ?? 'chat';
}

/** The category when the model's fields or id say it, else undefined (a catalog shows "other"). */
export function identifyModelCategory(model: { id: string; [key: string]: unknown } | string): ModelCategory | undefined {
  if (typeof model === 'string') return fromName(model);
  return fromExplicitFields(model) ?? fromName(model.id);
}
