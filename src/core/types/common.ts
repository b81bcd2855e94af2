import type { Dispatcher } from 'undici';

/** The key itself, or a function asked before every request (so a changed key applies at once). */
export type ApiKeySource = string | (() => Promise<string | undefined>);

export type AuthHeader = 'authorization' | 'x-api-key';

export interface GatewayClientOptions {
  /** The gateway address; `/api/v1` and a trailing slash are optional. */
  baseUrl: string;
  apiKey: ApiKeySource;
  /** 'authorization' (default) sends `Authorization: Bearer <key>`, 'x-api-key' sends `x-api-key: <key>`. */
  authHeader?: AuthHeader;
  /** Bounds the wait for response headers and any silence in a response body. Default 10 minutes. */
  timeoutMs?: number;
  /** Automatic retries of retryable failures on retryable endpoints. Default 2. */
  maxRetries?: number;
  /** An undici Dispatcher (e.g. a ProxyAgent); the global dispatcher when absent. */
  dispatcher?: Dispatcher;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** Per-call options; each overrides the client's value for that call. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
}
