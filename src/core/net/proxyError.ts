// undici reports a proxy that refused to tunnel (any non-200 answer to CONNECT) as a
// RequestAbortedError, named 'AbortError' like a cancellation, and a 407 to a plain-http request
// as an InvalidArgumentError. Both would read as something else (a cancelled request, a bug), so
// the proxy dispatcher turns them into ProxyError, which keeps the proxy's status code.
import type { Dispatcher } from 'undici';

export class ProxyError extends Error {
  /**
   * The proxy's HTTP status (407: credentials missing or wrong; 403: target not allowed; 502: proxy
   * could not reach it), or undefined when it closed the connection without answering.
   */
  readonly statusCode: number | undefined;
  readonly code = 'UND_ERR_PROXY_STATUS';

  constructor(statusCode: number | undefined, cause?: unknown) {
    super(
      statusCode === undefined
        ? 'The proxy closed the connection without answering'
        : `The proxy answered ${statusCode}${statusCode === 407 ? ' (proxy authentication required)' : ''}`,
      cause === undefined ? undefined : { cause },
    );
    this.name = 'ProxyError';
    this.statusCode = statusCode;
  }
}

/** The ProxyError an undici error stands for, else the error itself. */
function translateProxyError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof ProxyError) return error;
  const code = (error as { code?: unknown }).code;
  const tunnel = code === 'UND_ERR_ABORTED' ? /Proxy response \((\d{3})\) !== 200/.exec(error.message) : null;
  if (tunnel?.[1]) return new ProxyError(Number(tunnel[1]), error);
  if (code === 'UND_ERR_INVALID_ARG' && /Proxy Authentication Required \(407\)/.test(error.message))
    return new ProxyError(407, error);
  return error;
}

/**
 * The error of a CONNECT the proxy closed without answering. undici reports it as a socket error
 * (UND_ERR_SOCKET), which its client takes for a recoverable one and answers by connecting again,
 * forever and deaf to the request's abort signal; any other error ends the request.
 */
export function translateTunnelError(error: unknown): unknown {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' ? new ProxyError(undefined, error) : error;
}

/**
 * The handler with its error callbacks translating proxy errors. Everything else is the handler's
 * own, called on the handler itself (so classes with private fields keep working).
 */
export function withProxyErrors(handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler {
  return new Proxy(handler, {
    get(target, property, receiver): unknown {
      if (property === 'onError' && typeof target.onError === 'function') {
        return (error: Error): void => target.onError?.(translateProxyError(error) as Error);
      }
      if (property === 'onResponseError' && typeof target.onResponseError === 'function') {
        return (controller: Dispatcher.DispatchController, error: Error): void =>
          target.onResponseError?.(controller, translateProxyError(error) as Error);
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
