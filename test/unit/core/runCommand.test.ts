// run_command's process handling for real on this machine: what a command started is gone after
// a stop, a timeout or its own end, also what left the process group (setsid) or cleared its
// environment, and the /proc parsing behind it. Every wait is on state (a pid file, a process).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  descendantsOf,
  environHas,
  groupMember,
  parseProcStat,
  ProcessTree,
  readProcess,
  type ProcessEntry,
} from '../../../src/core/commands/processTree';
import { runCommand, type CommandRunOptions, type CommandRunResult } from '../../../src/core/commands/runCommand';

const linux = process.platform === 'linux';

/** Whether `pid` still runs (a zombie waiting for its parent counts as gone). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!linux) return true;
  const entry = readProcess(pid);
  return entry !== undefined && entry.state !== 'Z';
}

async function until<T>(read: () => T, accept: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = read();
    if (accept(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const pidIn = (file: string): number | undefined => {
  const text = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  return /^\d+$/.test(text) ? Number(text) : undefined;
};

/** A time limit no other timer of runCommand uses: the one holdingTimeout holds. */
const HELD_TIMEOUT_MS = 987_654;

/**
 * Calls `start` (which must call runCommand with `timeoutMs`) with that one timer held by the test:
 * it fires when the test calls `expire`. runCommand sets it synchronously, so global setTimeout is
 * replaced only during the call; every other delay goes to the real one.
 */
function holdingTimeout<T>(timeoutMs: number, start: () => T): { started: T; expire: () => void } {
  const realSetTimeout = globalThis.setTimeout;
  const held: { fire?: () => void } = {};
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    if (ms !== timeoutMs) return realSetTimeout(callback, ms, ...args);
    held.fire = () => callback(...args);
    // A real handle for runCommand to clear; it never fires by itself.
    return realSetTimeout(() => undefined, 2 ** 31 - 1).unref();
  }) as typeof setTimeout;
  let started: T;
  try {
    started = start();
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  const { fire } = held;
  if (!fire) throw new Error(`runCommand set no ${timeoutMs} ms timer`);
  return { started, expire: fire };
}

