// How a failed request becomes one of the error classes: a non-2xx answer by its status and body,
// a socket or undici failure by what it says. Both are redacted of the key the request carried: a
// gateway or proxy may echo it in a body, a header or an error text.
import type { Dispatcher } from 'undici';
import { AuthenticationError, ConnectionError, GatewayError, RateLimitError, abortError } from '../errors';
import type { GatewayErrorInit } from '../errors';
import { parseErrorBody } from '../parse/errorBody';
import { tryParseJson } from '../parse/json';
import { redactError, redactSecrets, redactValue } from '../secrets/redact';
import { readText } from './readBody';
import { responseRequestId } from './responseInfo';
import { isOutOfCredits, parseRetryAfter } from './retry';
import { phaseTimeout } from './timeouts';

/** Error bodies are read up to this size; the message is all we need from them. */
const MAX_ERROR_BODY = 64 * 1024;

/** A non-2xx answer as the error class it means, its body read (up to MAX_ERROR_BODY) and redacted of the key. */
export async function errorOfAnswer(
  response: Dispatcher.ResponseData,
  bodyBytes: AsyncIterable<Uint8Array>,
  signal: AbortSignal | undefined,
  key: string,
): Promise<GatewayError> {
  const status = response.statusCode;
  let text = '';
  try {
    text = await readText(bodyBytes, MAX_ERROR_BODY);
  } catch {
    if (signal?.aborted) throw abortError(signal);
    // The status alone still tells what happened.
  }
  // Parsed first, redacted after: a key the server escaped (`\/`, `\u0041`) is plain text by now.
  const parsed = parseErrorBody(status, text);
  const body = redactValue(parsed, [key]);
  const init: GatewayErrorInit = { status };
  if (text !== '') init.body = redactedBody(text, key);
  if (body.code !== undefined) init.code = body.code;
  if (body.type !== undefined) init.type = body.type;
  if (body.param !== undefined) init.param = body.param;
  const retryAfterMs = parseRetryAfter(response.headers);
  if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
  const requestId = responseRequestId(response.headers);
  if (requestId !== undefined) init.requestId = redactSecrets(requestId, [key]);
  if (status === 401 || status === 403) return new AuthenticationError(body.message, init);
  if (status === 402 || status === 429) {
    return new RateLimitError(body.message, {
      ...init,
      quotaExhausted:
        status === 402 ||
        isOutOfCredits(body.code, body.type, limitWords(body.message, status, text), retryAfterMs !== undefined),
    });
  }
  return new GatewayError(body.message, init);
}

/**
 * undici and socket failures, as our errors. Messages name the host, never headers or the key.
 * `answered`: the response had started (headers in), so the gateway was reached and the failure
 * is the connection closing mid-body, which must not read as "could not reach".
 */
export function errorOfFailure(
  error: unknown,
  signal: AbortSignal | undefined,
  key: string,
  apiBase: string,
  answered = false,
): Error {
  if (signal?.aborted) return abortError(signal);
  // Our own TimeoutError, as the abort reason of the attempt.
  if (error instanceof GatewayError) return redactError(error, [key]);
  // An error merely *named* AbortError while the caller did not cancel (undici gives that name to
  // some proxy and socket failures) is a failed connection, not a cancellation to stay quiet about.
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  // undici's (or the OS's) own connect timer ran out before ours: the same phase, the same words.
  if (!answered && (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT'))
    return phaseTimeout('connect', undefined, new URL(apiBase).host);
  const detail = error instanceof Error ? redactSecrets(error.message, [key]) : 'unknown failure';
  const host = new URL(apiBase).host;
  // The cause (an undici or proxy error) stays for diagnosis, with the key taken out of its text.
  const init: GatewayErrorInit = { cause: redactError(error, [key]) };
  if (typeof code === 'string') init.code = redactSecrets(code, [key]);
  const message = answered
    ? `The connection to ${host} closed while the answer was being read (${detail})`
    : `Could not reach the gateway at ${host}: ${detail}`;
  return new ConnectionError(message, init);
}

/** An error body as kept on the error: re-serialized from its redacted JSON, or its text with the key's encodings taken out. */
function redactedBody(text: string, key: string): string {
  const json = tryParseJson(text);
  return json === undefined ? redactSecrets(text, [key]) : JSON.stringify(redactValue(json, [key]));
}

/** The words a 429 says itself in: its message, or a short plain-text body (not a proxy's HTML page). */
function limitWords(message: string, status: number, text: string): string {
  if (message !== `HTTP ${status}`) return message;
  const plain = text.trim();
  return plain.length <= 1000 && !plain.startsWith('<') ? plain : message;
}
