// What the chat and messages stream parsers share: how a failure of the byte source, an error
// event and an early end become errors.
import { ConnectionError, GatewayError, StreamError, isAbortError } from '../errors';
import { parseErrorObject } from '../parse/errorBody';
import { tryParseJson } from '../parse/json';
import type { StreamDecoder } from './decodedStream';
import { SseDecoder } from './sse';

/**
 * A source that failed mid-body. Cancellation and timeouts keep their own errors; a broken
 * connection (or any unexpected failure) means the answer was cut short: interrupted.
 */
export function sourceFailure(error: unknown): Error {
  if (isAbortError(error)) return error as Error;
  if (error instanceof GatewayError && !(error instanceof ConnectionError)) return error;
  return interrupted(error);
}

function interrupted(cause?: unknown): StreamError {
  return new StreamError('The stream ended before the answer was complete', { interrupted: true, cause });
}

/** An error reported inside the stream (`event: error` or a data object with an `error` key). */
export function errorEvent(data: unknown): StreamError {
  const value = typeof data === 'string' ? (tryParseJson(data) ?? data) : data;
  const body = parseErrorObject(value, 'The gateway reported an error during the stream');
  const init: { type?: string; code?: string } = {};
  if (body.type !== undefined) init.type = body.type;
  if (body.code !== undefined) init.code = body.code;
  return new StreamError(body.message, init);
}

/**
 * The part of a stream decoder that does not depend on the protocol: SSE framing, the end marker,
 * "finished" (a finish/stop reason arrived, so a missing end marker loses nothing but trailing
 * metadata), the first error, and skipped events. Subclasses read each event in `onEvent`.
 */
export abstract class SseStreamDecoder<T> implements StreamDecoder<T> {
  /** The end marker arrived: nothing more needs to be read. */
  done = false;
  /** Events that were not JSON objects and were skipped (for diagnostics). */
  skipped = 0;
  /** A finish/stop reason arrived: the answer is whole even if the end marker never comes. */
  protected finished = false;
  protected error: Error | undefined;
  protected out: T[] = [];
  private readonly sse = new SseDecoder((data, event) => {
    // After the end marker or an error, the rest of this network chunk is ignored.
    if (!this.done && this.error === undefined) this.onEvent(data, event);
  });

  push(bytes: Uint8Array, out: T[]): Error | undefined {
    this.out = out;
    // A cap passed: the events before it stand, the stream ends here (the source is closed).
    const failure = this.sse.push(bytes);
    this.error ??= failure;
    return this.error;
  }

  end(out: T[]): Error | undefined {
    this.out = out;
    const failure = this.sse.end();
    this.error ??= failure;
    if (this.error === undefined && !this.done && !this.finished) this.error = interrupted();
    return this.error;
  }

  fail(error: unknown): Error | undefined {
    const failure = sourceFailure(error);
    // A connection that drops after the finish/stop reason lost nothing of the answer.
    if (this.finished && failure instanceof StreamError && failure.interrupted) return undefined;
    return failure;
  }

  protected abstract onEvent(data: string, event: string | undefined): void;
}
