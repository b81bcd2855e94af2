// What the chat and messages stream parsers share: how a failure of the byte source, an error
// event and an early end become errors.
import { ConnectionError, GatewayError, StreamError, isAbortError } from './errors';
import { parseErrorObject } from './parse/errorBody';
import { tryParseJson } from './parse/json';

/**
 * A source that failed mid-body. Cancellation and timeouts keep their own errors; a broken
 * connection (or any unexpected failure) means the answer was cut short: interrupted.
 */
export function sourceFailure(error: unknown): Error {
  if (isAbortError(error)) return error as Error;
  if (error instanceof GatewayError && !(error instanceof ConnectionError)) return error;
  return interrupted(error);
}

export function interrupted(cause?: unknown): StreamError {
  return new StreamError('The stream ended before the answer was complete', { interrupted: true, cause });
}

/** An error reported inside the stream (`event: error` or a data object with an `error` key). */
export function errorEvent(data: string | unknown): StreamError {
  const value = typeof data === 'string' ? (tryParseJson(data) ?? data) : data;
  const body = parseErrorObject(value, 'The gateway reported an error during the stream');
  const init: { type?: string; code?: string } = {};
  if (body.type !== undefined) init.type = body.type;
  if (body.code !== undefined) init.code = body.code;
  return new StreamError(body.message, init);
}
