// The research poll against the local gateway answering its list with a 30-day Retry-After: the
// loop must wait (at most 10 minutes), not fire at once. The check is on state (what the gateway
// recorded, when the loop plans its next poll, what it asked the clock), never on elapsed time.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/core/transport/client';
import { ResearchPollLoop } from '../../../src/core/research/pollLoop';
import type { PollClock } from '../../../src/core/research/pollLoop';
import { FAULT_HEADER, startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';

const THIRTY_DAYS_S = 30 * 24 * 60 * 60;
/** The longest delay a Node timer holds. */
const NODE_TIMER_MAX_MS = 2 ** 31 - 1;

describe('research polling against a 30-day Retry-After (local gateway)', function () {
  this.timeout(20_000);
  let gateway: LocalGateway;

  before(async () => {
    gateway = await startGateway({ research: { queuedMs: 60_000, runningMs: 60_000 } });
  });
  after(async () => {
    await gateway.stop();
  });

  it('plans the next list request at most 10 minutes ahead, and asks no timer for more than it can hold', async () => {
    const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
    await client.research.create('a job that stays running');
    gateway.clearRequests();
    // The real timers, fed exactly what the loop asks for: an unclamped 30 days would fire after 1 ms.
    const asked: number[] = [];
    const clock: PollClock = {
      now: () => Date.now(),
      setTimeout: (fn, ms) => {
        asked.push(ms);
        return setTimeout(fn, ms);
      },
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
    const loop = new ResearchPollLoop({
      poll: async (signal) =>
        (
          await client.research.list(
            { limit: 100 },
            { signal, headers: { [FAULT_HEADER]: `status=503;retry-after=${THIRTY_DAYS_S}` } },
          )
        ).docs,
      clock,
    });
    try {
      await loop.pollNow();
      const lists = gateway.requests.filter((r) => r.path === '/api/v1/research');
      assert.equal(lists.length, 1, 'one list request: a Retry-After beyond 60 s is not retried by the client');
      assert.equal(lists[0]?.status, 503);
      assert.equal(loop.state, 'waiting');
      const ahead = (loop.nextPollAt as number) - Date.now();
      assert.ok(ahead > 590_000 && ahead <= 600_000, `next poll in ${ahead} ms`);
      assert.ok(
        asked.length > 0 && asked.every((ms) => ms >= 0 && ms <= NODE_TIMER_MAX_MS),
        `delays asked: ${asked.join(', ')}`,
      );
    } finally {
      loop.dispose();
    }
  });
});
