// When a completion is asked for, and whether the network is asked at all. Every keystroke may ask;
// most asks end here without a request: a suggestion being typed through, a cached one, a pause
// after a failure, or a newer keystroke within the debounce. A newer ask aborts the request in
// flight (its connection closes, the gateway stops generating). Pure: the clock, the context
// gathering and the request are injected, so a Node benchmark drives the same code as VS Code.
import { CompletionBackoff, type Pause } from './completionBackoff';
import { CompletionCache } from './completionCache';
import type { CompletionOutcome } from './completionRun';
import { shownCompletion, typedThrough, type ShownCompletion } from './typedThrough';
import { COMPLETION_ABORTED } from './completionAbort';

/** One ask: the place in the document and the text around it (windows, not the whole document). */
export interface CompletionAsk {
  /** The document's identity (its URI). */
  readonly document: string;
  readonly offset: number;
  readonly prefix: string;
  readonly suffix: string;
  /** The cache key of this place (completionCacheKey). */
  readonly key: string;
  /** The user asked for a suggestion (a command or keybinding): no debounce, they are waiting. */
  readonly explicit?: boolean;
}

export interface SchedulerClock {
  now(): number;
  /** Resolves true after `ms`, or false as soon as `signal` aborts. */
  wait(ms: number, signal: AbortSignal): Promise<boolean>;
}

/** Gathers context and sends: `prepare` may decide no request is made (undefined); `send` resolves even when aborted. */
export interface CompletionTransport<P> {
  prepare(ask: CompletionAsk, signal: AbortSignal): Promise<P | undefined>;
  send(prepared: P, signal: AbortSignal): Promise<CompletionOutcome>;
}

/** What completions did this session (the benchmark and the test API read them). */
export interface CompletionCounters {
  asks: number;
  debouncedAway: number;
  cacheHits: number;
  typedThrough: number;
  pausedSkips: number;
  /** Requests sent to the gateway. */
  requests: number;
  /** Requests stopped from outside before they ended (superseded by a newer keystroke, or cancelled). */
  aborted: number;
  /** Requests stopped by us once the completion was complete. */
  stoppedEarly: number;
  /** Requests cut at a bound (huge, endless, too slow). */
  bounded: number;
  failed: number;
  /** Suggestions handed to the editor (fetched, cached or typed through). */
  shown: number;
  tokensIn: number;
  tokensOut: number;
  /** Tokens that were estimated (the stream was cut before the gateway reported usage). */
  estimatedTokens: number;
  accepted: number;
  acceptedChars: number;
}

function emptyCounters(): CompletionCounters {
  return {
    asks: 0,
    debouncedAway: 0,
    cacheHits: 0,
    typedThrough: 0,
    pausedSkips: 0,
    requests: 0,
    aborted: 0,
    stoppedEarly: 0,
    bounded: 0,
    failed: 0,
    shown: 0,
    tokensIn: 0,
    tokensOut: 0,
    estimatedTokens: 0,
    accepted: 0,
    acceptedChars: 0,
  };
}

export interface SchedulerEvents {
  /** A request ended with its usage (for the money count). */
  onSpent?(outcome: CompletionOutcome): void;
  /** The pause changed (undefined: requests go through again). */
  onPause?(pause: Pause | undefined, error?: unknown): void;
  /** A request failed without pausing (e.g. a 500): shows nothing this time. */
  onError?(error: unknown): void;
}

/** The ask waiting or in flight, and how many editor asks still want it (it stops when none does). */
interface Pending {
  readonly key: string;
  readonly controller: AbortController;
  result: Promise<string | undefined>;
  waiters: number;
}

export class CompletionScheduler<P> {
  readonly counters = emptyCounters();
  readonly backoff: CompletionBackoff;
  private shown: ShownCompletion | undefined;
  /** The ask waiting or in flight: one at a time (a newer place makes it useless). */
  private pending: Pending | undefined;

  constructor(
    private readonly clock: SchedulerClock,
    private readonly transport: CompletionTransport<P>,
    private readonly debounceMs: () => number,
    readonly cache = new CompletionCache(),
    private readonly events: SchedulerEvents = {},
  ) {
    this.backoff = new CompletionBackoff(() => clock.now());
  }

