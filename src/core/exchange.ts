// One attempt of one request: its own AbortController (fed by the caller's signal and by our
// timers), the timer for response headers, and the body as an AsyncIterable whose silence is
// timed. undici's own headersTimeout/bodyTimeout run on a coarse clock (about a second of slack),
// so `timeoutMs` is kept here with plain timers instead.
import type { Dispatcher } from 'undici';
import { clampDelay } from './delay';
import { TimeoutError } from './errors';

export class Exchange {
  readonly controller = new AbortController();
  private headersTimer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort = (): void => this.controller.abort(this.caller?.reason);
  private detached = false;
  /** True once a byte of the body has arrived. */
  received = false;

  constructor(
    private readonly caller: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    // An already aborted signal never fires 'abort' again: abort this attempt at once instead.
    if (caller?.aborted === true) this.controller.abort(caller.reason);
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    if (this.timed) {
      // Clamped: a timeout past 24.8 days would otherwise fire at once.
      this.headersTimer = setTimeout(() => this.controller.abort(new TimeoutError(`The gateway did not answer within ${timeoutMs} ms`, { code: 'timeout' })), clampDelay(timeoutMs));
    }
  }

  private get timed(): boolean {
    return this.timeoutMs > 0 && Number.isFinite(this.timeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Headers are in: the headers timer stops, the body's silence timer takes over. */
  headersArrived(): void {
    clearTimeout(this.headersTimer);
  }

  /** Done with this attempt (body read, failed, or closed): let go of the caller's signal. */
  detach(): void {
    if (this.detached) return;
    this.detached = true;
    clearTimeout(this.headersTimer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  /**
   * The body as an iterable: failures go through `mapError`; a wait for the next chunk longer than
   * timeoutMs aborts the attempt with a TimeoutError; closing it early destroys the body, which
   * closes the connection at once.
   */
  body(body: Dispatcher.ResponseData['body'], mapError: (error: unknown) => Error): AsyncIterable<Uint8Array> {
    const exchange = this;
    // Armed only while a read is pending and cleared when it settles, so an iterator abandoned
    // without return() leaves no timer behind. Unref'd: while a read is pending the socket keeps
    // the process alive anyway; the timer alone must not.
    let timer: NodeJS.Timeout | undefined;
    const onSilence = (): void => {
      exchange.controller.abort(new TimeoutError(`The gateway sent nothing for ${exchange.timeoutMs} ms`, { code: 'timeout' }));
    };
    const settle = (): void => {
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
    };
    const end = (): void => {
      settle();
      exchange.detach();
    };
    return {
      [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
        const inner = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
        return {
          next(): Promise<IteratorResult<Uint8Array>> {
            // A new timer per network chunk (not per event): cheap next to reading the chunk.
            if (exchange.timed && timer === undefined) timer = setTimeout(onSilence, clampDelay(exchange.timeoutMs)).unref();
            return inner.next().then(
              (step) => {
                settle();
                if (step.done === true) end();
                else if (step.value.byteLength > 0) exchange.received = true;
                return step;
              },
              (error: unknown) => {
                end();
                throw mapError(error);
              },
            );
          },
          async return(): Promise<IteratorResult<Uint8Array>> {
            end();
            body.destroy();
            return { done: true, value: undefined };
          },
        };
      },
    };
  }
}
