// Server-Sent Events framing, as a pure push decoder over bytes. eventsource-parser does the
// framing (\n, \r\n, \r line ends, comments, multi-line data, event names) and TextDecoder in
// stream mode keeps a UTF-8 character split across two network chunks intact. Events go to a
// callback, synchronously, so the stream decoders above handle them without allocating a
// wrapper object or a promise per event (this is the hot path of every stream). Two caps bound
// what a stream can hold (limits.ts): the parser's buffer since the last event (a line that never
// ends), and the stream's total bytes (small events that never end).
import { createParser } from 'eventsource-parser';
import type { EventSourceMessage, EventSourceParser, ParseError } from 'eventsource-parser';
import { StreamError } from '../errors';
import { formatByteSize, MAX_SSE_EVENT_BYTES, MAX_SSE_STREAM_BYTES } from '../limits';

/**
 * `unterminated` is true for a last event that the stream ended in the middle of (no blank line
 * after it): a stream ending in `data: [DONE]` without a newline is still done, while a cut-off
 * JSON chunk can be told apart from a malformed one.
 */
export type SseListener = (data: string, event: string | undefined, unterminated: boolean) => void;

export interface SseLimits {
  /** The most bytes held for one event (fed since the last event was dispatched). */
  readonly maxEventBytes: number;
  /** The most bytes of the whole stream. */
  readonly maxStreamBytes: number;
}

const SSE_LIMITS: SseLimits = { maxEventBytes: MAX_SSE_EVENT_BYTES, maxStreamBytes: MAX_SSE_STREAM_BYTES };

/** Codes of the StreamError a cap ends a stream with (interrupted: what arrived before it is whole). */
export const EVENT_TOO_LARGE = 'event_too_large';
export const STREAM_TOO_LARGE = 'stream_too_large';

function eventTooLarge(limit: number): StreamError {
  return new StreamError(
    `The gateway sent an event larger than ${formatByteSize(limit)}, the most the extension reads for one event, so the answer was cut there.`,
    { interrupted: true, code: EVENT_TOO_LARGE },
  );
}

function streamTooLarge(limit: number): StreamError {
  return new StreamError(
    `The gateway's answer went past ${formatByteSize(limit)}, the most the extension reads for one streamed answer, so it was cut there.`,
    { interrupted: true, code: STREAM_TOO_LARGE },
  );
}

export class SseDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private ending = false;
  private total = 0;
  /** Bytes fed since the last event was dispatched (the part of a chunk after a dispatch is not counted: one chunk of slack). */
  private eventBytes = 0;
  private failure: StreamError | undefined;

  constructor(
    listener: SseListener,
    private readonly limits: SseLimits = SSE_LIMITS,
  ) {
    this.parser = createParser({
      onEvent: (message: EventSourceMessage): void => {
        this.eventBytes = 0;
        listener(message.data, message.event, this.ending);
      },
      // Bytes are counted above; the parser's own cap (in characters, never more than the bytes
      // they came from) also holds when one chunk both ends an event and starts a huge one.
      maxBufferSize: limits.maxEventBytes,
      onError: (error: ParseError): void => {
        if (error.type === 'max-buffer-size-exceeded') this.failure ??= eventTooLarge(limits.maxEventBytes);
      },
    });
  }

  /**
   * Feeds one network chunk; the events it completes go to the listener before this returns. A
   * cap that was passed comes back (and every later call returns it without reading).
   */
  push(bytes: Uint8Array): StreamError | undefined {
    if (this.failure !== undefined) return this.failure;
    this.total += bytes.byteLength;
    if (this.total > this.limits.maxStreamBytes) return (this.failure = streamTooLarge(this.limits.maxStreamBytes));
    this.eventBytes += bytes.byteLength;
    this.parser.feed(this.decoder.decode(bytes, { stream: true }));
    if (this.eventBytes > this.limits.maxEventBytes) this.failure ??= eventTooLarge(this.limits.maxEventBytes);
    return this.failure;
  }

  /** Ends the input: a last event without its closing blank line goes out marked unterminated. */
  end(): StreamError | undefined {
    if (this.failure !== undefined) return this.failure;
    const rest = this.decoder.decode();
    this.ending = true;
    this.parser.feed(`${rest}\n\n`);
    return this.failure;
  }
}
