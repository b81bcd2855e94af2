// What a reply cost: the credit balance read before it and after it. Replies that overlap (two
// chats, or a chat and another model request) make the difference include others' costs, so the
// figure says it is an estimate then.
import type { GatewayClient } from '../../core/index';
import type { ReplyCost } from '../../shared/chatModel';

const QUOTA_TIMEOUT_MS = 10_000;

export class CostMeter {
  private active = 0;
  /** Bumped by every measured or reported request; a reply that saw it move was overlapped. */
  private generation = 0;
  private ignoreNext = 0;

  /** Another model request of the extension ran (e.g. the @unified participant). */
  noteOtherUse(): void {
    if (this.ignoreNext > 0) this.ignoreNext--;
    else this.generation++;
  }

  /**
   * Starts measuring: reads the balance now (in parallel with the request, so the first token is
   * not delayed; gateways charge when a request ends). Call `finish` when the reply ended.
   */
  start(client: GatewayClient): { finish(): Promise<ReplyCost | undefined> } {
    const overlappedAtStart = this.active > 0;
    this.active++;
    const generation = ++this.generation;
    const before = client.quota.get({ timeoutMs: QUOTA_TIMEOUT_MS }).then((q) => q.credits, () => undefined);
    let finished = false;
    return {
      finish: async (): Promise<ReplyCost | undefined> => {
        if (finished) return undefined;
        finished = true;
        const overlapped = overlappedAtStart || this.active > 1 || this.generation !== generation;
        // Our own model-use report (made right after this call) must not count as someone else's.
        this.ignoreNext++;
        try {
          const start = await before;
          const end = await client.quota.get({ timeoutMs: QUOTA_TIMEOUT_MS }).then((q) => q.credits, () => undefined);
          if (start === undefined || end === undefined) return undefined;
          // A reset or top-up during the reply makes the balance rise: no cost can be told then.
          const spent = start - end;
          return spent >= 0 ? { credits: Math.round(spent * 1e6) / 1e6, estimate: overlapped } : undefined;
        } finally {
          this.active--;
          this.generation++;
        }
      },
    };
  }
}
