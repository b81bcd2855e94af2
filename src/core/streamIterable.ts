// The AsyncIterable handed to callers of chat.stream / messages.stream. It opens lazily on the
// first next(), swaps in a new stream when the current one fails and may be retried, and closes
// the current one when the caller stops early (break, return, throw). Items already decoded are
// answered straight from the decoder's queue: one resolved promise per item, which keeps stream
// handling close to the cost of reading the bytes.
import type { DecodedStream } from './decodedStream';

export interface OpenedStream<T> {
  items: DecodedStream<T>;
  /** Called when `items` fails: a stream to continue with (a retry), or undefined to fail with the error. */
  recover(error: unknown): Promise<OpenedStream<T> | undefined>;
}

export function managedStream<T>(open: () => Promise<OpenedStream<T>>): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: (): AsyncIterator<T, undefined> => new ManagedIterator(open) };
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

class ManagedIterator<T> implements AsyncIterator<T, undefined> {
  private current: OpenedStream<T> | undefined;
  private finished = false;

  constructor(private readonly open: () => Promise<OpenedStream<T>>) {}

  next(): Promise<IteratorResult<T, undefined>> {
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

  private async fail(failed: OpenedStream<T>, error: unknown): Promise<IteratorResult<T, undefined>> {
    const replacement = this.finished ? undefined : await failed.recover(error);
    if (replacement === undefined) {
      this.finished = true;
      this.current = undefined;
      throw error;
    }
    this.current = replacement;
    return this.next();
  }
}
