// Fakes for the research poll tests: a clock whose time only moves when the test says so, and a
// poll callback whose requests the test answers one by one.
import type { PollClock } from '../../../src/core/research/pollLoop';
import type { PollJob } from '../../../src/core/research/pollSchedule';

interface FakeTimer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

/** Lets every pending promise callback run (a real macrotask turn, so chains of awaits settle). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class FakeClock implements PollClock {
  private time: number;
  private nextId = 1;
  private timers: FakeTimer[] = [];

  constructor(start = Date.parse('2025-01-01T12:00:00.000Z')) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward by ms, firing due timers in order and letting promises settle after each. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    // Bounded: a loop that re-arms a zero-delay timer forever must fail the test, not hang it.
    for (let fired = 0; fired < 10_000; fired++) {
      await settle();
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      due.fn();
    }
    this.time = end;
    await settle();
  }

  /** ISO time `ageMs` before now: a job created that long ago. */
  isoAgo(ageMs: number): string {
    return new Date(this.time - ageMs).toISOString();
  }
}

interface PendingPoll {
  readonly signal: AbortSignal;
  resolve(jobs: readonly PollJob[]): void;
  reject(error: unknown): void;
}

/** A poll callback the test answers by hand, or automatically with `auto`. */
export class FakePoller {
  readonly calls: PendingPoll[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** When set, every call resolves (or rejects, for an Error) with this at once. */
  auto: readonly PollJob[] | Error | (() => readonly PollJob[] | Error) | undefined;

  readonly poll = (signal: AbortSignal): Promise<readonly PollJob[]> => {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    return new Promise<readonly PollJob[]>((resolve, reject) => {
      const call: PendingPoll = { signal, resolve, reject };
      this.calls.push(call);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      const auto = typeof this.auto === 'function' ? this.auto() : this.auto;
      if (auto instanceof Error) reject(auto);
      else if (auto !== undefined) resolve(auto);
    }).finally(() => {
      this.inFlight--;
    });
  };

  get count(): number {
    return this.calls.length;
  }

  last(): PendingPoll {
    const call = this.calls[this.calls.length - 1];
    if (call === undefined) throw new Error('no poll yet');
    return call;
  }
}
