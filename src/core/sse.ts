// Server-Sent Events framing, as a pure push decoder over bytes. The stream parsers feed it network
// chunks and get whole events back; eventsource-parser does the framing (\n, \r\n, \r line ends,
// comments, multi-line data) and TextDecoder in stream mode keeps a UTF-8 character split across
// two chunks intact. A synchronous decoder (not an async generator) keeps one generator layer, and
// its per-event cost, out of the hot path.
import { createParser } from 'eventsource-parser';
import type { EventSourceMessage, EventSourceParser } from 'eventsource-parser';

export interface SseEvent {
  /** The `event:` name, when the server sent one. */
  event?: string | undefined;
  data: string;
  /** True for an event that the stream ended in the middle of (no blank line after it). */
  unterminated?: boolean;
}

const NONE: readonly SseEvent[] = Object.freeze([]);

export class SseDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private pending: SseEvent[] = [];
  private ending = false;

  constructor() {
    this.parser = createParser({
      onEvent: (message: EventSourceMessage): void => {
        const event: SseEvent = { event: message.event, data: message.data };
        if (this.ending) event.unterminated = true;
        this.pending.push(event);
      },
    });
  }

  /** Feeds one network chunk; returns the events it completed (often none or one). */
  push(bytes: Uint8Array): readonly SseEvent[] {
    this.parser.feed(this.decoder.decode(bytes, { stream: true }));
    return this.take();
  }

  /**
   * Ends the input. A last event without its closing blank line is still returned, marked
   * `unterminated`, so that a stream ending in `data: [DONE]` with no newline is read as done,
   * while a cut-off JSON chunk can be told apart from a malformed one.
   */
  end(): readonly SseEvent[] {
    const rest = this.decoder.decode();
    this.ending = true;
    this.parser.feed(`${rest}\n\n`);
    return this.take();
  }

  private take(): readonly SseEvent[] {
    if (this.pending.length === 0) return NONE;
    const events = this.pending;
    this.pending = [];
    return events;
  }
}

/** Every event of a byte stream, for callers that want SSE without a protocol on top. */
export async function* sseEvents(source: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
  const decoder = new SseDecoder();
  for await (const bytes of source) yield* decoder.push(bytes);
  yield* decoder.end();
}
