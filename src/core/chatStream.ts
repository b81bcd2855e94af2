// Chat completion streams: bytes in, typed chunks out. A pure function of an
// AsyncIterable<Uint8Array>, so tests feed it recorded streams split anywhere and the transport
// only has to supply the body.
import { StreamError } from './errors';
import { errorEvent, interrupted, malformed, sourceFailure } from './streamCommon';
import { parseChatChunk } from './parse/chat';
import { isRecord, tryParseJson } from './parse/json';
import { SseDecoder } from './sse';
import type { SseEvent } from './sse';
import type { ChatCompletionChunk } from './types/chat';

interface ChatStreamState {
  /** `data: [DONE]` arrived. */
  done: boolean;
  /** Some choice carried a finish_reason: the answer is whole even if [DONE] never comes. */
  finished: boolean;
}

/**
 * Yields every chunk of an OpenAI-style SSE chat stream. Ends normally at `[DONE]`, or at the end
 * of the bytes after a finish_reason. Throws StreamError for an error event, a malformed chunk
 * and (with `interrupted: true`) a stream that ended or broke before either end marker.
 */
export async function* parseChatStream(source: AsyncIterable<Uint8Array>): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const sse = new SseDecoder();
  const state: ChatStreamState = { done: false, finished: false };
  const bytes = source[Symbol.asyncIterator]();
  // Iterated by hand so that only failures of the source (not of the chunks) become source failures,
  // and the source is closed (the body destroyed) whenever we stop early for any reason.
  let sourceOpen = true;
  try {
    for (;;) {
      let step: IteratorResult<Uint8Array>;
      try {
        step = await bytes.next();
      } catch (error) {
        sourceOpen = false;
        const failure = sourceFailure(error);
        // A connection that drops after the finish_reason lost nothing but the usage chunk.
        if (state.finished && failure instanceof StreamError && failure.interrupted) return;
        throw failure;
      }
      if (step.done === true) {
        sourceOpen = false;
        break;
      }
      const events = sse.push(step.value);
      for (let i = 0; i < events.length; i++) {
        const chunk = readEvent(events[i] as SseEvent, state);
        if (chunk !== undefined) yield chunk;
        if (state.done) return;
      }
    }
    for (const event of sse.end()) {
      const chunk = readEvent(event, state);
      if (chunk !== undefined) yield chunk;
      if (state.done) return;
    }
    if (!state.finished) throw interrupted();
  } finally {
    if (sourceOpen) await bytes.return?.();
  }
}

function readEvent(event: SseEvent, state: ChatStreamState): ChatCompletionChunk | undefined {
  const data = event.data;
  if (event.event === 'error') throw errorEvent(data);
  if (data === '[DONE]' || data.trim() === '[DONE]') {
    state.done = true;
    return undefined;
  }
  if (data.trim() === '') return undefined;
  const json = tryParseJson(data);
  if (!isRecord(json)) {
    // The last event cut off mid-JSON by a dropped connection is an interruption, not garbage.
    if (event.unterminated) return undefined;
    throw malformed(data);
  }
  if (json.error !== undefined && json.error !== null) throw errorEvent(json);
  const chunk = parseChatChunk(json);
  const choices = chunk.choices;
  for (let i = 0; i < choices.length; i++) {
    if ((choices[i] as { finish_reason: string | null }).finish_reason !== null) state.finished = true;
  }
  return chunk;
}
