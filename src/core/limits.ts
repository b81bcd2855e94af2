// How much the client reads or sends, per kind of answer. The numbers are generous (many times a
// normal answer) because a cap is there to stop a runaway or hostile body, not to second-guess a
// real one; each says what it is measured against.

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * JSON answers without a cap of their own (chat and messages without streaming, a research job
 * with its report): a 200,000-token answer is about 1 MB of JSON, so 32 MiB is 30 times that.
 */
export const MAX_JSON_BYTES = 32 * MiB;

/** The model catalog: 16 models with full detail are 10 KB, so 16 MiB holds tens of thousands. */
export const MAX_CATALOG_BYTES = 16 * MiB;

/** The quota and a new research job: a handful of fields (well under 1 KB). */
export const MAX_SMALL_JSON_BYTES = 1 * MiB;

/** A research list page: at most 100 job summaries, each a few KB at most (topic, title, dates). */
export const MAX_RESEARCH_LIST_BYTES = 16 * MiB;

/** Transcripts: verbose_json with word timestamps of a 25 MB upload (hours of speech) is a few MB. */
export const MAX_TRANSCRIPTION_BYTES = 32 * MiB;

/**
 * Speech audio of one request (at most 4096 characters): at speed 0.25 that is about 20 minutes,
 * 55 MB as 24 kHz mono 16-bit WAV; 128 MiB leaves room for 48 kHz.
 */
export const MAX_SPEECH_BYTES = 128 * MiB;

/**
 * One image, downloaded or decoded from b64_json: the sizes the spec lists are at most 1792x1024
 * (7 MiB as raw RGBA, less as PNG); 20 MiB still holds a 2048x2048 RGBA image uncompressed.
 */
export const MAX_IMAGE_BYTES = 20 * MiB;

/** Per embedding: 6,000 dimensions written as JSON floats (about 21 bytes each). */
const EMBEDDING_BYTES = 128 * KiB;

/** Embeddings grow with the inputs: 1 MiB plus 128 KiB per input (2048 inputs: 257 MiB). */
export function embeddingsAnswerCap(inputs: number): number {
  return 1 * MiB + Math.max(1, inputs) * EMBEDDING_BYTES;
}

/** Rerank answers may echo every document: 1 MiB plus twice the documents' UTF-8 size. */
export function rerankAnswerCap(documents: readonly string[]): number {
  return 1 * MiB + 2 * documents.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
}

/**
 * Image generation: room for the base64 of MAX_IMAGE_BYTES per image, plus 1 MiB, whichever
 * response_format was asked (a gateway may answer inline when asked for URLs).
 */
export function imagesAnswerCap(images: number): number {
  return 1 * MiB + Math.max(1, images) * Math.ceil((MAX_IMAGE_BYTES * 4) / 3);
}

/**
 * Transcription uploads. Over TRANSCRIPTION_CONFIRM_BYTES the user is asked first: the usual
 * gateway limit is 25 MB (the local gateway answers 413 above it). Over TRANSCRIPTION_MAX_BYTES
 * the file is refused before it is read: the whole file is held in memory while it uploads.
 */
export const TRANSCRIPTION_CONFIRM_BYTES = 25 * MiB;
export const TRANSCRIPTION_MAX_BYTES = 256 * MiB;

/** `25 MB`, `1.5 GB`, `640 KB`: sizes in messages (binary units, as the caps above). */
export function formatByteSize(bytes: number): string {
  if (bytes >= 1024 * MiB) return `${trim(bytes / (1024 * MiB))} GB`;
  if (bytes >= MiB) return `${trim(bytes / MiB)} MB`;
  return `${Math.max(1, Math.round(bytes / KiB))} KB`;
}

function trim(value: number): string {
  return value >= 10 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
}

/**
 * Apply: the largest file a partial code block is merged into through a model. The model reads
 * the file and writes it back whole: 200,000 characters are about 50,000 tokens each way, past the
 * output limit of most chat models; a larger file is better changed by a whole-file block or by hand.
 */
export const MAX_APPLY_MERGE_CHARS = 200_000;

/**
 * One server-sent event (the bytes fed since the last event was dispatched): a chat token's event
 * is about 250 bytes, and the largest real one (a tool call's arguments or a tool server's result
 * sent whole) a few hundred KB. Without this cap a line that never ends is held until the editor
 * runs out of memory.
 */
export const MAX_SSE_EVENT_BYTES = 16 * MiB;

/**
 * One streamed answer, all its events: the longest answer a model writes (128,000 output tokens,
 * with reasoning) as one event per token is about 40 MB of SSE; 256 MiB is six times that, and
 * stops a stream of small events that never ends.
 */
export const MAX_SSE_STREAM_BYTES = 256 * MiB;

/**
 * Content blocks of one Messages answer (its `index`): text, thinking, tool calls and tool server
 * blocks alternate, a few dozen in a long agentic answer. The index becomes an array index: a huge
 * one would make every snapshot walk a sparse array of that length.
 */
export const MAX_MESSAGE_BLOCKS = 4096;

/** A content block's `index` that may be used as an array index: whole, not negative, under MAX_MESSAGE_BLOCKS. */
export function isBlockIndex(index: number): boolean {
  return Number.isInteger(index) && index >= 0 && index < MAX_MESSAGE_BLOCKS;
}

/**
 * Tool calls one answer may ask for: models call a handful in parallel (rarely 20). The rest are
 * not run, and the model is told so; an answer with thousands would otherwise ask and save for
 * each one.
 */
export const MAX_TOOL_CALLS_PER_ANSWER = 64;

/**
 * Tools the gateway ran (`tools_executed`, MCP connector blocks) shown per answer: a few per
 * attached server. Past it they are counted in one line, not shown one by one.
 */
export const MAX_SERVER_TOOL_STEPS_PER_ANSWER = 64;

/**
 * A tool call's arguments: no tool schema nests past a handful; deeper JSON would also make saving the conversation overflow the stack. The size is
 * four times the longest answer a model writes (128,000 tokens, about 512 KB).
 */
export const MAX_TOOL_ARGUMENT_DEPTH = 64;
export const MAX_TOOL_ARGUMENT_BYTES = 2 * MiB;

/**
 * How deep redaction reads a value: a conversation around a tool call's arguments, with room to
 * spare. A value deeper than this is replaced, never passed on unread (it could hide the key).
 */
export const MAX_REDACTION_DEPTH = 2 * MAX_TOOL_ARGUMENT_DEPTH;