describe('core/commands: /proc parsing and the descendant tree', () => {
  it('reads pid, parent, state and start time, a name with spaces and parentheses included', () => {
    const line = '4242 (we ird) (x)) S 4200 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1 2 3';
    assert.deepEqual(parseProcStat(line), {
      pid: 4242,
      ppid: 4200,
      pgrp: 4242,
      name: 'we ird) (x)',
      state: 'S',
      startTime: '987654',
    });
    assert.equal(parseProcStat('garbage'), undefined);
  });

  it('finds every process below the roots by parent pid, and nothing else', () => {
    const e = (pid: number, ppid: number): ProcessEntry => ({
      pid,
      ppid,
      pgrp: 1,
      name: 'sh',
      startTime: '1',
      state: 'S',
    });
    const table = [e(1, 0), e(10, 1), e(11, 10), e(12, 11), e(13, 12), e(20, 1), e(21, 20)];
    assert.deepEqual(
      descendantsOf([10], table)
        .map((p) => p.pid)
        .sort(),
      [11, 12, 13],
    );
    assert.deepEqual(
      descendantsOf([12, 20], table)
        .map((p) => p.pid)
        .sort(),
      [13, 21],
    );
  });

  it("takes a group id for the command's only while a verified process of it is still in that group", () => {
    const p = (pid: number, pgrp: number, startTime = '100', state = 'T'): ProcessEntry => ({
      pid,
      ppid: 1,
      pgrp,
      name: 'sleep',
      startTime,
      state,
    });
    const stopped = [p(11, 10), p(12, 10)];
    const now =
      (...table: ProcessEntry[]) =>
      (pid: number) =>
        table.find((entry) => entry.pid === pid);
    assert.equal(groupMember(10, stopped, now(p(11, 10), p(12, 10)))?.pid, 11);
    assert.equal(groupMember(10, stopped, now(p(12, 10)))?.pid, 12, 'one member left is enough');
    assert.equal(groupMember(10, stopped, now()), undefined, 'all gone: the id may be reused');
    assert.equal(
      groupMember(10, stopped, now(p(11, 10, '900'), p(12, 10, '901'))),
      undefined,
      'pids reused by other processes',
    );
    assert.equal(
      groupMember(10, stopped, now(p(11, 10, '100', 'Z'), p(12, 12))),
      undefined,
      'a zombie, and one that left the group (setsid)',
    );
  });

  it("does not signal the group once none of the command is in it: after the shell's end its id may be another's", async () => {
    // A /proc of its own, with pids above any pid_max (2^22): a signal the tree sends reaches nobody.
    const proc = mkdtempSync(join(tmpdir(), 'ui-proc-'));
    const shell = 5_000_001;
    const put = (pid: number, ppid: number, pgrp: number, start: number): void => {
      mkdirSync(join(proc, String(pid)), { recursive: true });
      writeFileSync(
        join(proc, String(pid), 'stat'),
        `${pid} (sh) S ${ppid} ${pgrp} ${pgrp} 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 ${start} 1 2 3`,
      );
    };
    try {
      put(shell, 1, shell, 100);
      put(shell + 1, shell, shell, 101);
      const tree = new ProcessTree(shell, { name: 'RUN', value: 'x' }, proc);
      await tree.scan();
      assert.deepEqual(
        tree.tracked.map((entry) => entry.pid),
        [shell + 1],
      );
      let groupSignals = 0;
      // Still in the group: the group is signalled.
      await tree.killAll(() => groupSignals++);
      assert.equal(groupSignals, 1);
      // The command ended; an unrelated process got the shell's pid and leads a group of that id.
      rmSync(join(proc, String(shell)), { recursive: true });
      rmSync(join(proc, String(shell + 1)), { recursive: true });
      put(shell, 1, shell, 500);
      put(shell + 2, 1, shell, 501);
      await tree.killAll(() => groupSignals++);
      assert.equal(groupSignals, 1, 'the reused group id is not signalled');
    } finally {
      rmSync(proc, { recursive: true, force: true });
    }
  });

  it('matches the marker only as a whole NUL-separated entry', () => {
    const block = Buffer.from('A=1\0RUN=abc\0B=RUN=abcd\0');
    assert.equal(environHas(block, 'RUN', 'abc'), true);
    assert.equal(environHas(block, 'RUN', 'ab'), false);
    assert.equal(environHas(Buffer.from('XRUN=abc\0'), 'RUN', 'abc'), false);
    assert.equal(environHas(Buffer.from('RUN=abc'), 'RUN', 'abc'), true);
  });
});

