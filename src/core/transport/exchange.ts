// One attempt of one request: its own AbortController (fed by the caller's signal and by our
// timers), and the three timed waits (timeouts.ts): the connection (until the socket is ready),
// the first byte of the answer (from the start until a byte of the body, headers or not: an SSE
// gateway sends its headers at once and may then think for minutes), and silence between chunks
// once the body flows. undici's own headersTimeout/bodyTimeout run on a coarse clock (about a
// second of slack), so they are kept here with plain timers instead.
import type { Dispatcher } from 'undici';
import { clampDelay } from './delay';
import { phaseTimeout } from './timeouts';
import type { PhaseTimeouts } from './timeouts';

export class Exchange {
  readonly controller = new AbortController();
  private connectTimer: NodeJS.Timeout | undefined;
  private firstByteTimer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort = (): void => this.controller.abort(this.caller?.reason);
  private detached = false;
  /** True once a byte of the body has arrived. */
  received = false;

  constructor(
    private readonly caller: AbortSignal | undefined,
    private readonly timeouts: PhaseTimeouts,
    private readonly host: string,
  ) {
    // An already aborted signal never fires 'abort' again: abort this attempt at once instead.
    if (caller?.aborted === true) this.controller.abort(caller.reason);
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.connectTimer = this.arm('connect', timeouts.connectMs);
    this.firstByteTimer = this.arm('firstByte', timeouts.firstByteMs);
  }

  /**
   * The request's promise, or the abort (a timer, the caller) if that comes first. undici only
   * acts on an abort once the connection is open, so a connect that hangs would otherwise hold
   * the caller until the dispatcher's own connect timeout. A response that arrives after the
   * abort won is handed to `discard` (to close it).
   */
  settleFirst<T>(pending: Promise<T>, discard: (late: T) => void): Promise<T> {
    const signal = this.controller.signal;
    return new Promise<T>((resolve, reject) => {
      let lost = false;
      const onAbort = (): void => {
        lost = true;
        reject(signal.reason);
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          if (lost) discard(value);
          else resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  /** A timer that aborts the attempt with that phase's TimeoutError; none for 0, negative or infinite. */
  private arm(phase: 'connect' | 'firstByte', ms: number): NodeJS.Timeout | undefined {
    if (!timed(ms)) return undefined;
    // Clamped: a timeout past 24.8 days would otherwise fire at once.
    return setTimeout(() => this.controller.abort(phaseTimeout(phase, ms, this.host)), clampDelay(ms));
  }

  /** The connection is open (the request is being written): the connect timer stops. */
  connected(): void {
    clearTimeout(this.connectTimer);
  }

  /** A byte of the body arrived (or the body ended): the silence timer takes over. */
  private firstByte(): void {
    clearTimeout(this.firstByteTimer);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Headers are in: the connection surely is; the first-byte wait goes on until the body starts. */
  headersArrived(): void {
    this.connected();
    // Unref'd from now: a body the caller never reads must not keep the process alive for minutes.
    this.firstByteTimer?.unref();
  }

  /** Done with this attempt (body read, failed, or closed): let go of the caller's signal. */
  detach(): void {
    if (this.detached) return;
    this.detached = true;
    clearTimeout(this.connectTimer);
    clearTimeout(this.firstByteTimer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  /**
   * The body as an iterable: failures go through `mapError`; before its first byte the first-byte
   * timer runs, after it a wait for the next chunk longer than the silence timeout aborts the
   * attempt with a TimeoutError; closing it early destroys the body, which closes the connection.
   */
  body(body: Dispatcher.ResponseData['body'], mapError: (error: unknown) => Error): AsyncIterable<Uint8Array> {
    // The iterator's methods below have a `this` of their own.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const exchange = this;
    // Armed only while a read is pending and cleared when it settles, so an iterator abandoned
    // without return() leaves no timer behind. Unref'd: while a read is pending the socket keeps
    // the process alive anyway; the timer alone must not.
    let timer: NodeJS.Timeout | undefined;
    const idleMs = exchange.timeouts.idleMs;
    const onSilence = (): void => {
      exchange.controller.abort(phaseTimeout('idle', idleMs, exchange.host));
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
            if (exchange.received && timed(idleMs) && timer === undefined)
              timer = setTimeout(onSilence, clampDelay(idleMs)).unref();
            return inner.next().then(
              (step) => {
                settle();
                if (step.done === true) end();
                else if (step.value.byteLength > 0 && !exchange.received) {
                  exchange.received = true;
                  exchange.firstByte();
                }
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

function timed(ms: number): boolean {
  return ms > 0 && Number.isFinite(ms);
}
