// The one clamp every timer delay goes through. Node's timers hold at most 2^31-1 ms (24.8 days):
// a longer delay, like NaN or a negative one, makes setTimeout fire after 1 ms, so a server's
// Retry-After of 30 days would turn a "wait" into a loop that spins. Delays that come from a server
// (Retry-After), a setting or arithmetic on either pass through here before they reach a timer.

/** The longest delay a Node timer honours; past it setTimeout fires at once. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * `ms` as a delay a timer will honour: an integer from 0 to `max` (itself at most
 * MAX_TIMER_DELAY_MS). NaN, negative and non-numbers give `fallback` (clamped too); +Infinity
 * and anything past `max` give `max`.
 */
export function clampDelay(ms: number, max: number = MAX_TIMER_DELAY_MS, fallback = 0): number {
  const ceiling = Number.isFinite(max)
    ? Math.min(Math.max(0, Math.floor(max)), MAX_TIMER_DELAY_MS)
    : MAX_TIMER_DELAY_MS;
  if (typeof ms !== 'number' || Number.isNaN(ms) || ms < 0) {
    return typeof fallback === 'number' && fallback >= 0 ? Math.min(Math.ceil(fallback), ceiling) : 0;
  }
  return Math.min(Math.ceil(ms), ceiling);
}
