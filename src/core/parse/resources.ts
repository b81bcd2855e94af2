// Typed views of the non-chat resources. Missing optional fields are left out, never crash.
import type { Model, Quota, ResearchCreated, ResearchJob, ResearchList } from '../types/account';
import type {
  Embedding,
  EmbeddingList,
  GeneratedImage,
  ImageGenerationResult,
  RerankItem,
  RerankResult,
  Transcription,
  TranscriptionSegment,
  TranscriptionWord,
} from '../types/media';
import { GatewayError } from '../errors';
import { arr, asRecord, bool, isRecord, num, str } from './json';

/** base64 of little-endian float32s (wire-conventions "Embeddings") -> numbers. */
export function decodeBase64Embedding(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = Math.floor(bytes.byteLength / 4);
  const values = new Array<number>(count);
  for (let i = 0; i < count; i++) values[i] = view.getFloat32(i * 4, true);
  return values;
}

function parseEmbedding(value: unknown, position: number): Embedding {
  const item = asRecord(value);
  const raw = item.embedding;
  const embedding = typeof raw === 'string' ? decodeBase64Embedding(raw) : arr(raw).map((x) => num(x) ?? 0);
  return { index: num(item.index) ?? position, object: str(item.object) ?? 'embedding', embedding };
}

export function parseEmbeddingList(value: unknown): EmbeddingList {
  const body = asRecord(value);
  const usage = asRecord(body.usage);
  return {
    object: str(body.object) ?? 'list',
    data: arr(body.data).map(parseEmbedding),
    model: str(body.model) ?? '',
    usage: {
      prompt_tokens: num(usage.prompt_tokens) ?? 0,
      total_tokens: num(usage.total_tokens) ?? num(usage.prompt_tokens) ?? 0,
    },
  };
}

export function parseRerankResult(value: unknown): RerankResult {
  const body = asRecord(value);
  const results: RerankItem[] = arr(body.results ?? body.data)
    .filter(isRecord)
    .map((item, position) => {
      const parsed: RerankItem = {
        index: num(item.index) ?? position,
        relevance_score: num(item.relevance_score) ?? num(item.score) ?? 0,
      };
      const document = item.document;
      if (typeof document === 'string') parsed.document = { text: document };
      else if (isRecord(document)) parsed.document = { text: str(document.text) ?? '' };
      return parsed;
    });
  results.sort((a, b) => b.relevance_score - a.relevance_score);
  return { id: str(body.id) ?? '', results, usage: { total_tokens: num(asRecord(body.usage).total_tokens) ?? 0 } };
}

export function parseTranscription(value: unknown): Transcription {
  const body = asRecord(value);
  const result: Transcription = { text: str(body.text) ?? '' };
  const task = str(body.task);
  if (task !== undefined) result.task = task;
  const language = str(body.language);
  if (language !== undefined) result.language = language;
  const duration = num(body.duration);
  if (duration !== undefined) result.duration = duration;
  if (Array.isArray(body.words)) {
    result.words = body.words
      .filter(isRecord)
      .map((w): TranscriptionWord => ({ word: str(w.word) ?? '', start: num(w.start) ?? 0, end: num(w.end) ?? 0 }));
  }
  if (Array.isArray(body.segments)) {
    result.segments = body.segments.filter(isRecord).map((s, i): TranscriptionSegment => ({
      ...s,
      id: num(s.id) ?? i,
      start: num(s.start) ?? 0,
      end: num(s.end) ?? 0,
      text: str(s.text) ?? '',
    }));
  }
  return result;
}

export function parseImageResult(value: unknown): ImageGenerationResult {
  const body = asRecord(value);
  const data = arr(body.data)
    .filter(isRecord)
    .map((item) => {
      const image: GeneratedImage = {};
      const url = str(item.url);
      if (url !== undefined) image.url = url;
      const b64 = str(item.b64_json);
      if (b64 !== undefined) image.b64_json = b64;
      const revised = str(item.revised_prompt);
      if (revised !== undefined) image.revised_prompt = revised;
      return image;
    });
  return { created: num(body.created) ?? 0, data };
}

export function parseModel(value: unknown): Model | undefined {
  if (typeof value === 'string') return { id: value, object: 'model' };
  if (!isRecord(value)) return undefined;
  const id = str(value.id) ?? str(value.name);
  if (id === undefined) return undefined;
  const model: Model = { ...value, id, object: str(value.object) ?? 'model' };
  const created = num(value.created);
  if (created !== undefined) model.created = created;
  else delete model.created;
  return model;
}

/** `{object: "list", data: [...]}`, or a bare array from a lax server. */
export function parseModelList(value: unknown): Model[] {
  const list = Array.isArray(value) ? value : arr(asRecord(value).data ?? asRecord(value).models);
  return list.map(parseModel).filter((model): model is Model => model !== undefined);
}

/**
 * `{credits, reset}`. Without a readable credits value this throws: a made-up 0 would show as
 * "out of credits". A numeric string ("12.5") is read as its number.
 */
export function parseQuota(value: unknown): Quota {
  const credits = isRecord(value) ? num(value.credits) : undefined;
  if (credits === undefined) throw new GatewayError("The gateway's quota answer has no credits value");
  return { credits, reset: str(asRecord(value).reset) ?? '' };
}

export function parseResearchCreated(value: unknown): ResearchCreated {
  const body = asRecord(value);
  const doc = isRecord(body.doc) ? body.doc : body;
  return { id: str(doc.id) ?? String(num(doc.id) ?? ''), status: str(doc.status) ?? 'queued' };
}

export function parseResearchJob(value: unknown): ResearchJob {
  const body = asRecord(value);
  // The detail is the document itself; a `{doc: {...}}` wrapper is unwrapped all the same.
  const doc = str(body.id) === undefined && isRecord(body.doc) ? body.doc : body;
  const job: ResearchJob = {
    ...doc,
    id: str(doc.id) ?? String(num(doc.id) ?? ''),
    status: str(doc.status) ?? 'unknown',
  };
  for (const field of ['title', 'topic', 'createdAt', 'updatedAt'] as const) {
    const text = str(doc[field]);
    if (text === undefined) delete job[field];
    else job[field] = text;
  }
  return job;
}

export function parseResearchList(value: unknown): ResearchList {
  const body = asRecord(value);
  const docs = arr(body.docs).filter(isRecord).map(parseResearchJob);
  const list: ResearchList = { docs, totalDocs: num(body.totalDocs) ?? docs.length };
  const page = num(body.page);
  if (page !== undefined) list.page = page;
  const totalPages = num(body.totalPages);
  if (totalPages !== undefined) list.totalPages = totalPages;
  const hasNextPage = bool(body.hasNextPage);
  if (hasNextPage !== undefined) list.hasNextPage = hasNextPage;
  if (body.nextPage === null) list.nextPage = null;
  else {
    const nextPage = num(body.nextPage);
    if (nextPage !== undefined) list.nextPage = nextPage;
  }
  return list;
}
