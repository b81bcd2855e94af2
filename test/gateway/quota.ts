import { HttpError } from './errors';

/** Round to micro-dollars so repeated subtraction never shows float noise like 24.999999999997. */
function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** The first instant of next month (UTC): the simulated pay period ends there. */
function nextPeriod(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

/** Per-key credit balances in USD that fall with usage. */
export class QuotaBook {
  private readonly credits = new Map<string, number>();

  constructor(initial: Record<string, number>) {
    for (const [key, credits] of Object.entries(initial)) this.credits.set(key, credits);
  }

  has(key: string): boolean {
    return this.credits.has(key);
  }

  get(key: string): { credits: number; reset: string } {
    return { credits: roundUsd(this.credits.get(key) ?? 0), reset: nextPeriod(new Date()) };
  }

  set(key: string, credits: number): void {
    this.credits.set(key, credits);
  }

  /** Throws the out-of-credits 429 (whose type and code say insufficient_quota, so clients do not retry it). */
  ensure(key: string): void {
    if ((this.credits.get(key) ?? 0) > 0) return;
    throw new HttpError(
      429,
      'You have run out of credits for this pay period (local simulation). Add credits or wait for the reset shown by GET /api/v1/quota.',
      'insufficient_quota',
      'insufficient_quota',
    );
  }

  /** Subtracts a cost; the balance stops at zero (the request that crossed it still succeeds, as with real prepaid credit). */
  charge(key: string, usd: number): void {
    const before = this.credits.get(key) ?? 0;
    this.credits.set(key, Math.max(0, roundUsd(before - usd)));
  }
}
