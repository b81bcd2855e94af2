// The per-reply spend cap: after each round of a reply, its running cost (the rounds' summed usage
// times the catalog's prices) is compared with the user's cap, and a reply past it asks for no
// more rounds. Without prices the cap cannot be checked while the reply runs (a balance difference
// arrives seconds after the reply): the caller says so instead of ignoring the cap silently.
import { pricedCost, type TokenPricing } from '../../models/modelPricing';
import type { TokenUsage } from '../../../shared/chatModel';

/** What the runner asks after a round: undefined to go on, or the spend that passed the cap. */
export type SpendCheck = (
  usage: TokenUsage | undefined,
) => { readonly spent: number; readonly cap: number } | undefined;

/** A reply past its cap: what it spent (USD), the cap, and whether part of the spend is an estimate (capCharge.ts). */
export interface SpendCapPassed {
  readonly spent: number;
  readonly cap: number;
  readonly estimated: boolean;
}

export type SpendCapPlan =
  /** No cap set (0): nothing to check. */
  | { readonly kind: 'none' }
  /** Set, but the catalog lists no prices for the model: it cannot be enforced (say so once). */
  | { readonly kind: 'unenforceable'; readonly cap: number }
  | { readonly kind: 'enforced'; readonly cap: number; readonly check: SpendCheck };

/** How a reply with this cap (USD, 0 = none) and these prices keeps to it. */
export function spendCapPlan(cap: number, pricing: TokenPricing | undefined): SpendCapPlan {
  if (!(cap > 0)) return { kind: 'none' };
  if (!pricing) return { kind: 'unenforceable', cap };
  return {
    kind: 'enforced',
    cap,
    check: (usage) => {
      if (!usage) return undefined;
      const spent = pricedCost(pricing, usage);
      // "Passes" the cap: reaching it exactly still leaves the cap kept.
      return spent > cap ? { spent, cap } : undefined;
    },
  };
}
