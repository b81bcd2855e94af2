// Server-Sent Events framing, as a pure push decoder over bytes. eventsource-parser does the
// framing (\n, \r\n, \r line ends, comments, multi-line data, event names) and TextDecoder in
// stream mode keeps a UTF-8 character split across two network chunks intact. Events go to a
// callback, synchronously, so the stream decoders above handle them without allocating a
// wrapper object or a promise per event (this is the hot path of every stream).
import { createParser } from 'eventsource-parser';
import type { EventSourceMessage, EventSourceParser } from 'eventsource-parser';

/**
 * `unterminated` is true for a last event that the stream ended in the middle of (no blank line
 * after it): a stream ending in `data: [DONE]` without a newline is still done, while a cut-off
 * JSON chunk can be told apart from a malformed one.
 */
export type SseListener = (data: string, event: string | undefined, unterminated: boolean) => void;

export class SseDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private ending = false;

  constructor(listener: SseListener) {
    this.parser = createParser({
      onEvent: (message: EventSourceMessage): void => listener(message.data, message.event, this.ending),
    });
  }

  /** Feeds one network chunk; the events it completes go to the listener before this returns. */
  push(bytes: Uint8Array): void {
    this.parser.feed(this.decoder.decode(bytes, { stream: true }));
  }

  /** Ends the input: a last event without its closing blank line goes out marked unterminated. */
  end(): void {
    const rest = this.decoder.decode();
    this.ending = true;
    this.parser.feed(`${rest}\n\n`);
  }
}

export interface SseEvent {
  data: string;
  event?: string;
  unterminated?: boolean;
}

/** Every event of a byte stream, for callers that want SSE without a protocol on top. */
export async function* sseEvents(source: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
  let events: SseEvent[] = [];
  const decoder = new SseDecoder((data, event, unterminated) => {
    const item: SseEvent = { data };
    if (event !== undefined) item.event = event;
    if (unterminated) item.unterminated = true;
    events.push(item);
  });
  for await (const bytes of source) {
    decoder.push(bytes);
    const ready = events;
    events = [];
    yield* ready;
  }
  decoder.end();
  yield* events;
}
