// Drives nextPollDelay with an injected clock: one list request per tick for all jobs, never two
// in flight, paused while nobody can see the result. The extension and the unit tests share it,
// so what the fake-clock tests prove is what ships.
import { clampDelay } from '../transport/delay';
import { nextPollDelay, resolvePollOptions } from './pollSchedule';
import type { PollDecision, PollJob, PollOptions } from './pollSchedule';

export interface PollClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export type ResearchPollState = 'idle' | 'waiting' | 'polling' | 'paused' | 'stopped';

export interface ResearchPollLoopOptions {
  /** One list request for all jobs (never one per job); rejects on failure. Honour the signal. */
  poll: (signal: AbortSignal) => Promise<readonly PollJob[]>;
  clock?: PollClock;
  schedule?: PollOptions;
  /** Each failed poll; the loop itself backs off. Exceptions thrown here are ignored. */
  onError?: (error: unknown) => void;
  /** Initial window state; both default to true (setFocus / setViewVisible update them). */
  focused?: boolean;
  viewVisible?: boolean;
}

/** The real clock. Timers stay ref'd: a caller awaiting the loop in plain Node must not exit early. */
const systemPollClock: PollClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, clampDelay(ms)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

// Stands for "the gateway was never listed since the loop became active" after a failed poll: an
// unknown status counts as in progress, so a reload while the gateway is down keeps retrying
// (with backoff) instead of concluding that nothing is running.
const NOT_LISTED_YET: PollJob = { status: 'not-listed-yet' };

function retryAfterOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('retryAfterMs' in error)) return undefined;
  const value = (error as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

export class ResearchPollLoop {
  private readonly clock: PollClock;
  private readonly minIntervalMs: number;
  private readonly maxRetryAfterMs: number;
  private jobs: readonly PollJob[] = [];
  private listed = false;
  private focused: boolean;
  private viewVisible: boolean;
  private current: ResearchPollState = 'idle';
  private active = false;
  private disposed = false;
  private timer: { handle: unknown } | undefined;
  private nextAt: number | undefined;
  private controller: AbortController | undefined;
  private inFlight: Promise<void> | undefined;
  private again = false;
  private lastStartedAt: number | undefined;
  private retryUntil: number | undefined;
  private errorCount = 0;
  private error: unknown;

  constructor(private readonly options: ResearchPollLoopOptions) {
    this.clock = options.clock ?? systemPollClock;
    const schedule = resolvePollOptions(options.schedule);
    this.minIntervalMs = schedule.minIntervalMs;
    this.maxRetryAfterMs = schedule.maxRetryAfterMs;
    this.focused = options.focused ?? true;
    this.viewVisible = options.viewVisible ?? true;
  }

  get state(): ResearchPollState {
    return this.current;
  }

  /** When the next request is due (clock time), while waiting. */
  get nextPollAt(): number | undefined {
    return this.nextAt;
  }

  /** The error of the last poll; undefined once a poll succeeds. */
  get lastError(): unknown {
    return this.error;
  }

  get consecutiveErrors(): number {
    return this.errorCount;
  }

  /** Starts polling for these jobs (as known now). A no-op while the loop is already running. */
  start(initialJobs: readonly PollJob[]): void {
    if (this.disposed || this.active) return;
    this.active = true;
    this.jobs = initialJobs;
    this.listed = false;
    // A poll still in flight (after stop()) reschedules when it lands.
    if (this.inFlight === undefined) this.reschedule();
  }

  setFocus(focused: boolean): void {
    const regained = focused && !this.focused;
    this.focused = focused;
    this.windowChanged(regained);
  }

  setViewVisible(visible: boolean): void {
    const regained = visible && !this.viewVisible;
    this.viewVisible = visible;
    this.windowChanged(regained);
  }

  /**
   * One list request now, then the schedule goes on from its result (this also restarts a stopped
   * loop when jobs turn out to be in progress). While a request is in flight, one more follows it
   * instead of a second running alongside: the caller may have just created a job the in-flight
   * list cannot contain.
   */
  pollNow(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.active = true;
    return this.runPoll();
  }

  /** Stops scheduling. A request in flight still completes (its result is used), but nothing follows it. */
  stop(): void {
    this.active = false;
    this.again = false;
    this.clearTimer();
    if (!this.disposed && this.inFlight === undefined) this.current = 'stopped';
  }

  /** Stops for good and aborts the request in flight. */
  dispose(): void {
    this.disposed = true;
    this.stop();
    this.current = 'stopped';
    this.controller?.abort();
  }

  private windowChanged(regained: boolean): void {
    if (this.disposed || !this.active || this.inFlight !== undefined) return;
    if (this.current !== 'waiting' && this.current !== 'paused') return;
    if (!regained) {
      // Lost focus or visibility: pause now if nobody can see the view (the timer would only find that out later).
      if (this.decide().kind === 'paused') this.apply({ kind: 'paused' });
      return;
    }
    // Regained: poll at once, but not more often than minIntervalMs (alt-tabbing must not flood the
    // gateway) and never before a Retry-After runs out.
    const now = this.clock.now();
    const earliest = Math.max(
      now,
      (this.lastStartedAt ?? -Infinity) + this.minIntervalMs,
      this.retryUntil ?? -Infinity,
    );
    if (this.current === 'waiting' && this.nextAt !== undefined && this.nextAt <= earliest) return;
    if (earliest <= now) void this.runPoll();
    else this.wait(earliest - now);
  }

  private decide(): PollDecision {
    const now = this.clock.now();
    const jobs = this.errorCount > 0 && !this.listed ? [...this.jobs, NOT_LISTED_YET] : this.jobs;
    const retryAfterMs = this.retryUntil === undefined ? undefined : Math.max(0, this.retryUntil - now);
    return nextPollDelay(
      {
        now,
        jobs,
        focused: this.focused,
        viewVisible: this.viewVisible,
        consecutiveErrors: this.errorCount,
        retryAfterMs,
      },
      this.options.schedule,
    );
  }

  private reschedule(): void {
    if (this.disposed) return;
    if (!this.active) {
      this.current = 'stopped';
      return;
    }
    this.apply(this.decide());
  }

  private apply(decision: PollDecision): void {
    this.clearTimer();
    if (decision.kind === 'stop') {
      this.active = false;
      this.current = 'stopped';
    } else if (decision.kind === 'paused') {
      this.current = 'paused';
    } else {
      this.wait(decision.delayMs);
    }
  }

  private wait(requestedMs: number): void {
    this.clearTimer();
    // Whatever the arithmetic gave, the clock gets a delay a timer honours (never one that fires at once).
    const delayMs = clampDelay(requestedMs);
    const timer = { handle: undefined as unknown };
    this.timer = timer;
    this.nextAt = this.clock.now() + delayMs;
    this.current = 'waiting';
    timer.handle = this.clock.setTimeout(() => {
      // A timer cleared after it was queued must not fire a poll.
      if (this.timer !== timer) return;
      this.timer = undefined;
      this.tick();
    }, delayMs);
  }

  private tick(): void {
    if (this.disposed || !this.active) return;
    // The window may have changed since the wait began; stop and pause win over the timer.
    const decision = this.decide();
    if (decision.kind !== 'wait') this.apply(decision);
    else void this.runPoll();
  }

  private clearTimer(): void {
    this.nextAt = undefined;
    if (this.timer === undefined) return;
    this.clock.clearTimeout(this.timer.handle);
    this.timer = undefined;
  }

  private runPoll(): Promise<void> {
    if (this.inFlight !== undefined) {
      this.again = true;
      return this.inFlight;
    }
    this.clearTimer();
    this.current = 'polling';
    const run = async (): Promise<void> => {
      do {
        this.again = false;
        await this.pollOnce();
      } while (this.again && !this.disposed);
    };
    this.inFlight = run().finally(() => {
      this.inFlight = undefined;
      this.reschedule();
    });
    return this.inFlight;
  }

  private async pollOnce(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.lastStartedAt = this.clock.now();
    try {
      const jobs = await this.options.poll(controller.signal);
      if (this.disposed) return;
      if (!Array.isArray(jobs)) throw new TypeError('the research poll must resolve to an array of jobs');
      this.jobs = jobs;
      this.listed = true;
      this.errorCount = 0;
      this.error = undefined;
      this.retryUntil = undefined;
    } catch (error) {
      // After dispose the abort is ours; nobody is listening any more.
      if (this.disposed) return;
      this.errorCount++;
      this.error = error;
      const retryAfter = retryAfterOf(error);
      // Capped like the schedule caps it, so a focus change cannot wait longer than a timer would.
      this.retryUntil =
        retryAfter === undefined ? undefined : this.clock.now() + clampDelay(retryAfter, this.maxRetryAfterMs);
      try {
        this.options.onError?.(error);
      } catch {
        // A failing listener must not stop the polling.
      }
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
  }
}
