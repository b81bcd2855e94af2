// Drives a synchronous stream decoder (bytes in, items out) from an AsyncIterable<Uint8Array> and
// serves the items as an AsyncIterator. Items decoded from one network chunk are queued and handed
// out with one resolved promise each: no generator layers, no per-item closures. Pure: the source
// can be a socket body or a recorded stream split anywhere.

/** A push decoder for one stream protocol (chat completions, messages). */
export interface StreamDecoder<T> {
  /** Decodes a network chunk, appending finished items to `out`. An error ends the stream after the items before it. */
  push(bytes: Uint8Array, out: T[]): Error | undefined;
  /** The source ended: appends the last items; an error when the stream was incomplete. */
  end(out: T[]): Error | undefined;
  /** The source failed: the error to end with, or undefined when what arrived is complete anyway. */
  fail(error: unknown): Error | undefined;
  /** The end marker arrived: nothing more needs to be read. */
  readonly done: boolean;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

export class DecodedStream<T> implements AsyncIterableIterator<T> {
  private queue: T[] = [];
  private head = 0;
  private pendingError: Error | undefined;
  private finished = false;
  private source: AsyncIterator<Uint8Array> | undefined;
  private sourceOpen = false;

  constructor(
    private readonly bytes: AsyncIterable<Uint8Array>,
    private readonly decoder: StreamDecoder<T>,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** An item already decoded, if any: lets a wrapper answer without another promise hop. */
  takeBuffered(): IteratorYieldResult<T> | undefined {
    if (this.head < this.queue.length) return { value: this.queue[this.head++] as T, done: false };
    return undefined;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.head < this.queue.length) return Promise.resolve({ value: this.queue[this.head++] as T, done: false });
    return this.pull();
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.finished = true;
    this.queue = [];
    this.head = 0;
    await this.closeSource();
    return DONE;
  }

  private async pull(): Promise<IteratorResult<T, undefined>> {
    for (;;) {
      this.queue.length = 0;
      this.head = 0;
      if (this.pendingError !== undefined) {
        const error = this.pendingError;
        this.pendingError = undefined;
        this.finished = true;
        await this.closeSource();
        throw error;
      }
      if (this.finished || this.decoder.done) {
        this.finished = true;
        await this.closeSource();
        return DONE;
      }
      if (this.source === undefined) {
        this.source = this.bytes[Symbol.asyncIterator]();
        this.sourceOpen = true;
      }
      let step: IteratorResult<Uint8Array>;
      try {
        step = await this.source.next();
      } catch (error) {
        this.sourceOpen = false;
        this.finished = true;
        this.pendingError = this.decoder.fail(error);
        continue;
      }
      if (step.done === true) {
        this.sourceOpen = false;
        this.finished = true;
        this.pendingError = this.decoder.end(this.queue);
      } else {
        this.pendingError = this.decoder.push(step.value, this.queue);
      }
      if (this.head < this.queue.length) return { value: this.queue[this.head++] as T, done: false };
    }
  }

  private async closeSource(): Promise<void> {
    if (!this.sourceOpen) return;
    this.sourceOpen = false;
    await this.source?.return?.();
  }
}
