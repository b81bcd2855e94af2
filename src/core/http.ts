// The transport: one place that sends requests with undici, attaches the key, retries what may be
// retried, turns failures into the error classes, and hands bodies on as AsyncIterable<Uint8Array>.
import { getGlobalDispatcher, request } from 'undici';
import type { Dispatcher, FormData } from 'undici';
import { dispatcherOnDemand } from './net/dispatcherOnDemand';
import { resolveApiKey } from './apiKey';
import { unexpectedContent } from './answers/unexpectedContent';
import { apiBaseUrl } from './baseUrl';
import { readCappedText } from './cappedBody';
import { AuthenticationError, ConnectionError, GatewayError, RateLimitError, StreamError, TimeoutError, abortError } from './errors';
import { Exchange } from './exchange';
import { watchConnect } from './net/connectWatch';
import { phaseTimeout, resolveTimeouts } from './timeouts';
import type { TimeoutSettings } from './timeouts';
import type { GatewayErrorInit } from './errors';
import { parseErrorBody } from './parse/errorBody';
import { tryParseJson } from './parse/json';
import { MAX_JSON_BYTES } from './limits';
import { redactError, redactSecrets, redactValue } from './redact';
import { DEFAULT_MAX_RETRIES, backoffDelay, isOutOfCredits, isRetryableStatus, parseRetryAfter, retryDelay, sleep } from './retry';
import type { HeaderBag } from './retry';
import type { DecodedStream } from './decodedStream';
import type { OpenedStream } from './streamIterable';
import type { ApiKeySource, AuthHeader, GatewayClientOptions, RequestOptions } from './types/common';

/** Error bodies are read up to this size; the message is all we need from them. */
const MAX_ERROR_BODY = 64 * 1024;
export const USER_AGENT = 'unified-inference-vscode/0.0.1';

export interface HttpCall {
  method: 'GET' | 'POST';
  /** Below /api/v1, e.g. '/chat/completions'. */
  path: string;
  query?: string;
  json?: unknown;
  /** Built afresh per attempt: a FormData body is consumed by sending it. */
  form?: () => FormData;
  accept?: string;
  headers?: Record<string, string>;
  /** The endpoint's policy (wire-conventions): false for research creation, images, speech, transcription. */
  retryable: boolean;
  options?: RequestOptions | undefined;
  /** json(): the most bytes of the answer read (limits.ts); default MAX_JSON_BYTES. */
  maxBytes?: number;
}

export interface HttpResponse {
  status: number;
  headers: HeaderBag;
  /** The body; failures come out as ConnectionError, TimeoutError or AbortError. Closing it early destroys it. */
  body: AsyncIterable<Uint8Array>;
  /** True once a byte of the body has arrived (a stream may be retried only before that). */
  readonly received: boolean;
}

interface Sent {
  response: HttpResponse;
  /** How many retries were spent getting it, so a stream retry continues the same budget. */
  attempt: number;
  /** The key the request carried: errors raised later in its body are redacted of it. */
  key: string;
}

export class Transport {
  private readonly apiBase: string;
  private readonly apiKey: ApiKeySource;
  private readonly authHeader: AuthHeader;
  private readonly timeouts: TimeoutSettings;
  private readonly maxRetries: number;
  private readonly dispatcher: () => Dispatcher | undefined;
  private readonly headers: Record<string, string>;

  constructor(options: GatewayClientOptions) {
    this.apiBase = apiBaseUrl(options.baseUrl);
    this.apiKey = options.apiKey;
    this.authHeader = options.authHeader ?? 'authorization';
    this.timeouts = { timeoutMs: options.timeoutMs, connectTimeoutMs: options.connectTimeoutMs, firstByteTimeoutMs: options.firstByteTimeoutMs, idleTimeoutMs: options.idleTimeoutMs };
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.dispatcher = dispatcherOnDemand(options.dispatcher);
    this.headers = { ...options.headers };
  }

  /** `{root}/api/v1`: the key the stream_options fallback is remembered under. */
  get baseUrl(): string {
    return this.apiBase;
  }

