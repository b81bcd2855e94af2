// Tells when a request's connection is ready (undici calls a handler's onConnect as the request is
// written to a connected socket, after TLS and any proxy tunnel), so the connect timeout can stop
// there and the first-byte timeout alone runs on. One small wrapper per request; the dispatcher
// (its pools, its sockets) is shared as before.
import type { Dispatcher } from 'undici';

type Handler = Dispatcher.DispatchHandler;

/** Forwards every callback of the handler request() made; onConnect also reports the connection. */
class ConnectWatch implements Handler {
  constructor(
    private readonly inner: Handler,
    private readonly onConnected: () => void,
  ) {}

  onConnect(...args: Parameters<NonNullable<Handler['onConnect']>>): void {
    this.onConnected();
    this.inner.onConnect?.(...args);
  }
  onError(err: Error): void {
    this.inner.onError?.(err);
  }
  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: import('node:stream').Duplex): void {
    this.inner.onUpgrade?.(statusCode, headers, socket);
  }
  onResponseStarted(): void {
    this.inner.onResponseStarted?.();
  }
  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    return this.inner.onHeaders?.(statusCode, headers, resume, statusText) ?? true;
  }
  onData(chunk: Buffer): boolean {
    return this.inner.onData?.(chunk) ?? true;
  }
  onComplete(trailers: string[] | null): void {
    this.inner.onComplete?.(trailers);
  }
  onBodySent(chunkSize: number, totalBytesSent: number): void {
    this.inner.onBodySent?.(chunkSize, totalBytesSent);
  }
}

export function watchConnect(dispatcher: Dispatcher, onConnected: () => void): Dispatcher {
  return dispatcher.compose(
    (dispatch) => (options, handler) => dispatch(options, new ConnectWatch(handler, onConnected)),
  );
}
