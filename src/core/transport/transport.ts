// The transport: one place that sends requests with undici, attaches the key, retries what may be
// retried, turns failures into the error classes, and hands bodies on as AsyncIterable<Uint8Array>.
import { getGlobalDispatcher, request } from 'undici';
import type { Dispatcher, FormData } from 'undici';
import { unexpectedContent } from '../answers/unexpectedContent';
import { ConnectionError, GatewayError, RateLimitError, StreamError, TimeoutError, abortError } from '../errors';
import { MAX_JSON_BYTES } from '../limits';
import { watchConnect } from '../net/connectWatch';
import { dispatcherOnDemand } from '../net/dispatcherOnDemand';
import { tryParseJson } from '../parse/json';
import { redactError } from '../secrets/redact';
import type { DecodedStream } from '../streams/decodedStream';
import type { OpenedStream } from '../streams/streamIterable';
import type { AuthHeader } from '../../shared/settings';
import type { ApiKeySource, GatewayClientOptions, RequestOptions } from '../types/common';
import { errorOfAnswer, errorOfFailure } from './answerErrors';
import { resolveApiKey } from './apiKey';
import { apiBaseUrl } from './baseUrl';
import { readCappedText } from './cappedBody';
import { Exchange } from './exchange';
import { firstHeader, responseRequestId, withResponseInfo } from './responseInfo';
import { DEFAULT_MAX_RETRIES, backoffDelay, isRetryableStatus, retryDelay, sleep } from './retry';
import type { HeaderBag } from './retry';
import { resolveTimeouts } from './timeouts';
import type { TimeoutSettings } from './timeouts';

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

interface HttpResponse {
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
    this.timeouts = {
      timeoutMs: options.timeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      firstByteTimeoutMs: options.firstByteTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs,
    };
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
      const mapError = (error: unknown): Error => errorOfFailure(error, signal, key, this.apiBase);
      let response: Dispatcher.ResponseData;
      try {
        response = await exchange.settleFirst(
          request(this.url(call), {
            method: call.method,
            headers: this.requestHeaders(call, options, key),
            body: call.form ? call.form() : call.json === undefined ? null : JSON.stringify(call.json),
            signal: exchange.signal,
            // Watched so the connect timer stops once the socket is ready.
            dispatcher: watchConnect(dispatcher, () => exchange.connected()),
            // Exchange keeps its timeouts precisely; undici's own timers would cut in at their defaults.
            headersTimeout: 0,
            bodyTimeout: 0,
          }),
          (late) => late.body.destroy(),
        );
      } catch (error) {
        exchange.detach();
        const mapped = mapError(error);
        // A connect timeout, like a refused connection, never reached the server: safe to try again.
        const neverSent =
          mapped instanceof ConnectionError || (mapped instanceof TimeoutError && mapped.phase === 'connect');
        if (neverSent && attempt < maxRetries) {
          await sleep(backoffDelay(attempt), signal);
          continue;
        }
        throw mapped;
      }
      exchange.headersArrived();
      const body = exchange.body(response.body, (error) => errorOfFailure(error, signal, key, this.apiBase, true));
      if (response.statusCode < 300) {
        return {
          response: {
            status: response.statusCode,
            headers: response.headers,
            body,
            get received() {
              return exchange.received;
            },
          },
          attempt,
          key,
        };
      }
      const error = await errorOfAnswer(response, body, signal, key);
      const delay = attempt < maxRetries ? this.retryDelayFor(error, attempt) : undefined;
      if (delay === undefined) throw error;
      await sleep(delay, signal);
    }
  }

  /** A JSON request: the parsed body of the 2xx answer, refused (ResponseTooLargeError) past call.maxBytes. */
  async json(call: HttpCall): Promise<unknown> {
    const { response, key } = await this.send({ accept: 'application/json', ...call });
    const text = await readCappedText(response.body, response.headers, {
      maxBytes: call.maxBytes ?? MAX_JSON_BYTES,
      what: `the gateway's answer to ${call.method} ${call.path}`,
      status: response.status,
    });
    const value = tryParseJson(text);
    if (value !== undefined) return value;
    const contentType = firstHeader(response.headers, 'content-type');
    if (/json/i.test(contentType ?? '') || /^\s*[{[]/.test(text))
      throw new GatewayError(
        `The gateway answered ${call.path} with JSON that could not be read (cut short or malformed)`,
        { status: response.status },
      );
    // A captive portal's page or a proxy's text says what it is (redacted: it is the server's text).
    throw redactError(unexpectedContent(contentType, text.slice(0, 16 * 1024), response.status), [key]);
  }

  /**
   * Sends a streaming request and puts `parse` (a pure function of the body bytes and its
   * Content-Type, '' when absent: an answer that is not a stream is read for what it is) on its body.
   * The stream is retried, within the same budget as send(), when it broke before any byte of its
   * body arrived.
   */
  async openStream<T>(
    call: HttpCall,
    parse: (body: AsyncIterable<Uint8Array>, contentType: string) => DecodedStream<T>,
    firstAttempt = 0,
  ): Promise<OpenedStream<T>> {
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
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      ...this.headers,
      ...call.headers,
      ...options.headers,
    };
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
}
