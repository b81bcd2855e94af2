// Anthropic Messages streams: bytes in, typed events out. Pure, like parseChatStream.
import { StreamError } from './errors';
import { errorEvent, interrupted, malformed, sourceFailure } from './streamCommon';
import { isRecord, str, tryParseJson } from './parse/json';
import { parseMessageEvent } from './parse/messages';
import { SseDecoder } from './sse';
import type { SseEvent } from './sse';
import type { MessageStreamEvent } from './types/messages';

interface MessagesStreamState {
  /** message_stop arrived. */
  done: boolean;
  /** A message_delta carried a stop_reason: the message is whole even if message_stop never comes. */
  finished: boolean;
}

/**
 * Yields the events of a Messages stream (pings and unknown types are skipped). Ends at
 * `message_stop`; throws StreamError for an `error` event or a malformed event, and with
 * `interrupted: true` when the stream ends or breaks before the message was complete.
 */
export async function* parseMessagesStream(source: AsyncIterable<Uint8Array>): AsyncGenerator<MessageStreamEvent, void, undefined> {
  const sse = new SseDecoder();
  const state: MessagesStreamState = { done: false, finished: false };
  const bytes = source[Symbol.asyncIterator]();
  let sourceOpen = true;
  try {
    for (;;) {
      let step: IteratorResult<Uint8Array>;
      try {
        step = await bytes.next();
      } catch (error) {
        sourceOpen = false;
        const failure = sourceFailure(error);
        if (state.finished && failure instanceof StreamError && failure.interrupted) return;
        throw failure;
      }
      if (step.done === true) {
        sourceOpen = false;
        break;
      }
      for (const event of sse.push(step.value)) {
        const parsed = readEvent(event, state);
        if (parsed !== undefined) yield parsed;
        if (state.done) return;
      }
    }
    for (const event of sse.end()) {
      const parsed = readEvent(event, state);
      if (parsed !== undefined) yield parsed;
      if (state.done) return;
    }
    if (!state.finished) throw interrupted();
  } finally {
    if (sourceOpen) await bytes.return?.();
  }
}

function readEvent(event: SseEvent, state: MessagesStreamState): MessageStreamEvent | undefined {
  const data = event.data;
  if (data.trim() === '') return undefined;
  const json = tryParseJson(data);
  if (!isRecord(json)) {
    if (event.event === 'error') throw errorEvent(data);
    if (data.trim() === '[DONE]') {
      state.done = true;
      return undefined;
    }
    if (event.unterminated) return undefined;
    throw malformed(data);
  }
  // `event:` equals data.type; either may be missing on a lax server.
  const type = str(json.type) ?? event.event ?? '';
  if (type === 'error' || event.event === 'error') throw errorEvent(json);
  if (type === 'ping') return undefined;
  const parsed = parseMessageEvent(type, json);
  if (parsed?.type === 'message_stop') state.done = true;
  else if (parsed?.type === 'message_delta' && parsed.delta.stop_reason !== null) state.finished = true;
  return parsed;
}