  /**
   * The suggestion for `ask`, or undefined. `cancel`: the editor no longer wants this one. The
   * synchronous part (typed-through, cache) is all a keystroke pays for before the debounce.
   */
  complete(ask: CompletionAsk, cancel?: AbortSignal): Promise<string | undefined> {
    this.counters.asks++;
    // The editor asks again for the same place (a re-render, a second trigger): join the ask in flight.
    const same = this.pending;
    if (same?.key === ask.key && !same.controller.signal.aborted) {
      this.follow(same, cancel);
      return same.result;
    }
    // A newer place: the older ask stops waiting, or its request is aborted (the connection closes).
    this.pending?.controller.abort(COMPLETION_ABORTED);
    const rest = typedThrough(this.shown, ask.document, ask.offset, ask.prefix, ask.suffix);
    if (rest !== undefined) {
      this.counters.typedThrough++;
      this.counters.shown++;
      return Promise.resolve(rest);
    }
    const cached = this.cache.get(ask.key);
    if (cached !== undefined) {
      this.counters.cacheHits++;
      return Promise.resolve(this.show(ask, cached));
    }
    if (this.backoff.blocks()) {
      this.counters.pausedSkips++;
      return Promise.resolve(undefined);
    }
    const pending: Pending = {
      key: ask.key,
      controller: new AbortController(),
      result: Promise.resolve(undefined),
      waiters: 0,
    };
    this.pending = pending;
    this.follow(pending, cancel);
    pending.result = this.wait(ask, pending.controller);
    return pending.result;
  }

  /** One more editor ask wants `pending`; when every one that wanted it is cancelled, it stops. */
  private follow(pending: Pending, cancel: AbortSignal | undefined): void {
    pending.waiters++;
    if (!cancel) return;
    const leave = (): void => {
      if (--pending.waiters <= 0) pending.controller.abort(COMPLETION_ABORTED);
    };
    if (cancel.aborted) leave();
    else cancel.addEventListener('abort', leave, { once: true });
  }

  private async wait(ask: CompletionAsk, controller: AbortController): Promise<string | undefined> {
    try {
      if (
        controller.signal.aborted ||
        (!ask.explicit && !(await this.clock.wait(this.debounceMs(), controller.signal)))
      ) {
        this.counters.debouncedAway++;
        return undefined;
      }
      const prepared = await this.transport.prepare(ask, controller.signal);
      if (prepared === undefined || controller.signal.aborted) return undefined;
      return await this.request(ask, prepared, controller.signal);
    } finally {
      if (this.pending?.controller === controller) this.pending = undefined;
    }
  }

  /** The user accepted a suggestion of `chars` characters. */
  noteAccepted(chars: number): void {
    this.counters.accepted++;
    this.counters.acceptedChars += chars;
    this.shown = undefined;
  }

  /** Forgets the suggestion shown last (the next ask at its place is answered by the cache or a request, not typed through). */
  forgetShown(): void {
    this.shown = undefined;
  }

  /** The key changed, or the user asked to resume: requests go through at once. */
  resume(): void {
    if (this.backoff.reset()) this.events.onPause?.(undefined);
  }

  /** Stops whatever waits or is in flight (completions turned off, snoozed, disposed). */
  stop(): void {
    this.pending?.controller.abort(COMPLETION_ABORTED);
    this.shown = undefined;
  }

  private async request(ask: CompletionAsk, prepared: P, signal: AbortSignal): Promise<string | undefined> {
    this.counters.requests++;
    let outcome: CompletionOutcome;
    try {
      outcome = await this.transport.send(prepared, signal);
    } catch (error) {
      this.counters.failed++;
      const pause = this.backoff.fail(error);
      if (pause) this.events.onPause?.(pause, error);
      else this.events.onError?.(error);
      return undefined;
    }
    this.counters.tokensIn += outcome.usage.promptTokens;
    this.counters.tokensOut += outcome.usage.completionTokens;
    if (outcome.estimated) this.counters.estimatedTokens += outcome.usage.promptTokens + outcome.usage.completionTokens;
    this.events.onSpent?.(outcome);
    // Only an answer that came through proves the failure is over: an aborted probe (superseded)
    // or a bounded one (too slow) proves nothing, and ending the pause would forget the doubling.
    if (outcome.aborted) {
      this.counters.aborted++;
      return undefined;
    }
    if (outcome.stoppedEarly) this.counters.stoppedEarly++;
    if (outcome.bounded) {
      this.counters.bounded++;
      return undefined;
    }
    if (this.backoff.pause) this.resume();
    // Nothing to insert is remembered too: the same place does not ask again.
    this.cache.set(ask.key, outcome.insertion ?? '');
    return this.show(ask, outcome.insertion ?? '');
  }

  private show(ask: CompletionAsk, insertion: string): string | undefined {
    if (!insertion) return undefined;
    this.counters.shown++;
    this.shown = shownCompletion(ask.document, ask.offset, ask.prefix, ask.suffix, insertion);
    return insertion;
  }
}

/** The real clock (timers); tests and the benchmark pass their own. */
export const realClock: SchedulerClock = {
  now: () => Date.now(),
  wait: (ms, signal) =>
    new Promise<boolean>((resolve) => {
      if (signal.aborted) return resolve(false);
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      }, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }),
};
