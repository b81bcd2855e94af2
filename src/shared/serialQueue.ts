// Work that must not overlap runs one task after another, in the order it was asked for: the writes
// of one file, the saves of one conversation, one index build at a time. A failed task does not
// stop the next one (its own caller sees the failure). Each key has its own line; a key with
// nothing queued holds no memory, so keys may be as many as conversations.

const ONE_LINE = Symbol('one line');

export class SerialQueue<K = string> {
  private readonly tails = new Map<K | typeof ONE_LINE, Promise<void>>();

  /** Runs `task` once every task run before it has settled; answers what `task` answers. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return this.enqueue(ONE_LINE, task);
  }

  /** Runs `task` once every earlier task of the same key has settled (other keys do not wait). */
  runFor<T>(key: K, task: () => Promise<T>): Promise<T> {
    return this.enqueue(key, task);
  }

  /** Settles once every task queued so far (of `key`, when given) has settled; never rejects. */
  idle(...key: [K] | []): Promise<void> {
    return this.tails.get(key.length ? key[0] : ONE_LINE) ?? Promise.resolve();
  }

  private enqueue<T>(key: K | typeof ONE_LINE, task: () => Promise<T>): Promise<T> {
    const run = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return run;
  }
}
