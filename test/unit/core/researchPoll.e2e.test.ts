// ResearchPollLoop with the real client and the local gateway: the loop must stop by itself once
// every job succeeded, having sent only list requests. The loop and the gateway share one fake
// clock (the gateway computes job statuses from it), so the test plays the jobs' whole life, tick
// by tick, without waiting for it; the requests are real.
import * as assert from 'node:assert/strict';
import { startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';
import { classifyResearchStatus } from '../../../src/core/research/researchHelpers';
import { GatewayClient } from '../../../src/core/transport/client';
import { ResearchPollLoop } from '../../../src/core/research/pollLoop';
import type { ResearchJob } from '../../../src/core/types/account';
import { FakeClock, settle } from './researchPollFakes';

describe('ResearchPollLoop against the local gateway', function () {
  this.timeout(30_000);
  let gateway: LocalGateway;
  let loop: ResearchPollLoop | undefined;
  const clock = new FakeClock();

  before(async () => {
    gateway = await startGateway({ research: { queuedMs: 300, runningMs: 1200, now: () => clock.now() } });
  });
  after(async () => {
    loop?.dispose();
    await gateway.stop();
  });

  it('polls with one list request per tick until all jobs succeeded, then stops by itself', async () => {
    // maxRetries 0: the loop does its own backoff; the client's retries would hide failed ticks.
    const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, maxRetries: 0 });
    const created = await Promise.all(
      ['tides', 'glaciers', 'monsoons'].map((topic) => client.research.create(`e2e poll ${topic}`)),
    );
    const ids = created.map((job) => job.id);
    const firstPoll = gateway.requests.length;

    let lastList: ResearchJob[] = [];
    const errors: unknown[] = [];
    loop = new ResearchPollLoop({
      poll: async (signal) => {
        lastList = (await client.research.list({ limit: 100 }, { signal })).docs;
        return lastList;
      },
      clock,
      schedule: { minIntervalMs: 100, maxIntervalMs: 400 },
      onError: (error) => errors.push(error),
    });
    const running = loop;
    /** Until the request in flight (real I/O) has landed; bounded. */
    const landed = async (): Promise<void> => {
      for (let turns = 0; turns < 100_000 && running.state === 'polling'; turns++) await settle();
    };
    const started = clock.now();
    loop.start(created.map((job) => ({ status: job.status })));
    // String(): the assertion would otherwise narrow `state` to 'waiting' for the rest of the test.
    assert.equal(String(loop.state), 'waiting');

    // Each round: the clock moves to the next tick, the tick's list request lands. Bounded: the jobs
    // take 1.5 s of clock time, 100 ms a tick.
    for (let round = 0; round < 100 && running.state !== 'stopped'; round++) {
      await clock.advance(Math.max(0, (running.nextPollAt ?? clock.now()) - clock.now()));
      await landed();
    }
    const elapsed = clock.now() - started;
    assert.equal(loop.state, 'stopped', `still ${loop.state} after ${elapsed} ms`);
    assert.deepEqual(errors, []);

    // Stopped because every job succeeded (and the gateway's list was what the loop saw).
    for (const id of ids) {
      const job = lastList.find((doc) => doc.id === id);
      assert.equal(job?.status, 'succeeded', `job ${id}: ${job?.status}`);
    }
    assert.ok(lastList.every((doc) => classifyResearchStatus(doc.status) !== 'in_progress'));

    const polls = gateway.requests.slice(firstPoll);
    assert.ok(polls.length >= 2, `only ${polls.length} requests: it cannot have watched the jobs change`);
    for (const record of polls)
      assert.equal(`${record.method} ${record.path}`, 'GET /api/v1/research', 'only list requests, never one per job');
    // At most one request per minIntervalMs of clock time (plus the last one), whatever the job count.
    assert.ok(polls.length <= Math.ceil(elapsed / 100) + 1, `${polls.length} requests in ${elapsed} ms`);

    // Nothing more after the stop: no timer left, and a minute later still no request.
    assert.equal(clock.pendingTimers, 0);
    const settled = gateway.requests.length;
    await clock.advance(60_000);
    assert.equal(gateway.requests.length, settled);
  });
});