  /** Sends with retries; resolves with a 2xx response, rejects with the mapped error. */
  async send(call: HttpCall, firstAttempt = 0): Promise<Sent> {
    const options = call.options ?? {};
    const signal = options.signal;
    const maxRetries = call.retryable ? Math.max(0, options.maxRetries ?? this.maxRetries) : 0;
    const timeouts = resolveTimeouts(options, this.timeouts);
    const host = new URL(this.apiBase).host;
    // Made before the first attempt: one that cannot be made (an invalid proxy address) fails the
    // call as itself, not as an unreachable gateway tried again.
    const dispatcher = this.dispatcher() ?? getGlobalDispatcher();
    for (let attempt = firstAttempt; ; attempt++) {
      if (signal?.aborted) throw abortError(signal);
      const key = await this.resolveKey();
      // The key may come from an async source (a secret store): the caller can cancel meanwhile.
      if (signal?.aborted) throw abortError(signal);
      const exchange = new Exchange(signal, timeouts, host);
      const mapError = (error: unknown): Error => this.mapFailure(error, signal, key);
      let response: Dispatcher.ResponseData;
      try {
        response = await exchange.settleFirst(request(this.url(call), {
          method: call.method,
          headers: this.requestHeaders(call, options, key),
          body: call.form ? call.form() : call.json === undefined ? null : JSON.stringify(call.json),
          signal: exchange.signal,
          // Watched so the connect timer stops once the socket is ready.
          dispatcher: watchConnect(dispatcher, () => exchange.connected()),
          // Exchange keeps its timeouts precisely; undici's own timers would cut in at their defaults.
          headersTimeout: 0,
          bodyTimeout: 0,
        }), (late) => late.body.destroy());
      } catch (error) {
        exchange.detach();
        const mapped = mapError(error);
        // A connect timeout, like a refused connection, never reached the server: safe to try again.
        const neverSent = mapped instanceof ConnectionError || (mapped instanceof TimeoutError && mapped.phase === 'connect');
        if (neverSent && attempt < maxRetries) {
          await sleep(backoffDelay(attempt), signal);
          continue;
        }
        throw mapped;
      }
      exchange.headersArrived();
      const body = exchange.body(response.body, (error) => this.mapFailure(error, signal, key, true));
      if (response.statusCode < 300) {
        return { response: { status: response.statusCode, headers: response.headers, body, get received() { return exchange.received; } }, attempt, key };
      }
      const error = await this.errorFrom(response, body, signal, key);
      const delay = attempt < maxRetries ? this.retryDelayFor(error, attempt) : undefined;
      if (delay === undefined) throw error;
      await sleep(delay, signal);
    }
  }

  /** A JSON request: the parsed body of the 2xx answer, refused (ResponseTooLargeError) past call.maxBytes. */
  async json(call: HttpCall): Promise<unknown> {
    const { response, key } = await this.send({ accept: 'application/json', ...call });
    const text = await readCappedText(response.body, response.headers, { maxBytes: call.maxBytes ?? MAX_JSON_BYTES, what: `the gateway's answer to ${call.method} ${call.path}`, status: response.status });
    const value = tryParseJson(text);
    if (value !== undefined) return value;
    const contentType = firstHeader(response.headers, 'content-type');
    if (/json/i.test(contentType ?? '') || /^\s*[{[]/.test(text)) throw new GatewayError(`The gateway answered ${call.path} with JSON that could not be read (cut short or malformed)`, { status: response.status });
    // A captive portal's page or a proxy's text says what it is (redacted: it is the server's text).
    throw redactError(unexpectedContent(contentType, text.slice(0, 16 * 1024), response.status), [key]);
  }

  /**
   * Sends a streaming request and puts `parse` (a pure function of the body bytes and its
   * Content-Type, '' when absent: an answer that is not a stream is read for what it is) on its body.
   * The stream is retried, within the same budget as send(), when it broke before any byte of its
   * body arrived.
   */
  async openStream<T>(call: HttpCall, parse: (body: AsyncIterable<Uint8Array>, contentType: string) => DecodedStream<T>, firstAttempt = 0): Promise<OpenedStream<T>> {
    const { response, attempt, key } = await this.send(call, firstAttempt);
    const maxRetries = call.retryable ? Math.max(0, call.options?.maxRetries ?? this.maxRetries) : 0;
    const requestId = responseRequestId(response.headers);
    return {
      items: parse(response.body, firstHeader(response.headers, 'content-type') ?? ''),
      // An error event inside the stream is the server's text too: redacted after it was parsed.
      failure: (error: unknown): unknown => redactError(withResponseInfo(error, response.status, requestId), [key]),
      recover: async (error: unknown): Promise<OpenedStream<T> | undefined> => {
        const retry = !response.received && attempt < maxRetries && error instanceof StreamError && error.interrupted;
        if (!retry) return undefined;
        await sleep(backoffDelay(attempt), call.options?.signal);
        return this.openStream(call, parse, attempt + 1);
      },
    };
  }

  private url(call: HttpCall): string {
    return `${this.apiBase}${call.path}${call.query ? `?${call.query}` : ''}`;
  }

  private requestHeaders(call: HttpCall, options: RequestOptions, key: string): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...this.headers, ...call.headers, ...options.headers };
    headers.accept = call.accept ?? 'application/json';
    if (call.json !== undefined) headers['content-type'] = 'application/json';
    // Set last and lower-case, so a caller's header can never shadow or duplicate the key.
    for (const name of Object.keys(headers)) if (/^(authorization|x-api-key)$/i.test(name)) delete headers[name];
    if (this.authHeader === 'x-api-key') headers['x-api-key'] = key;
    else headers.authorization = `Bearer ${key}`;
    return headers;
  }

