// Anthropic Messages streams: bytes in, typed events out. Pure, like parseChatStream.
import { DecodedStream } from './decodedStream';
import type { StreamDecoder } from './decodedStream';
import { StreamError } from './errors';
import { isRecord, str, tryParseJson } from './parse/json';
import { parseMessageEvent } from './parse/messages';
import { SseDecoder } from './sse';
import { errorEvent, interrupted, sourceFailure } from './streamCommon';
import type { MessageStreamEvent } from './types/messages';

/**
 * Yields the events of a Messages stream (pings and unknown types are skipped). Ends at
 * `message_stop` (events that are not JSON are skipped); throws StreamError for an `error` event, and with
 * `interrupted: true` when the stream ends or breaks before the message was complete.
 */
export function parseMessagesStream(source: AsyncIterable<Uint8Array>): DecodedStream<MessageStreamEvent> {
  return new DecodedStream(source, new MessagesStreamDecoder());
}

export class MessagesStreamDecoder implements StreamDecoder<MessageStreamEvent> {
  /** message_stop arrived. */
  done = false;
  /** A message_delta carried a stop_reason: the message is whole even if message_stop never comes. */
  private finished = false;
  private error: Error | undefined;
  /** Events that were not JSON objects and were skipped (for diagnostics). */
  skipped = 0;
  private out: MessageStreamEvent[] = [];
  private readonly sse = new SseDecoder((data, event) => this.onEvent(data, event));

  push(bytes: Uint8Array, out: MessageStreamEvent[]): Error | undefined {
    this.out = out;
    this.sse.push(bytes);
    return this.error;
  }

  end(out: MessageStreamEvent[]): Error | undefined {
    this.out = out;
    this.sse.end();
    if (this.error === undefined && !this.done && !this.finished) this.error = interrupted();
    return this.error;
  }

  fail(error: unknown): Error | undefined {
    const failure = sourceFailure(error);
    if (this.finished && failure instanceof StreamError && failure.interrupted) return undefined;
    return failure;
  }

  private onEvent(data: string, event: string | undefined): void {
    if (this.done || this.error !== undefined) return;
    const json = tryParseJson(data);
    if (!isRecord(json)) {
      const text = data.trim();
      if (event === 'error') this.error = errorEvent(data);
      else if (text === '[DONE]') this.done = true;
      // A garbled or cut-off event is skipped; how the stream ends decides the rest.
      else this.skipped++;
      return;
    }
    // `event:` equals data.type; either may be missing on a lax server.
    const type = str(json.type) ?? event ?? '';
    if (type === 'error' || event === 'error') {
      this.error = errorEvent(json);
      return;
    }
    const parsed = parseMessageEvent(type, json);
    if (parsed === undefined) return; // ping, or a type this client does not know
    if (parsed.type === 'message_stop') this.done = true;
    else if (parsed.type === 'message_delta' && parsed.delta.stop_reason !== null) this.finished = true;
    this.out.push(parsed);
  }
}
