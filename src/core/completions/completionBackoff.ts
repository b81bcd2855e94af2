// When completions pause and when they try again. A failure that will not go away by retrying at
// once (offline, a refused key, a rate limit, no credits, a server error or a cut stream) pauses them: typing goes on undisturbed,
// the next request waits for the pause to end, each further failure doubles it (bounded), and a
// success or a new key ends it. Pure: the clock is passed in.
import {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  RateLimitError,
  StreamError,
  TimeoutError,
} from '../errors';
import { clampDelay } from '../transport/delay';

export type PauseReason = 'offline' | 'badKey' | 'rateLimited' | 'noCredits' | 'serverError';

export interface Pause {
  readonly reason: PauseReason;
  /** When the next request may try again (ms since epoch). */
  readonly until: number;
  /** Failures in a row (1 for the first). */
  readonly failures: number;
}

/** The first pause: short, a blip of the network should not cost the user minutes. */
export const FIRST_PAUSE_MS = 15_000;
/** The first pause after a server error (5xx) or a stream cut mid-way: often a blip, so shorter. */
export const FIRST_SERVER_PAUSE_MS = 5_000;
/** The longest pause: a gateway back after a long outage is seen within this. */
export const MAX_PAUSE_MS = 10 * 60_000;

/**
 * Which failures pause completions. Every one of these would fail the next keystroke's request too:
 * the gateway is down or refusing, or a server error or a cut stream (a struggling upstream). Others
 * (a 400, an answer that was not a stream) just show nothing this time.
 */
export function pauseReasonOf(error: unknown): PauseReason | undefined {
  if (error instanceof AuthenticationError) return 'badKey';
  if (error instanceof RateLimitError)
    return error.quotaExhausted || error.status === 402 ? 'noCredits' : 'rateLimited';
  if (error instanceof ConnectionError || error instanceof TimeoutError) return 'offline';
  // A stream the client cut at one of its bounds (an event or an answer too large: a `code` says
  // which) is a hostile answer, not a struggling server.
  if (error instanceof StreamError && error.interrupted && error.code === undefined) return 'serverError';
  if (error instanceof GatewayError && error.status !== undefined && error.status >= 500) return 'serverError';
  return undefined;
}

export class CompletionBackoff {
  private current: Pause | undefined;

  constructor(private readonly now: () => number) {}

  /** The pause in force (also after it ran out, until a success: the status keeps saying why). */
  get pause(): Pause | undefined {
    return this.current;
  }

  /** Whether a request must wait now. */
  blocks(): boolean {
    return this.current !== undefined && this.now() < this.current.until;
  }

  /** Notes a failure; returns the new pause when it pauses (a server's Retry-After counts when longer). */
  fail(error: unknown): Pause | undefined {
    const reason = pauseReasonOf(error);
    if (!reason) return undefined;
    const failures = (this.current?.failures ?? 0) + 1;
    const first = reason === 'serverError' ? FIRST_SERVER_PAUSE_MS : FIRST_PAUSE_MS;
    const doubled = first * 2 ** Math.min(failures - 1, 16);
    const retryAfter = error instanceof RateLimitError && error.retryAfterMs !== undefined ? error.retryAfterMs : 0;
    const wait = clampDelay(
      Math.max(Math.min(doubled, MAX_PAUSE_MS), Math.min(retryAfter, MAX_PAUSE_MS)),
      MAX_PAUSE_MS,
    );
    this.current = { reason, until: this.now() + wait, failures };
    return this.current;
  }

  /** A request went through (or the key changed): no pause. Returns whether one ended. */
  reset(): boolean {
    const was = this.current !== undefined;
    this.current = undefined;
    return was;
  }
}
