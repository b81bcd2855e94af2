// Retry policy from wire-conventions "Errors and retries": which failures are retried, how long to
// wait (Retry-After first, else exponential backoff with jitter), and the abortable sleep.
import { clampDelay } from './delay';
import { abortError } from '../errors';

export const DEFAULT_MAX_RETRIES = 2;
const MIN_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A Retry-After longer than this is not waited for: the error goes to the caller with retryAfterMs. */
const MAX_RETRY_AFTER_MS = 60_000;

type HeaderValue = string | string[] | undefined;
export type HeaderBag = Record<string, HeaderValue>;

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Milliseconds the server asked us to wait: `retry-after-ms` first, then `retry-after` as seconds
 * or as an HTTP date. Undefined when absent or unreadable. Header names must be lower case (as
 * undici and node:http give them).
 */
export function parseRetryAfter(headers: HeaderBag, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return bounded(Math.round(Number(ms)));
  const value = header(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return bounded(Math.round(Number(value) * 1000));
  // An HTTP date names its day and month; without letters ('-5', '1e3') it is a bad number, and
  // Date.parse would read some of those as years.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  // A date in the past means "now", not a negative wait.
  return Math.max(0, date - now);
}

/** A run of hundreds of digits parses to Infinity: keep "longer than anything" as a finite number. */
function bounded(ms: number): number {
  return Math.min(ms, Number.MAX_SAFE_INTEGER);
}

/**
 * Exponential backoff 0.5 s, 1 s, 2 s ... capped at 8 s, with up to 25 % jitter so clients spread
 * out. The jitter goes upward below the cap and downward at it, so every delay stays within
 * wire-conventions' 0.5 s to 8 s (and each step still waits longer than the one before).
 */
export function backoffDelay(retryIndex: number, random: () => number = Math.random): number {
  const base = Math.min(MIN_BACKOFF_MS * 2 ** Math.max(0, retryIndex), MAX_BACKOFF_MS);
  const jitter = 0.25 * random();
  return Math.round(Math.min(base * (base < MAX_BACKOFF_MS ? 1 + jitter : 1 - jitter), MAX_BACKOFF_MS));
}

/** 408, 409, 429 and 5xx are worth another try (429 only when it is not "out of credits"). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
}

/** Words of a body that speak of a transient request rate, not of used-up credits. */
/** Words of a transient limit: a rate, a per-minute (or second, hour) budget, concurrency. */
const RATE_WORDS =
  /rate[\s_-]*limit|too[\s_-]*many[\s_-]*requests|requests per|per[\s_-]*(second|minute|hour)|concurren|slow down/i;
/** Words of a message that speak of a usage, plan, credit, quota or spend limit (or no money left). */
const LIMIT_WORDS =
  /(usage|plan|spend(ing)?|billing|budget|credit|quota)[\s_-]*(limit|cap)|(limit|cap) (has been |was )?(reached|exceeded|hit)|out of credits?|insufficient[\s_-]*(funds|credits?|balance|quota)|credits? (are |is )?(exhausted|used up|depleted)|quota (exceeded|exhausted|reached)/i;

/**
 * A 429 (the spec: "usage limit or plan limit reached") that means out of credits, never retried:
 * its code or type mentions quota, credit or insufficient, or (the real gateway may only say it in
 * words) its message speaks of a usage/plan/credit/quota/spend limit, unless it says rate limit or
 * too many requests, or carries Retry-After: those are transient and retried (wire-conventions).
 */
export function isOutOfCredits(
  code: string | undefined,
  type: string | undefined,
  message?: string,
  hasRetryAfter = false,
): boolean {
  if (/quota|credit|insufficient/i.test(`${code ?? ''} ${type ?? ''}`)) return true;
  // The message decides over a generic type: an Anthropic-shaped body says `rate_limit_error` for both.
  if (message === undefined || hasRetryAfter || RATE_WORDS.test(message)) return false;
  return LIMIT_WORDS.test(message);
}

/**
 * The delay before the next attempt, or undefined when the server asked for more than we are willing
 * to wait (then the caller gets the error and its retryAfterMs).
 */
export function retryDelay(
  retryIndex: number,
  retryAfterMs: number | undefined,
  random?: () => number,
): number | undefined {
  // NaN or negative (a bad header turned into a number somewhere) says nothing: back off as usual.
  if (retryAfterMs === undefined || Number.isNaN(retryAfterMs) || retryAfterMs < 0)
    return backoffDelay(retryIndex, random);
  return retryAfterMs <= MAX_RETRY_AFTER_MS ? clampDelay(retryAfterMs, MAX_RETRY_AFTER_MS) : undefined;
}

/** Waits `ms` (clamped: see clampDelay), rejecting with an AbortError as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  const delay = clampDelay(ms);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delay);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
