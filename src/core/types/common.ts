import type { Dispatcher } from 'undici';
import type { AuthHeader } from '../../shared/settings';

/** The key itself, or a function asked before every request (so a changed key applies at once). */
export type ApiKeySource = string | (() => Promise<string | undefined>);

export interface GatewayClientOptions {
  /** The gateway address; `/api/v1` and a trailing slash are optional. */
  baseUrl: string;
  apiKey: ApiKeySource;
  /** 'authorization' (default) sends `Authorization: Bearer <key>`, 'x-api-key' sends `x-api-key: <key>`. */
  authHeader?: AuthHeader;
  /**
   * The older single bound: when set, it is the first-byte and the silence timeout both (unless
   * those are set themselves). Unset by default.
   */
  timeoutMs?: number;
  /** Opening the connection (TCP, TLS, a proxy). Default 15 s. */
  connectTimeoutMs?: number;
  /** From sending the request to the first byte of the answer's body (a reasoning model may think long). Default 5 min. */
  firstByteTimeoutMs?: number;
  /** Silence between chunks once the answer flows. Default 2 min. */
  idleTimeoutMs?: number;
  /** Automatic retries of retryable failures on retryable endpoints. Default 2. */
  maxRetries?: number;
  /**
   * An undici Dispatcher (e.g. a ProxyAgent), or a function that makes it when the first request
   * goes out (the extension passes one, so that undici loads on first use, not while it activates);
   * the global dispatcher when absent.
   */
  dispatcher?: DispatcherSource;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Other values a consumer of the answers must never hand on (keys used earlier in the session,
   * an environment key): redactionSecrets() adds them to the key requests carry.
   */
  knownSecrets?: () => readonly string[];
}

/** Per-call options; each overrides the client's value for that call. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** First-byte and silence timeout both, for this call (see GatewayClientOptions). */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  firstByteTimeoutMs?: number;
  idleTimeoutMs?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
}

/** A dispatcher, or the function that makes it on first use (see GatewayClientOptions.dispatcher). */
export type DispatcherSource = Dispatcher | (() => Dispatcher);
