// When to send the next research list request: a pure function of the jobs, the window state and
// the error history, so the extension and the unit tests (fake clock) run exactly the same policy.
//
// Rules, in this order:
// 1. stop    when no job is in progress. `classifyResearchStatus` decides; an unknown status is
//            in progress (wire-conventions: "shown as it is and treated as in progress"), so a
//            gateway that invents `paused` or `waiting` keeps being polled instead of going quiet.
// 2. paused  when the window is not focused AND the Research view is hidden: nobody can see the
//            result, and the extension polls again at once when either comes back.
// 3. wait    otherwise. The base interval follows the YOUNGEST in-progress job (the one the user
//            most likely just started and is waiting for), by its `createdAt` age:
//              age <= youngAgeMs (60 s)          -> minIntervalMs (3 s): a new job shows its
//                                                   queued -> running change quickly;
//              age  > youngAgeMs                 -> min + (max - min) * (1 - e^(-(age - young) / growthMs)),
//                                                   growthMs 60 s: 3 s at 1 min, ~20 s at 2 min,
//                                                   ~26 s at 3 min, ~29.5 s at 5 min, never above
//                                                   maxIntervalMs (30 s). A job takes 2 to 5
//                                                   minutes, so late polls only add ~15 s on average
//                                                   to "finished" news, for ~10x fewer requests.
//            A missing, invalid or future `createdAt` counts as age 0 (young): polling too often
//            for a while is cheaper than missing a fresh job's progress.
//            After errors: base * 2^consecutiveErrors, capped at maxErrorBackoffMs (120 s) (the cap
//            never brings the delay below the base), and never sooner than `retryAfterMs` (the
//            server said when), honoured up to maxRetryAfterMs (10 min): a job takes minutes, so a
//            Retry-After of days would hide its result for days, and one list request per 10
//            minutes is no load. Every delay is clamped (clampDelay): NaN, negative or huge input
//            can never reach a timer as a value it fires at once.
// No jitter: one client per user polls one gateway, so there is no herd to spread, and a
// deterministic delay makes the tests exact.
import { clampDelay } from '../transport/delay';
import { classifyResearchStatus } from './researchHelpers';

/** What the schedule needs to know about a job (a list row is enough). */
export interface PollJob {
  readonly status: string;
  readonly createdAt?: string;
  readonly updatedAt?: string;
}

export interface PollInput {
  /** Epoch milliseconds (the injected clock's now). */
  readonly now: number;
  /** The jobs as last listed (or as known before the first list). */
  readonly jobs: readonly PollJob[];
  readonly focused: boolean;
  readonly viewVisible: boolean;
  /** Failed polls in a row since the last success; 0 when the last poll succeeded. */
  readonly consecutiveErrors: number;
  /** The least wait the server asked for (Retry-After), measured from `now`. */
  readonly retryAfterMs?: number;
}

export interface PollOptions {
  /** Interval while the youngest in-progress job is young; default 3000. */
  readonly minIntervalMs?: number;
  /** Interval the schedule grows toward for old jobs; default 30000. */
  readonly maxIntervalMs?: number;
  /** Cap of the error backoff; default 120000. */
  readonly maxErrorBackoffMs?: number;
  /** Jobs up to this age are polled at minIntervalMs; default 60000. Benchmarks compress it. */
  readonly youngAgeMs?: number;
  /** Time constant of the growth from min toward max after youngAgeMs; default 60000. */
  readonly growthMs?: number;
  /** The longest Retry-After honoured; a longer one waits this long. Default 600000 (10 min). */
  readonly maxRetryAfterMs?: number;
}

export type PollDecision = { kind: 'stop' } | { kind: 'paused' } | { kind: 'wait'; delayMs: number; reason: string };

const DEFAULT_POLL_OPTIONS: Readonly<Required<PollOptions>> = {
  minIntervalMs: 3000,
  maxIntervalMs: 30_000,
  maxErrorBackoffMs: 120_000,
  youngAgeMs: 60_000,
  growthMs: 60_000,
  maxRetryAfterMs: 600_000,
};

