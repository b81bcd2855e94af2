// Embeddings, rerank, audio and images.

export interface EmbeddingRequest {
  model: string;
  input: string | string[];
  /** 'base64' is decoded by the client: `embedding` is always number[]. */
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
  [key: string]: unknown;
}

export interface Embedding {
  index: number;
  object: string;
  embedding: number[];
}

export interface EmbeddingList {
  object: string;
  data: Embedding[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

export interface RerankRequest {
  model: string;
  query: string;
  documents: string[];
  top_n?: number;
  [key: string]: unknown;
}

export interface RerankItem {
  index: number;
  relevance_score: number;
  document?: { text: string };
}

export interface RerankResult {
  id: string;
  /** Sorted by relevance, most relevant first. */
  results: RerankItem[];
  usage: { total_tokens: number };
}

export type TranscriptionFormat = 'json' | 'text' | 'srt' | 'verbose_json' | 'vtt';

export interface TranscriptionRequest {
  model: string;
  file: { data: Uint8Array; filename: string; contentType?: string };
  language?: string;
  prompt?: string;
  response_format?: TranscriptionFormat;
  /** 0 to 1. */
  temperature?: number;
}

export interface TranscriptionWord {
  word: string;
  start: number;
  end: number;
}
export interface TranscriptionSegment {
  id: number;
  start: number;
  end: number;
  text: string;
  [key: string]: unknown;
}

export interface Transcription {
  text: string;
  task?: string;
  language?: string;
  duration?: number;
  words?: TranscriptionWord[];
  segments?: TranscriptionSegment[];
}

export type SpeechFormat = 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm';

export interface SpeechRequest {
  model: string;
  /** At most 4096 characters (see splitSpeechInput for longer text). */
  input: string;
  voice: string;
  response_format?: SpeechFormat;
  /** 0.25 to 4.0. */
  speed?: number;
  [key: string]: unknown;
}

export interface SpeechResult {
  data: Uint8Array;
  contentType: string;
}

export interface ImageGenerationRequest {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  quality?: 'standard' | 'hd' | (string & {});
  response_format?: 'url' | 'b64_json';
  [key: string]: unknown;
}

export interface GeneratedImage {
  url?: string;
  b64_json?: string;
  revised_prompt?: string;
}

export interface ImageGenerationResult {
  created: number;
  data: GeneratedImage[];
}
