/** Which family of error bodies an endpoint speaks: OpenAI-style for most, Anthropic-style for /messages. */
export type ErrorShape = 'openai' | 'anthropic';

/**
 * A response the gateway decides to send instead of the normal one. Routes throw it; the router
 * turns it into a body in the endpoint's own error shape, so handlers never write error bodies.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** A body sent exactly as it is (an object as JSON, a string as text), instead of the endpoint's error shape. */
  rawBody?: unknown;
}

export function badRequest(param: string, message: string, code = 'invalid_value'): HttpError {
  return new HttpError(400, message, 'invalid_request_error', code, param);
}

export function notFound(message: string, code = 'not_found'): HttpError {
  return new HttpError(404, message, 'not_found_error', code);
}

/** The Anthropic error type names for a status, so /messages errors look like that API's. */
function anthropicType(status: number, type: string): string {
  if (type === 'insufficient_quota') return 'rate_limit_error';
  if (status === 400 || status === 413) return status === 413 ? 'request_too_large' : 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 503 || status === 529) return 'overloaded_error';
  return 'api_error';
}

/** The JSON body for an error in the endpoint's shape (401s are special-cased by the router: the spec fixes `{error: string}`). */
export function errorBody(shape: ErrorShape, error: HttpError): unknown {
  if (shape === 'anthropic') {
    // `code` is not part of Anthropic's shape, but carrying it keeps insufficient_quota visible to clients that look for it.
    return {
      type: 'error',
      error: { type: anthropicType(error.status, error.type), message: error.message, code: error.code },
    };
  }
  return { error: { message: error.message, type: error.type, code: error.code, param: error.param ?? null } };
}

/** A default type/code for statuses produced by fault injection. */
export function errorForStatus(status: number, message: string, code?: string): HttpError {
  const type =
    code && /quota|credit|insufficient/i.test(code)
      ? 'insufficient_quota'
      : status === 429
        ? 'rate_limit_error'
        : status === 401
          ? 'authentication_error'
          : status === 403
            ? 'permission_error'
            : status === 404
              ? 'not_found_error'
              : status < 500
                ? 'invalid_request_error'
                : status === 503
                  ? 'service_unavailable'
                  : 'server_error';
  return new HttpError(status, message, type, code ?? (status === 429 ? 'rate_limit_exceeded' : 'simulated_fault'));
}
