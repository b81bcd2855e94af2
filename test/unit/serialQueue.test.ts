import * as assert from 'node:assert/strict';
import { SerialQueue } from '../../src/shared/serialQueue';

/** A task that waits until released, and notes when it starts and ends. */
function gate(
  log: string[],
  name: string,
): { task: () => Promise<string>; release: () => void; fail: (error: Error) => void } {
  let release!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  return {
    task: async () => {
      log.push(`${name} start`);
      try {
        await done;
      } finally {
        log.push(`${name} end`);
      }
      return name;
    },
    release: () => release(),
    fail: (error) => fail(error),
  };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SerialQueue', () => {
  it('runs tasks one after another, in the order they were asked for, and answers each its own result', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const first = queue.run(a.task);
    const second = queue.run(b.task);
    await turn();
    assert.deepEqual(log, ['a start'], 'the second waits for the first');
    b.release();
    await turn();
    assert.deepEqual(log, ['a start'], 'even when it could already finish');
    a.release();
    assert.equal(await first, 'a');
    assert.equal(await second, 'b');
    assert.deepEqual(log, ['a start', 'a end', 'b start', 'b end']);
  });

  it('goes on after a failed task; the failure reaches only its own caller', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(() => Promise.reject(new Error('disk full')));
    const next = queue.run(() => Promise.resolve('written'));
    await assert.rejects(failed, /disk full/);
    assert.equal(await next, 'written');
  });

  it('a task that throws before its first await fails alone too', async () => {
    const queue = new SerialQueue();
    const thrown = queue.run(() => {
      throw new Error('bad input');
    });
    await assert.rejects(thrown, /bad input/);
    assert.equal(await queue.run(() => Promise.resolve(1)), 1);
  });

  it('keeps one line per key: a key waits only for its own earlier tasks', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const a1 = gate(log, 'a1');
    const a2 = gate(log, 'a2');
    const b1 = gate(log, 'b1');
    const runs = [queue.runFor('a', a1.task), queue.runFor('a', a2.task), queue.runFor('b', b1.task)];
    await turn();
    assert.deepEqual(log, ['a1 start', 'b1 start'], 'b does not wait for a');
    b1.release();
    a1.release();
    a2.release();
    assert.deepEqual(await Promise.all(runs), ['a1', 'a2', 'b1']);
    assert.ok(log.indexOf('a2 start') > log.indexOf('a1 end'));
  });

  it('the keyed lines and the one line do not wait for each other', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const keyed = gate(log, 'keyed');
    const running = queue.runFor('a', keyed.task);
    assert.equal(await queue.run(() => Promise.resolve('one line')), 'one line');
    keyed.release();
    await running;
  });

  it('idle settles once everything queued so far has settled, and never rejects', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    const failing = queue.runFor('x', a.task);
    let idle = false;
    const waiting = queue.idle('x').then(() => (idle = true));
    await turn();
    assert.equal(idle, false);
    a.fail(new Error('refused'));
    await assert.rejects(failing, /refused/);
    await waiting;
    assert.equal(idle, true);
    await queue.idle('never used');
    await queue.idle();
  });

  it('forgets a key once its line is empty (keys may be as many as conversations)', async () => {
    const queue = new SerialQueue<string>();
    await Promise.all(Array.from({ length: 50 }, (_, i) => queue.runFor(`c${i}`, () => Promise.resolve(i))));
    await turn();
    assert.equal((queue as unknown as { tails: Map<unknown, unknown> }).tails.size, 0);
  });
});
