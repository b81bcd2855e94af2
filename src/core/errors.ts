// The error vocabulary of the client. Every failure the client reports is one of these classes (or
// an 'AbortError' when the caller cancelled), so callers can branch on `instanceof` instead of
// parsing messages. Messages never contain the API key: they are built from status codes, server
// error texts (redacted by the transport) and host names only.

export interface GatewayErrorInit {
  status?: number;
  code?: string;
  type?: string;
  retryAfterMs?: number;
  requestId?: string;
  /** `error.param` of an OpenAI-style body: which request field the server objected to. */
  param?: string;
  /** The error response's body text (redacted, at most 64 KiB), e.g. a proxy's plain-text page. */
  body?: string;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly status?: number;
  readonly code?: string;
  readonly type?: string;
  /** How long the server asked us to wait before trying again (from Retry-After), if it said. */
  readonly retryAfterMs?: number;
  readonly requestId?: string;
  readonly param?: string;
  /** The raw error body, kept for a details view: the message follows the wire conventions exactly. */
  readonly body?: string;

  constructor(message: string, init: GatewayErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'GatewayError';
    if (init.status !== undefined) this.status = init.status;
    if (init.code !== undefined) this.code = init.code;
    if (init.type !== undefined) this.type = init.type;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    if (init.param !== undefined) this.param = init.param;
    if (init.body !== undefined) this.body = init.body;
  }
}

/** 401 or 403, or no key configured at all (then no request was sent and there is no status). */
export class AuthenticationError extends GatewayError {
  constructor(message: string, init: GatewayErrorInit = {}) {
    super(message, init);
    this.name = 'AuthenticationError';
  }
}

/** 402 or 429. `quotaExhausted` means out of credits: waiting will not help, so it is never retried. */
export class RateLimitError extends GatewayError {
  readonly quotaExhausted: boolean;

  constructor(message: string, init: GatewayErrorInit & { quotaExhausted?: boolean } = {}) {
    super(message, init);
    this.name = 'RateLimitError';
    this.quotaExhausted = init.quotaExhausted ?? false;
  }
}

/** The gateway could not be reached, or the connection failed before a response arrived. */
export class ConnectionError extends GatewayError {
  constructor(message: string, init: GatewayErrorInit = {}) {
    super(message, init);
    this.name = 'ConnectionError';
  }
}

/** Which wait ran out: opening the connection, the first byte of the answer, or silence mid-answer. */
export type TimeoutPhase = 'connect' | 'firstByte' | 'idle';

/** No connection, no answer, or no more stream data in time; `phase` says which (absent: not known). */
export class TimeoutError extends GatewayError {
  readonly phase?: TimeoutPhase;

  constructor(message: string, init: GatewayErrorInit & { phase?: TimeoutPhase } = {}) {
    super(message, init);
    this.name = 'TimeoutError';
    if (init.phase !== undefined) this.phase = init.phase;
  }
}

/**
 * A 2xx answer that is not an API answer at all: a captive portal's or a proxy's HTML page, plain
 * text. The message names the content type and a short, sanitized snippet (its title).
 */
export class UnexpectedContentError extends GatewayError {
  /** The Content-Type header as it arrived ('' when there was none). */
  readonly contentType: string;

  constructor(message: string, init: GatewayErrorInit & { contentType: string }) {
    super(message, { code: 'unexpected_content', ...init });
    this.name = 'UnexpectedContentError';
    this.contentType = init.contentType;
  }
}

/**
 * A stream failed after it started: an error event from the server (`interrupted: false`), or the
 * stream closed without its end marker (`interrupted: true`). What arrived before stays with the
 * caller (e.g. in its ChatStreamAccumulator).
 */
export class StreamError extends GatewayError {
  readonly interrupted: boolean;

  constructor(message: string, init: GatewayErrorInit & { interrupted?: boolean } = {}) {
    super(message, init);
    this.name = 'StreamError';
    this.interrupted = init.interrupted ?? false;
  }
}

/** The request was rejected by the client before anything was sent. `field` names the culprit. */
export class InvalidRequestError extends GatewayError {
  readonly field: string;

  constructor(field: string, message: string) {
    // The message always names the field, so it reads on its own in a notification.
    super(`Invalid request: ${message.includes(field) ? message : `${field}: ${message}`}`);
    this.name = 'InvalidRequestError';
    this.field = field;
  }
}

/** What a cancelled call rejects with: name 'AbortError' (like fetch), with the signal's reason as cause. */
export function abortError(signal?: AbortSignal): Error {
  const error = new Error(
    'The operation was aborted',
    signal?.reason === undefined ? undefined : { cause: signal.reason },
  );
  error.name = 'AbortError';
  return error;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * An answer larger than the client reads for that endpoint (see limits.ts): it was not read, or
 * not read past the limit, so a runaway body cannot fill the editor's memory.
 */
export class ResponseTooLargeError extends GatewayError {
  /** The most the client reads for this answer, in bytes. */
  readonly limitBytes: number;

  constructor(message: string, init: GatewayErrorInit & { limitBytes: number }) {
    super(message, { code: 'response_too_large', ...init });
    this.name = 'ResponseTooLargeError';
    this.limitBytes = init.limitBytes;
  }
}

/** Why an image the gateway pointed at was not taken (ImageDownloadError.reason). */
export type ImageRefusal =
  'address' | 'scheme' | 'credentials' | 'redirects' | 'type' | 'status' | 'connection' | 'missing';

/**
 * An image could not be downloaded or was refused (an address it may not go to, too many
 * redirects, not an image, too large...). Messages name the host, never the whole URL: signed
 * image links carry tokens in their query.
 */
export class ImageDownloadError extends GatewayError {
  readonly reason: ImageRefusal;

  constructor(reason: ImageRefusal, message: string, init: GatewayErrorInit = {}) {
    super(message, { code: `image_${reason}`, ...init });
    this.name = 'ImageDownloadError';
    this.reason = reason;
  }
}
