import type { RouteContext } from './context';

/**
 * Charges a request's cost to the caller's balance: at once, or with the fault item
 * `settle-ms=<n>` only `n` ms after the response ended, as a real gateway that settles charges
 * asynchronously (a client reading the balance right after the reply sees no change yet).
 */
export function chargeRequest(ctx: RouteContext, usd: number): void {
  const settleMs = ctx.reply.fault?.settleMs;
  if (settleMs === undefined) {
    ctx.state.quota.charge(ctx.key, usd);
    return;
  }
  void ctx.record.closed.then(() => {
    // Unref'd: a pending charge never keeps a test process (or a closing gateway) alive.
    setTimeout(() => ctx.state.quota.charge(ctx.key, usd), settleMs).unref();
  });
}
