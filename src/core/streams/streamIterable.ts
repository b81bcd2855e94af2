// The AsyncIterable handed to callers of chat.stream / messages.stream. It opens lazily on the
// first next(), swaps in a new stream when the current one fails and may be retried, and closes
// the current one when the caller stops early (break, return, throw). Items already decoded are
// answered straight from the decoder's queue: one resolved promise per item, which keeps stream
// handling close to the cost of reading the bytes. The caller's signal is checked on every next(),
// buffered or not: items decoded before an abort must not keep the loop going (the decoder may
// even have seen the end marker already, which would end the loop as if nothing happened).
import type { DecodedStream } from './decodedStream';
import { abortError } from '../errors';

export interface OpenedStream<T> {
  items: DecodedStream<T>;
  /** Called when `items` fails: a stream to continue with (a retry), or undefined to fail with the error. */
  recover(error: unknown): Promise<OpenedStream<T> | undefined>;
  /** The error the caller gets when `items` fails for good: the transport adds what it knows of the response. */
  failure?(error: unknown): unknown;
}

export function managedStream<T>(open: () => Promise<OpenedStream<T>>, signal?: AbortSignal): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: (): AsyncIterator<T, undefined> => new ManagedIterator(open, signal) };
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

class ManagedIterator<T> implements AsyncIterator<T, undefined> {
  private current: OpenedStream<T> | undefined;
  private finished = false;

  constructor(
    private readonly open: () => Promise<OpenedStream<T>>,
    private readonly signal: AbortSignal | undefined,
  ) {}

  next(): Promise<IteratorResult<T, undefined>> {
    // One property read per item on the hot path.
    if (this.signal?.aborted === true && !this.finished) return this.aborted(this.signal);
    const current = this.current;
    if (current !== undefined) {
      const buffered = current.items.takeBuffered();
      if (buffered !== undefined) return Promise.resolve(buffered);
      return current.items.next().then(undefined, (error: unknown) => this.fail(current, error));
    }
    if (this.finished) return Promise.resolve(DONE);
    return this.open().then(
      (opened) => {
        if (this.finished) {
          // return() was called while opening: close what we opened.
          return opened.items.return().then(() => DONE);
        }
        this.current = opened;
        return this.next();
      },
      (error: unknown) => {
        this.finished = true;
        throw error;
      },
    );
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.finished = true;
    const current = this.current;
    this.current = undefined;
    if (current !== undefined) await current.items.return();
    return DONE;
  }

  /** Closes the current stream (so the socket closes) and rejects like any cancelled call. */
  private async aborted(signal: AbortSignal): Promise<IteratorResult<T, undefined>> {
    await this.return();
    throw abortError(signal);
  }

  private async fail(failed: OpenedStream<T>, error: unknown): Promise<IteratorResult<T, undefined>> {
    const replacement = this.finished ? undefined : await failed.recover(error);
    if (replacement === undefined) {
      this.finished = true;
      this.current = undefined;
      throw failed.failure === undefined ? error : failed.failure(error);
    }
    this.current = replacement;
    return this.next();
  }
}
