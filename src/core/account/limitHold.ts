// A request refused for a usage or plan limit (a 429 that said so, perhaps in words only) while the
// balance may still read above zero (a spend window, a plan cap): the balance stays "out of
// credits" until the window's reset time passes or the balance rises above the one seen at the
// refusal (new credits), instead of flipping back to a balance the gateway will not let us spend.
import type { CreditsReading } from './creditsState';

/** How long a refusal holds when nothing else ends it. */
export const LIMIT_HOLD_MS = 60 * 60_000;

export class LimitHold {
  private held: { credits: number | undefined; readonly since: number } | undefined;

  /** A refusal at `now`, with the balance last read (undefined: the next reading sets it). */
  hold(credits: number | undefined, now: number): void {
    this.held = { credits, since: now };
  }

  clear(): void {
    this.held = undefined;
  }

  /** A reading arrived for a refusal that had none: it becomes the balance to rise above. */
  noteCredits(credits: number): void {
    if (this.held) this.held.credits ??= credits;
  }

  /** Whether the refusal still stands against this reading; forgets it once it is over. */
  holds(reading: CreditsReading, now: number): boolean {
    const held = this.held;
    if (!held) return false;
    const reset = Date.parse(reading.reset);
    // The quota's reset may be the end of a pay period, weeks away, while the limit that refused us
    // was a shorter window: after LIMIT_HOLD_MS the balance shows again (a refusal sets it again).
    const windowOver = (Number.isFinite(reset) && now >= reset) || now - held.since >= LIMIT_HOLD_MS;
    const toppedUp = held.credits !== undefined && reading.credits > held.credits;
    // A zero balance tells the story itself ($0.00 in the error colour), and any rise from it shows.
    if (windowOver || toppedUp || reading.credits <= 0) {
      this.held = undefined;
      return false;
    }
    held.credits ??= reading.credits;
    return true;
  }
}