// 2^20 times any interval is far past any cap; bounding the exponent keeps the arithmetic finite.
const MAX_DOUBLINGS = 20;

function nonNegative(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** Defaults filled in; a max below the min is raised to the min so the interval never shrinks with age. */
export function resolvePollOptions(options: PollOptions = {}): Required<PollOptions> {
  const minIntervalMs = nonNegative(options.minIntervalMs, DEFAULT_POLL_OPTIONS.minIntervalMs);
  const maxIntervalMs = Math.max(minIntervalMs, nonNegative(options.maxIntervalMs, DEFAULT_POLL_OPTIONS.maxIntervalMs));
  return {
    minIntervalMs,
    maxIntervalMs,
    maxErrorBackoffMs: nonNegative(options.maxErrorBackoffMs, DEFAULT_POLL_OPTIONS.maxErrorBackoffMs),
    youngAgeMs: nonNegative(options.youngAgeMs, DEFAULT_POLL_OPTIONS.youngAgeMs),
    growthMs: Math.max(1, nonNegative(options.growthMs, DEFAULT_POLL_OPTIONS.growthMs)),
    maxRetryAfterMs: clampDelay(nonNegative(options.maxRetryAfterMs, DEFAULT_POLL_OPTIONS.maxRetryAfterMs)),
  };
}

/** Age in ms from `createdAt`; 0 when it is missing, unparseable or in the future (clock skew). */
function ageOf(job: PollJob, now: number): number {
  const created = job.createdAt === undefined ? NaN : Date.parse(job.createdAt);
  return Number.isFinite(created) ? Math.max(0, now - created) : 0;
}

/** The base interval for a youngest in-progress job of this age. */
function intervalForAge(ageMs: number, options: PollOptions = {}): number {
  const o = resolvePollOptions(options);
  if (!(ageMs > o.youngAgeMs)) return o.minIntervalMs;
  const grown = 1 - Math.exp(-(ageMs - o.youngAgeMs) / o.growthMs);
  return Math.round(o.minIntervalMs + (o.maxIntervalMs - o.minIntervalMs) * grown);
}

export function nextPollDelay(input: PollInput, options: PollOptions = {}): PollDecision {
  const o = resolvePollOptions(options);
  const inProgress = input.jobs.filter((job) => classifyResearchStatus(job.status) === 'in_progress');
  if (inProgress.length === 0) return { kind: 'stop' };
  if (!input.focused && !input.viewVisible) return { kind: 'paused' };

  // reduce, not Math.min(...spread): a huge list must not overflow the argument limit.
  const youngest = inProgress.reduce((least, job) => Math.min(least, ageOf(job, input.now)), Infinity);
  const base = clampDelay(intervalForAge(youngest, o));
  const ageReason = `youngest job in progress is ${Math.round(youngest / 1000)} s old`;
  const errors = Math.max(0, Math.floor(nonNegative(input.consecutiveErrors, 0)));
  if (errors === 0) return { kind: 'wait', delayMs: base, reason: ageReason };

  const backoff = clampDelay(
    Math.max(base, Math.min(o.maxErrorBackoffMs, base * 2 ** Math.min(errors, MAX_DOUBLINGS))),
  );
  const asked = nonNegative(input.retryAfterMs, 0);
  const retryAfter = clampDelay(asked, o.maxRetryAfterMs);
  if (retryAfter > backoff) {
    const capped =
      asked > retryAfter
        ? `; waiting ${Math.ceil(retryAfter / 1000)} s, the longest this client waits between polls`
        : '';
    return {
      kind: 'wait',
      delayMs: retryAfter,
      reason: `the gateway asked to retry after ${Math.ceil(asked / 1000)} s${capped}`,
    };
  }
  return {
    kind: 'wait',
    delayMs: backoff,
    reason: `${errors} failed poll${errors === 1 ? '' : 's'} in a row; backing off (${ageReason})`,
  };
}