  private resolveKey(): Promise<string> {
    return resolveApiKey(this.apiKey);
  }

  private retryDelayFor(error: GatewayError, attempt: number): number | undefined {
    if (error instanceof RateLimitError && error.quotaExhausted) return undefined;
    if (error.status === undefined || !isRetryableStatus(error.status)) return undefined;
    return retryDelay(attempt, error.retryAfterMs);
  }

  private async errorFrom(response: Dispatcher.ResponseData, bodyBytes: AsyncIterable<Uint8Array>, signal: AbortSignal | undefined, key: string): Promise<GatewayError> {
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
      return new RateLimitError(body.message, { ...init, quotaExhausted: status === 402 || isOutOfCredits(body.code, body.type, limitWords(body.message, status, text), retryAfterMs !== undefined) });
    }
    return new GatewayError(body.message, init);
  }

  /**
   * undici and socket failures, as our errors. Messages name the host, never headers or the key.
   * `answered`: the response had started (headers in), so the gateway was reached and the failure
   * is the connection closing mid-body, which must not read as "could not reach".
   */
  private mapFailure(error: unknown, signal: AbortSignal | undefined, key: string, answered = false): Error {
    if (signal?.aborted) return abortError(signal);
    // Our own TimeoutError, as the abort reason of the attempt.
    if (error instanceof GatewayError) return redactError(error, [key]);
    // An error merely *named* AbortError while the caller did not cancel (undici gives that name to
    // some proxy and socket failures) is a failed connection, not a cancellation to stay quiet about.
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    // undici's (or the OS's) own connect timer ran out before ours: the same phase, the same words.
    if (!answered && (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT')) return phaseTimeout('connect', undefined, new URL(this.apiBase).host);
    const detail = error instanceof Error ? redactSecrets(error.message, [key]) : 'unknown failure';
    const host = new URL(this.apiBase).host;
    // The cause (an undici or proxy error) stays for diagnosis, with the key taken out of its text.
    const init: GatewayErrorInit = { cause: redactError(error, [key]) };
    if (typeof code === 'string') init.code = redactSecrets(code, [key]);
    const message = answered ? `The connection to ${host} closed while the answer was being read (${detail})` : `Could not reach the gateway at ${host}: ${detail}`;
    return new ConnectionError(message, init);
  }
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

function firstHeader(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function responseRequestId(headers: HeaderBag): string | undefined {
  return firstHeader(headers, 'x-request-id') ?? firstHeader(headers, 'request-id');
}

/**
 * A StreamError as the caller gets it: the stream decoders are pure (bytes in) and cannot know the
 * response, so its status and request id (what support asks for) are added here.
 */
function withResponseInfo(error: unknown, status: number, requestId: string | undefined): unknown {
  if (!(error instanceof StreamError) || error.requestId !== undefined) return error;
  const init: ConstructorParameters<typeof StreamError>[1] = { status, interrupted: error.interrupted, cause: error.cause };
  if (requestId !== undefined) init.requestId = requestId;
  if (error.code !== undefined) init.code = error.code;
  if (error.type !== undefined) init.type = error.type;
  if (error.param !== undefined) init.param = error.param;
  return new StreamError(error.message, init);
}

/** The whole body (or its first `limit` bytes, then it stops reading) as bytes. */
export async function readBytes(body: AsyncIterable<Uint8Array>, limit = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size >= limit) break;
  }
  // A fresh plain Uint8Array: undici's Buffers may be views into a shared pool.
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk.subarray(0, Math.min(chunk.byteLength, size - offset)), offset);
    offset += chunk.byteLength;
    if (offset >= size) break;
  }
  return bytes;
}

export async function readText(body: AsyncIterable<Uint8Array>, limit?: number): Promise<string> {
  const bytes = await readBytes(body, limit);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
