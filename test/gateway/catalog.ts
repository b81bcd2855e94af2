import { badRequest } from './errors';

export type ModelCategory = 'chat' | 'embedding' | 'rerank' | 'transcription' | 'speech' | 'image';

/** Prices in USD; which ones apply depends on the category. */
interface Pricing {
  /** Per million prompt/input tokens (chat, embedding, rerank). */
  readonly input?: number;
  /** Per million completion/output tokens (chat). */
  readonly output?: number;
  /** Per million input characters (speech). */
  readonly perMillionChars?: number;
  /** Per minute of audio (transcription). */
  readonly perMinute?: number;
  /** Per image (image). */
  readonly perImage?: number;
}

export interface CatalogModel {
  readonly id: string;
  readonly provider: string;
  readonly category: ModelCategory;
  readonly pricing: Pricing;
  readonly contextLength?: number;
  /** Chat: the answer's limit, listed as `max_output_tokens` (as some catalogs do). */
  readonly maxOutputTokens?: number;
  /** Chat: always reasons (emits reasoning deltas even without `reasoning_effort`). */
  readonly reasoning?: boolean;
  /** Chat: takes images (listed with image input modality); answers with what it received (imageParts.ts). */
  readonly vision?: boolean;
  /** Chat: answers every request with a long stream of `max_tokens` chunks (for benchmarks). */
  readonly bench?: boolean;
  /** Chat: answers a hole prompt with the real continuation of a source file (completionModel.ts). */
  readonly completion?: boolean;
  /** Embedding: default and maximum vector length. */
  readonly dimensions?: number;
  /** Embedding: honours the `dimensions` request field. */
  readonly supportsDimensions?: boolean;
  /** Transcription: returns word timestamps. */
  readonly words?: boolean;
  /** Whether extra fields (context_length, pricing, type) are listed: some providers list them, some do not. */
  readonly detailed: boolean;
  /** Detailed but without `type`/`category`: pricing and context are listed, the purpose is not (as many real catalogs do). */
  readonly untyped?: boolean;
  readonly status: 'operational' | 'degraded';
}