(linux ? describe : describe.skip)('core/commands: run_command ends everything it started (Linux)', function () {
  this.timeout(60_000);
  let dir: string;
  const started: number[] = [];
  /** Every run's stop: a test that fails half way leaves no command running after it. */
  const runs: Array<{ stop: AbortController; done: Promise<unknown> }> = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ui-run-'));
  });
  afterEach(async () => {
    for (const { stop, done } of runs.splice(0)) {
      stop.abort();
      await done.catch(() => undefined);
    }
    for (const pid of started.splice(0)) if (running(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  function run(
    command: string,
    signal: AbortSignal,
    extra: Partial<CommandRunOptions> = {},
  ): Promise<CommandRunResult> {
    const stop = new AbortController();
    const done = runCommand({
      command,
      cwd: dir,
      platform: 'posix',
      baseEnv: process.env,
      removed: [],
      timeoutMs: 60_000,
      maxOutputBytes: 4096,
      signal: AbortSignal.any([signal, stop.signal]),
      ...extra,
    });
    runs.push({ stop, done });
    return done;
  }

  /** Waits until the kernel has ended `pid` (a SIGKILL is sent; its end is not instant). */
  const gone = (pid: number, what: string): Promise<unknown> =>
    until(
      () => running(pid),
      (alive) => !alive,
      what,
    );

  /** Waits for the command to write its grandchild's pid, and for that process to be `sleep` (setsid and env have run). */
  async function grandchild(file: string): Promise<number> {
    const isSleep = (pid: number | undefined): boolean =>
      pid !== undefined && running(pid) && readProcess(pid)?.name === 'sleep';
    const pid = await until(() => pidIn(file), isSleep, 'the grandchild to start');
    started.push(pid as number);
    return pid as number;
  }

  it('a stop ends a grandchild that left the process group (setsid)', async () => {
    const file = join(dir, 'pid');
    const controller = new AbortController();
    const running_ = run(`setsid sleep 300 & echo $! > ${file}; sleep 300`, controller.signal);
    const pid = await grandchild(file);
    controller.abort();
    await assert.rejects(running_, { name: 'AbortError' });
    await gone(pid, 'the setsid grandchild to be gone');
  });

  it('a timeout ends a grandchild that left the group and cleared its environment', async () => {
    const file = join(dir, 'pid');
    let tree: ProcessTree | undefined;
    // The middle shell stays, so the tree still leads to the grandchild when the kill comes.
    const { started: timingOut, expire } = holdingTimeout(HELD_TIMEOUT_MS, () =>
      run(`setsid sh -c 'env -i sleep 300 & echo $! > ${file}; sleep 300' & sleep 300`, new AbortController().signal, {
        timeoutMs: HELD_TIMEOUT_MS,
        onTracking: (t) => (tree = t),
      }),
    );
    const pid = await grandchild(file);
    // The time limit runs out once the tracker has seen the grandchild (state), not after a real wait.
    await until(
      () => tree?.tracked.some((p) => p.pid === pid),
      (seen) => seen === true,
      'the tracker to see the grandchild',
    );
    expire();
    assert.equal((await timingOut).kind, 'timedOut');
    await gone(pid, 'the grandchild to be gone');
  });

  it('a grandchild seen while its parent lived is ended after the parent is gone (environment cleared, double fork)', async () => {
    const file = join(dir, 'pid');
    const go = join(dir, 'go');
    const controller = new AbortController();
    let tree: ProcessTree | undefined;
    // The middle shell waits for the test (a bounded loop) and then exits: the grandchild is orphaned.
    const line = `setsid sh -c 'env -i sleep 300 & echo $! > ${file}; i=0; while [ ! -e ${go} ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done' & sleep 300`;
    const running_ = run(line, controller.signal, { onTracking: (t) => (tree = t) });
    const pid = await grandchild(file);
    await until(
      () => tree?.tracked.some((p) => p.pid === pid),
      (seen) => seen === true,
      'the tracker to see the grandchild',
    );
    writeFileSync(go, '');
    await until(
      () => readProcess(pid)?.ppid,
      (ppid) => ppid !== undefined && ppid !== tree?.tracked.find((p) => p.pid === pid)?.ppid,
      'the grandchild to be orphaned',
    );
    controller.abort();
    await assert.rejects(running_, { name: 'AbortError' });
    await gone(pid, 'the orphaned grandchild to be gone');
  });

  it("without /proc the group is killed on a stop, but not signalled after the shell's end (its id may be reused by then)", async () => {
    const noProc = { procRoot: join(dir, 'no-proc') };
    const file = join(dir, 'pid');
    const controller = new AbortController();
    const stopped = run(`sleep 300 & echo $! > ${file}; sleep 300`, controller.signal, noProc);
    const inGroup = await grandchild(file);
    controller.abort();
    await assert.rejects(stopped, { name: 'AbortError' });
    // Nothing repeats the kill here (no /proc): the process is gone once the kernel has ended it.
    await until(
      () => running(inGroup),
      (alive) => !alive,
      'the group to be killed while the shell ran',
    );
    rmSync(file);
    const result = await run(
      `sleep 300 > /dev/null 2>&1 & echo $! > ${file}; echo done`,
      new AbortController().signal,
      noProc,
    );
    const left = pidIn(file) as number;
    started.push(left);
    assert.equal(result.kind, 'ended');
    // A SIGKILL, once sent, wakes a sleeping process for good: seen asleep again, it was never sent.
    const state = await until(
      () => readProcess(left)?.state,
      (now) => now !== 'R' && now !== 'D',
      'the left process to sleep or end',
    );
    assert.equal(state, 'S', 'nothing verifies the group id after the end, so it is left alone');
  });

  it("the command's own end ends what it left running, and the result comes at once", async () => {
    const file = join(dir, 'pid');
    const result = await run(
      `setsid sleep 300 > /dev/null 2>&1 & echo $! > ${file}; echo done`,
      new AbortController().signal,
    );
    const pid = pidIn(file) as number;
    started.push(pid);
    assert.deepEqual(result, { kind: 'ended', code: 0, signal: null, output: 'done\n' });
    await gone(pid, 'the daemon it left to be gone');
  });
});
