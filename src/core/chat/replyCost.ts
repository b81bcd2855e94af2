// What a reply cost. Two sources, and the chat says which:
// - pricing: the catalog lists the model's token prices and the gateway reported the reply's
//   usage: their product, exact and at once.
// - balance: the credit balance read before the reply and after it. A real gateway settles the
//   charge some time after the reply ends, so "after" is re-read with growing pauses until the
//   balance moves (bounded: a key whose balance never moves, e.g. a subscription, gives up).
// Replies that overlap (two chats, or a chat and another model request) make a balance
// difference include others' costs, so the figure says it is an estimate then. The clock is
// injected, so the policy is unit-tested without sleeping.
import { pricedCost, type TokenPricing } from '../models/modelPricing';
import type { GatewayClient } from '../transport/client';
import type { ReplyCost, TokenUsage } from '../../shared/chatModel';

const QUOTA_TIMEOUT_MS = 10_000;

/**
 * Pauses before each "after" reading: the first at once (a gateway that charges when the stream
 * ends is read without delay), then growing, about 11 s in all.
 */
export const SETTLE_DELAYS_MS: readonly number[] = [0, 300, 700, 1500, 3000, 6000];

/** One balance reading in USD, undefined when it could not be read. */
export type BalanceReader = () => Promise<number | undefined>;

export function balanceReader(client: Pick<GatewayClient, 'quota'>): BalanceReader {
  return () =>
    client.quota.get({ timeoutMs: QUOTA_TIMEOUT_MS }).then(
      (q) => q.credits,
      () => undefined,
    );
}

export interface CostMeterOptions {
  /** Resolves after `ms` (tests pass one that resolves at once and records the pauses). */
  readonly wait?: (ms: number) => Promise<void>;
  readonly delays?: readonly number[];
}

interface ReplyCostEnd {
  /** The model's token prices from the catalog, when it lists them. */
  readonly pricing?: TokenPricing;
  /** The reply's usage as the gateway reported it (summed over tool rounds). */
  readonly usage?: TokenUsage;
  /** Called once when the first "after" reading shows no change yet. */
  readonly pending?: () => void;
}

export interface CostMeasurement {
  /** The cost, or undefined when none can be told (no reading, or the balance rose: a top-up or reset). */
  finish(end?: ReplyCostEnd): Promise<ReplyCost | undefined>;
}

const defaultWait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const round = (usd: number): number => Math.round(usd * 1e6) / 1e6;

export class CostMeter {
  private active = 0;
  /** Bumped by every measured or reported request; a reply that saw it move was overlapped. */
  private generation = 0;
  private ignoreNext = 0;
  private readonly wait: (ms: number) => Promise<void>;
  private readonly delays: readonly number[];

  constructor(options: CostMeterOptions = {}) {
    this.wait = options.wait ?? defaultWait;
    this.delays = options.delays ?? SETTLE_DELAYS_MS;
  }

  /** Another model request of the extension ran (e.g. the @unified participant). */
  noteOtherUse(): void {
    if (this.ignoreNext > 0) this.ignoreNext--;
    else this.generation++;
  }

  /**
   * Starts measuring: reads the balance now (in parallel with the request, so the first token is
   * not delayed). Call `finish` when the reply ended.
   */
  start(read: BalanceReader): CostMeasurement {
    const overlappedAtStart = this.active > 0;
    this.active++;
    const generation = ++this.generation;
    const before = read();
    let finished = false;
    return {
      finish: async (end: ReplyCostEnd = {}): Promise<ReplyCost | undefined> => {
        if (finished) return undefined;
        finished = true;
        // Our own model-use report (made right after this call) must not count as someone else's.
        this.ignoreNext++;
        try {
          if (end.pricing && end.usage)
            return { credits: pricedCost(end.pricing, end.usage), estimate: false, source: 'pricing' };
          return await this.settle(
            before,
            read,
            () => overlappedAtStart || this.active > 1 || this.generation !== generation,
            end.pending,
          );
        } finally {
          this.active--;
          this.generation++;
        }
      },
    };
  }

  /** Re-reads the balance until it moves from `before`, at most once per pause of the policy. */
  private async settle(
    before: Promise<number | undefined>,
    read: BalanceReader,
    overlapped: () => boolean,
    pending?: () => void,
  ): Promise<ReplyCost | undefined> {
    const start = await before;
    if (start === undefined) return undefined;
    let toldPending = false;
    for (const delay of this.delays) {
      if (delay > 0) await this.wait(delay);
      const now = await read();
      if (now === undefined) return undefined;
      if (now > start) return undefined;
      if (now < start) return { credits: round(start - now), estimate: overlapped(), source: 'balance' };
      if (!toldPending) {
        toldPending = true;
        pending?.();
      }
    }
    // The balance never moved: the reply cost nothing that this key is charged for (or the
    // gateway settles later than we wait). Said as such, not as a cost of zero.
    return { credits: 0, estimate: overlapped(), source: 'balance' };
  }
}
