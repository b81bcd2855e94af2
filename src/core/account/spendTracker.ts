// Spend measured from successive quota readings (the gateway reports a balance, not a spend). Spend
// is the sum of the decreases between successive readings; an increase (a top-up, or new credits
// after the period's reset) is not negative spend: it only becomes the baseline for the next one.

export interface CreditReading {
  credits: number;
  /** Epoch milliseconds. */
  at: number;
}

/** Readings older than this are dropped; windows longer than this see only this much. */
export const SPEND_RETENTION_MS = 2 * 60 * 60_000;
/** A hard cap too, so a caller recording in a tight loop cannot grow memory without bound. */
export const MAX_SPEND_READINGS = 2_000;

const HOUR = 60 * 60_000;
const MIN_BURN_SPAN_MS = 60_000;

export class SpendTracker {
  private readonly now: () => number;
  /** In time order. readings[0] may be older than the retention: it is the baseline of readings[1]. */
  private readings: CreditReading[] = [];
  private sessionSpend = 0;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /**
   * Adds a reading (`at` defaults to now). Non-finite values are ignored, and so is a reading older
   * than the latest one: an answer that arrives late must not count the same spend twice.
   */
  record(credits: number, at: number = this.now()): void {
    if (!Number.isFinite(credits) || !Number.isFinite(at)) return;
    const last = this.readings.at(-1);
    if (last && at < last.at) return;
    if (last && credits < last.credits) this.sessionSpend += last.credits - credits;
    this.readings.push({ credits, at });
    this.prune();
  }

  /** Everything spent since this tracker was created (a running sum, not limited by the retention). */
  spentThisSession(): number {
    return this.sessionSpend;
  }

  /**
   * Spend in the last `ms` (up to SPEND_RETENTION_MS): the decreases between successive readings
   * whose later reading is inside the window (at >= now - ms). Nothing is interpolated.
   */
  spentInLast(ms: number): number {
    return this.windowPairs(ms).spend;
  }

  /**
   * USD per hour over the last hour: the last hour's spend divided by the time its readings span
   * (from the baseline of the first counted decrease to the latest reading). Undefined with fewer
   * than two readings or when they span less than a minute: too little to extrapolate from.
   */
  burnRatePerHour(): number | undefined {
    if (this.readings.length < 2) return undefined;
    const { spend, since } = this.windowPairs(HOUR);
    const latest = this.readings.at(-1);
    if (since === undefined || !latest) return undefined;
    const span = latest.at - since;
    if (span < MIN_BURN_SPAN_MS) return undefined;
    return (spend / span) * HOUR;
  }

  latest(): CreditReading | undefined {
    const last = this.readings.at(-1);
    return last ? { ...last } : undefined;
  }

  /** The spend of the pairs whose later reading is in the window, and when the first such pair began. */
  private windowPairs(ms: number): { spend: number; since: number | undefined } {
    const from = this.now() - Math.max(0, ms);
    let spend = 0;
    let since: number | undefined;
    for (let i = 1; i < this.readings.length; i++) {
      const before = this.readings[i - 1];
      const after = this.readings[i];
      if (!before || !after || after.at < from) continue;
      since ??= before.at;
      if (after.credits < before.credits) spend += before.credits - after.credits;
    }
    return { spend, since };
  }

  private prune(): void {
    const horizon = this.now() - SPEND_RETENTION_MS;
    // Keep the newest reading before the horizon: it is the baseline of the first one after it.
    let firstKept = 0;
    while (firstKept + 1 < this.readings.length && (this.readings[firstKept + 1]?.at ?? Infinity) < horizon)
      firstKept++;
    firstKept = Math.max(firstKept, this.readings.length - MAX_SPEND_READINGS);
    if (firstKept > 0) this.readings = this.readings.slice(firstKept);
  }
}