/** Every model id says it is a simulation, so nothing on screen can be mistaken for a real provider's output. */
export const CATALOG: readonly CatalogModel[] = [
  {
    id: 'sim-openai/gpt-sim-mini',
    provider: 'sim-openai',
    category: 'chat',
    pricing: { input: 0.15, output: 0.6 },
    contextLength: 128000,
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-openai/gpt-sim',
    provider: 'sim-openai',
    category: 'chat',
    pricing: { input: 2.5, output: 10 },
    contextLength: 128000,
    detailed: true,
    status: 'operational',
  },
  // A small context (2,048 tokens, as early chat models had): what a long conversation outgrows.
  {
    id: 'sim-openai/gpt-sim-tiny',
    provider: 'sim-openai',
    category: 'chat',
    pricing: { input: 0.05, output: 0.2 },
    contextLength: 2048,
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-openai/o-sim-reasoner',
    provider: 'sim-openai',
    category: 'chat',
    pricing: { input: 1.1, output: 4.4 },
    contextLength: 200000,
    reasoning: true,
    detailed: true,
    status: 'operational',
  },
  // Takes images: its answer names each image it received (type, size, hash), on both endpoints.
  {
    id: 'sim-openai/gpt-sim-vision',
    provider: 'sim-openai',
    category: 'chat',
    pricing: { input: 0.4, output: 1.6 },
    contextLength: 128000,
    vision: true,
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-anthropic/claude-sim-sonnet',
    provider: 'sim-anthropic',
    category: 'chat',
    pricing: { input: 3, output: 15 },
    contextLength: 200000,
    maxOutputTokens: 64000,
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-google/gemini-sim-flash',
    provider: 'sim-google',
    category: 'chat',
    pricing: { input: 0.1, output: 0.4 },
    detailed: false,
    status: 'degraded',
  },
  // Inline completions: the answer is the file's real continuation, streamed in small delayed pieces.
  {
    id: 'sim-openai/gpt-sim-complete',
    provider: 'sim-openai',
    category: 'chat',
    pricing: { input: 0.1, output: 0.4 },
    contextLength: 16000,
    completion: true,
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-bench/stream-bench',
    provider: 'sim-bench',
    category: 'chat',
    pricing: { input: 0, output: 0 },
    contextLength: 1000000,
    bench: true,
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-openai/text-embedding-sim-small',
    provider: 'sim-openai',
    category: 'embedding',
    pricing: { input: 0.02 },
    dimensions: 1536,
    supportsDimensions: true,
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-openai/text-embedding-sim-large',
    provider: 'sim-openai',
    category: 'embedding',
    pricing: { input: 0.13 },
    dimensions: 3072,
    supportsDimensions: true,
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-cohere/embed-sim-english',
    provider: 'sim-cohere',
    category: 'embedding',
    pricing: { input: 0.1 },
    dimensions: 384,
    detailed: false,
    status: 'operational',
  },
  {
    id: 'sim-cohere/rerank-sim-v1',
    provider: 'sim-cohere',
    category: 'rerank',
    pricing: { input: 1 },
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-openai/whisper-sim-1',
    provider: 'sim-openai',
    category: 'transcription',
    pricing: { perMinute: 0.006 },
    words: true,
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-openai/gpt-sim-transcribe',
    provider: 'sim-openai',
    category: 'transcription',
    pricing: { perMinute: 0.003 },
    detailed: false,
    status: 'operational',
  },
  {
    id: 'sim-openai/tts-sim-1',
    provider: 'sim-openai',
    category: 'speech',
    pricing: { perMillionChars: 15 },
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-elevenlabs/tts-sim-multilingual',
    provider: 'sim-elevenlabs',
    category: 'speech',
    pricing: { perMillionChars: 30 },
    detailed: false,
    status: 'operational',
  },
  {
    id: 'sim-openai/dall-e-sim-3',
    provider: 'sim-openai',
    category: 'image',
    pricing: { perImage: 0.04 },
    detailed: true,
    status: 'operational',
  },
  {
    id: 'sim-stability/stable-diffusion-sim-xl',
    provider: 'sim-stability',
    category: 'image',
    pricing: { perImage: 0.02 },
    detailed: false,
    status: 'operational',
  },
  // Ids that give no hint of their purpose, as in real catalogs (`anthropic/sonnet-4.5`,
  // `amazon/nova-pro-v1`): a client that classifies by id pattern hides them from chat. One lists
  // nothing but the spec's fields; one lists pricing but no type; the image one says its purpose
  // only in its `type`/`category` fields.
  {
    id: 'sim-anthropic/sonnet-sim-4.5',
    provider: 'sim-anthropic',
    category: 'chat',
    pricing: { input: 3, output: 15 },
    detailed: false,
    status: 'operational',
  },
  {
    id: 'sim-amazon/nova-sim-pro-v1',
    provider: 'sim-amazon',
    category: 'chat',
    pricing: { input: 0.8, output: 3.2 },
    contextLength: 300000,
    detailed: true,
    untyped: true,
    status: 'operational',
  },
  {
    id: 'sim-amazon/nova-sim-canvas-v1',
    provider: 'sim-amazon',
    category: 'image',
    pricing: { perImage: 0.04 },
    detailed: true,
    status: 'operational',
  },
];

/** A fixed creation time: the catalog is the same on every run. */
const CREATED = 1767225600; // 2026-01-01T00:00:00Z

export function modelObject(model: CatalogModel): Record<string, unknown> {
  const base: Record<string, unknown> = {
    id: model.id,
    object: 'model',
    created: CREATED,
    owned_by: model.provider,
    provider: model.provider,
    created_at: new Date(CREATED * 1000).toISOString(),
    provider_info: { status: model.status, name: model.provider, simulated: true },
  };
  if (!model.detailed) return base;
  return {
    ...base,
    ...(model.untyped ? {} : { type: model.category, category: model.category }),
    description: model.untyped
      ? 'Local simulation; no real provider is called.'
      : `Local simulation of a ${model.category} model; no real provider is called.`,
    ...(model.contextLength ? { context_length: model.contextLength } : {}),
    ...(model.maxOutputTokens ? { max_output_tokens: model.maxOutputTokens } : {}),
    ...(model.dimensions ? { dimensions: model.dimensions } : {}),
    ...(model.reasoning ? { capabilities: ['reasoning'] } : {}),
    // OpenRouter's shape for what a model reads, and LiteLLM's flag: clients read either.
    ...(model.vision
      ? { architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] }, supports_vision: true }
      : {}),
    pricing: model.pricing,
  };
}

/** Finds a model for an endpoint; the field is named in the 400 so a client can show what was wrong. */
export function lookupModel(id: string, category: ModelCategory, field = 'model'): CatalogModel {
  const model = CATALOG.find((m) => m.id === id);
  if (!model)
    throw badRequest(
      field,
      `The model '${id}' does not exist; GET /api/v1/models lists the valid ids`,
      'model_not_found',
    );
  if (model.category !== category) {
    throw badRequest(
      field,
      `The model '${id}' is a ${model.category} model and cannot be used for ${category}`,
      'model_not_supported',
    );
  }
  return model;
}
