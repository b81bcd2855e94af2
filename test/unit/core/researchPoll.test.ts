// The research poll schedule (pure) and ResearchPollLoop on a fake clock: every delay here is
// exact, because no real time passes.
import * as assert from 'node:assert/strict';
import { GatewayError, RateLimitError } from '../../../src/core/errors';
import { nextPollDelay } from '../../../src/core/research/pollSchedule';
import { ResearchPollLoop } from '../../../src/core/research/pollLoop';
import type { PollDecision, PollInput, PollJob, PollOptions } from '../../../src/core/research/pollSchedule';
import { FakeClock, FakePoller, settle } from './researchPollFakes';

const NOW = Date.parse('2025-01-01T12:00:00.000Z');
const ago = (ms: number): string => new Date(NOW - ms).toISOString();
const SEC = 1000;
const MIN = 60 * SEC;

function input(jobs: readonly PollJob[], extra: Partial<PollInput> = {}): PollInput {
  return { now: NOW, jobs, focused: true, viewVisible: true, consecutiveErrors: 0, ...extra };
}

function delayOf(decision: PollDecision): number {
  assert.equal(decision.kind, 'wait', `expected a wait, got ${JSON.stringify(decision)}`);
  return decision.kind === 'wait' ? decision.delayMs : NaN;
}

describe('research poll schedule (nextPollDelay)', () => {
  it('polls a job under a minute old every few seconds (minIntervalMs)', () => {
    assert.equal(delayOf(nextPollDelay(input([{ status: 'queued', createdAt: ago(1 * SEC) }]))), 3000);
    assert.equal(delayOf(nextPollDelay(input([{ status: 'running', createdAt: ago(59 * SEC) }]))), 3000);
  });

  it('grows smoothly toward maxIntervalMs for jobs a few minutes old, never above it', () => {
    const delays = [1, 1.5, 2, 3, 4, 5, 10, 60].map((m) =>
      delayOf(nextPollDelay(input([{ status: 'running', createdAt: ago(m * MIN) }]))),
    );
    for (let i = 1; i < delays.length; i++)
      assert.ok((delays[i] as number) >= (delays[i - 1] as number), `not monotonic: ${delays.join(', ')}`);
    assert.ok((delays[2] as number) > 10_000 && (delays[2] as number) < 25_000, `2 min: ${delays[2]}`);
    assert.ok((delays[5] as number) > 27_000, `5 min: ${delays[5]}`);
    assert.ok(
      delays.every((d) => d <= 30_000),
      delays.join(', '),
    );
    assert.equal(delays[7], 30_000);
    // Smooth: no step between neighbouring seconds larger than a second of delay.
    for (let s = 50; s < 400; s++) {
      const a = delayOf(nextPollDelay(input([{ status: 'running', createdAt: ago(s * SEC) }])));
      const b = delayOf(nextPollDelay(input([{ status: 'running', createdAt: ago((s + 1) * SEC) }])));
      assert.ok(b - a >= 0 && b - a < 1000, `step at ${s} s: ${a} -> ${b}`);
    }
  });

  it('follows the youngest in-progress job and ignores finished ones', () => {
    const jobs = [
      { status: 'running', createdAt: ago(10 * MIN) },
      { status: 'queued', createdAt: ago(5 * SEC) },
      { status: 'succeeded', createdAt: ago(1 * SEC) },
    ];
    assert.equal(delayOf(nextPollDelay(input(jobs))), 3000);
    // The young job is finished: the 10-minute-old one sets the pace (close to the 30 s maximum).
    assert.ok(delayOf(nextPollDelay(input([jobs[0] as PollJob, { status: 'failed', createdAt: ago(0) }]))) > 29_000);
  });

  it('treats a missing, invalid or future createdAt as young', () => {
    for (const createdAt of [undefined, 'not a date', '', new Date(NOW + 10 * MIN).toISOString()]) {
      const job: PollJob = createdAt === undefined ? { status: 'running' } : { status: 'running', createdAt };
      assert.equal(
        delayOf(nextPollDelay(input([job, { status: 'running', createdAt: ago(20 * MIN) }]))),
        3000,
        String(createdAt),
      );
    }
  });

  it('stops when no job is in progress (every terminal status, and an empty list)', () => {
    assert.deepEqual(nextPollDelay(input([])), { kind: 'stop' });
    const terminal = ['succeeded', 'completed', 'failed', 'error', 'cancelled', 'canceled', 'timeout', 'SUCCEEDED'];
    assert.deepEqual(nextPollDelay(input(terminal.map((status) => ({ status, createdAt: ago(0) })))), { kind: 'stop' });
    // Stop wins over pause and over errors: nothing is left to watch.
    assert.deepEqual(
      nextPollDelay(input([{ status: 'succeeded' }], { focused: false, viewVisible: false, consecutiveErrors: 3 })),
      { kind: 'stop' },
    );
  });

  it('keeps polling a job whose status it does not know', () => {
    assert.equal(
      delayOf(nextPollDelay(input([{ status: 'succeeded' }, { status: 'summarizing', createdAt: ago(5 * SEC) }]))),
      3000,
    );
    assert.equal(nextPollDelay(input([{ status: '' }])).kind, 'wait');
  });

  it('pauses only when the window is unfocused AND the view is hidden', () => {
    const jobs = [{ status: 'running', createdAt: ago(0) }];
    assert.deepEqual(nextPollDelay(input(jobs, { focused: false, viewVisible: false })), { kind: 'paused' });
    assert.equal(nextPollDelay(input(jobs, { focused: true, viewVisible: false })).kind, 'wait');
    assert.equal(nextPollDelay(input(jobs, { focused: false, viewVisible: true })).kind, 'wait');
  });

  it('backs off x2 per consecutive error from the age interval, capped at maxErrorBackoffMs', () => {
    const young = [{ status: 'running', createdAt: ago(0) }];
    const delays = [1, 2, 3, 4, 5, 6, 50].map((consecutiveErrors) =>
      delayOf(nextPollDelay(input(young, { consecutiveErrors }))),
    );
    assert.deepEqual(delays, [6000, 12_000, 24_000, 48_000, 96_000, 120_000, 120_000]);
    const old = [{ status: 'running', createdAt: ago(60 * MIN) }];
    assert.deepEqual(
      [1, 2, 3].map((consecutiveErrors) => delayOf(nextPollDelay(input(old, { consecutiveErrors })))),
      [60_000, 120_000, 120_000],
    );
  });

  it('never polls sooner than Retry-After, and backs off past a short one', () => {
    const young = [{ status: 'running', createdAt: ago(0) }];
    assert.equal(delayOf(nextPollDelay(input(young, { consecutiveErrors: 1, retryAfterMs: 45_000 }))), 45_000);
    assert.equal(delayOf(nextPollDelay(input(young, { consecutiveErrors: 1, retryAfterMs: 300_000 }))), 300_000);
    assert.equal(delayOf(nextPollDelay(input(young, { consecutiveErrors: 1, retryAfterMs: 1000 }))), 6000);
    const decision = nextPollDelay(input(young, { consecutiveErrors: 1, retryAfterMs: 45_000 }));
    assert.match(decision.kind === 'wait' ? decision.reason : '', /retry after 45 s/);
  });

  it('honours options and is deterministic', () => {
    const options: PollOptions = { minIntervalMs: 200, maxIntervalMs: 2000, maxErrorBackoffMs: 5000 };
    const young = [{ status: 'running', createdAt: ago(0) }];
    assert.equal(delayOf(nextPollDelay(input(young), options)), 200);
    assert.equal(delayOf(nextPollDelay(input([{ status: 'running', createdAt: ago(60 * MIN) }]), options)), 2000);
    assert.equal(delayOf(nextPollDelay(input(young, { consecutiveErrors: 10 }), options)), 5000);
    const same = input([{ status: 'running', createdAt: ago(150 * SEC) }], { consecutiveErrors: 2 });
    assert.deepEqual(nextPollDelay(same), nextPollDelay(same));
  });
});

describe('ResearchPollLoop (fake clock)', () => {
  let clock: FakeClock;
  let poller: FakePoller;
  let loops: ResearchPollLoop[];

  const make = (extra: { schedule?: PollOptions; onError?: (error: unknown) => void } = {}): ResearchPollLoop => {
    const loop = new ResearchPollLoop({ poll: poller.poll, clock, ...extra });
    loops.push(loop);
    return loop;
  };
  const running = (ageMs: number): PollJob => ({ status: 'running', createdAt: clock.isoAgo(ageMs) });

  beforeEach(() => {
    clock = new FakeClock();
    poller = new FakePoller();
    loops = [];
  });
  afterEach(() => {
    for (const loop of loops) loop.dispose();
  });

  it('polls a young job after minIntervalMs, not before, and an old one much later', async () => {
    poller.auto = () => [running(5 * SEC)];
    const loop = make();
    loop.start([running(0)]);
    assert.equal(loop.state, 'waiting');
    assert.equal(loop.nextPollAt, clock.now() + 3000);
    await clock.advance(2999);
    assert.equal(poller.count, 0);
    await clock.advance(1);
    assert.equal(poller.count, 1);
    assert.equal(loop.state, 'waiting');

    poller.auto = () => [running(10 * MIN)];
    await clock.advance(3000);
    assert.equal(poller.count, 2);
    assert.ok(loop.nextPollAt - clock.now() >= 29_000, `old job waits ${loop.nextPollAt - clock.now()} ms`);
    await clock.advance(28_000);
    assert.equal(poller.count, 2);
  });

  it('stops by itself once every job is terminal, and stays stopped', async () => {
    const loop = make();
    poller.auto = [{ status: 'running', createdAt: clock.isoAgo(0) }];
    loop.start([running(0)]);
    await clock.advance(9000);
    assert.equal(poller.count, 3);
    poller.auto = [{ status: 'succeeded' }, { status: 'failed' }];
    await clock.advance(3000);
    assert.equal(poller.count, 4);
    assert.equal(loop.state, 'stopped');
    assert.equal(loop.nextPollAt, undefined);
    assert.equal(clock.pendingTimers, 0);
    await clock.advance(10 * MIN);
    assert.equal(poller.count, 4);
    // start again (a new job) runs again.
    poller.auto = [running(0)];
    loop.start([running(0)]);
    assert.equal(loop.state, 'waiting');
  });

  it('does nothing for a start with nothing in progress; start is a no-op while running', async () => {
    const loop = make();
    loop.start([{ status: 'succeeded' }]);
    assert.equal(loop.state, 'stopped');
    loop.start([running(0)]);
    const first = loop.nextPollAt;
    await clock.advance(1000);
    loop.start([running(0)]);
    assert.equal(loop.nextPollAt, first, 'a second start must not reschedule');
  });

  it('keeps polling while a job has an unknown status', async () => {
    poller.auto = () => [{ status: 'succeeded' }, { status: 'post-processing', createdAt: clock.isoAgo(1000) }];
    const loop = make();
    loop.start([running(0)]);
    await clock.advance(30_000);
    assert.equal(poller.count, 10);
    assert.equal(loop.state, 'waiting');
  });

  it('pauses when unfocused and hidden, and polls at once on focus', async () => {
    poller.auto = () => [running(0)];
    const loop = make();
    loop.start([running(0)]);
    await clock.advance(3000);
    assert.equal(poller.count, 1);
    loop.setFocus(false);
    assert.equal(loop.state, 'waiting', 'the view is still visible');
    loop.setViewVisible(false);
    assert.equal(loop.state, 'paused');
    assert.equal(clock.pendingTimers, 0);
    await clock.advance(10 * MIN);
    assert.equal(poller.count, 1);
    loop.setFocus(true);
    await settle();
    assert.equal(poller.count, 2, 'focus must poll at once');
    assert.equal(loop.state, 'waiting');
  });

  it('polls at once when the view becomes visible during a long wait, but not twice within minIntervalMs', async () => {
    poller.auto = () => [running(20 * MIN)];
    const loop = make({ schedule: {} });
    loop.setViewVisible(false);
    loop.start([running(20 * MIN)]);
    await clock.advance(30_000);
    assert.equal(poller.count, 1);
    await clock.advance(10_000);
    loop.setViewVisible(true);
    await settle();
    assert.equal(poller.count, 2, 'visibility during a 30 s wait polls at once');
    // Hide and show again 1 s later: the next poll is minIntervalMs after the last one, not now.
    loop.setViewVisible(false);
    loop.setFocus(false);
    assert.equal(loop.state, 'paused');
    await clock.advance(1000);
    loop.setViewVisible(true);
    await settle();
    assert.equal(poller.count, 2);
    assert.equal(loop.nextPollAt, clock.now() + 2000);
    await clock.advance(2000);
    assert.equal(poller.count, 3);
  });

  it('backs off x2 per consecutive error up to the cap, then resets on success', async () => {
    const errors: unknown[] = [];
    poller.auto = () => new GatewayError('HTTP 503', { status: 503 });
    const loop = make({ onError: (error) => errors.push(error) });
    loop.start([running(0)]);
    await clock.advance(3000);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      waits.push((loop.nextPollAt as number) - clock.now());
      await clock.advance((loop.nextPollAt as number) - clock.now());
    }
    assert.deepEqual(waits, [6000, 12_000, 24_000, 48_000, 96_000, 120_000, 120_000]);
    assert.equal(poller.count, 8);
    assert.equal(loop.consecutiveErrors, 8);
    assert.equal(errors.length, 8);
    assert.ok(loop.lastError instanceof GatewayError);

    poller.auto = () => [running(0)];
    await clock.advance((loop.nextPollAt as number) - clock.now());
    assert.equal(loop.consecutiveErrors, 0);
    assert.equal(loop.lastError, undefined);
    assert.equal((loop.nextPollAt as number) - clock.now(), 3000);
  });

  it('honours the Retry-After of the error, even when focus comes back', async () => {
    poller.auto = new RateLimitError('slow down', { status: 429, retryAfterMs: 45_000 });
    const loop = make();
    loop.start([running(0)]);
    await clock.advance(3000);
    assert.equal(poller.count, 1);
    assert.equal((loop.nextPollAt as number) - clock.now(), 45_000);
    loop.setFocus(false);
    loop.setViewVisible(false);
    await clock.advance(5000);
    loop.setFocus(true);
    await settle();
    assert.equal(poller.count, 1, 'focus must not poll inside Retry-After');
    poller.auto = () => [running(0)];
    await clock.advance(39_999);
    assert.equal(poller.count, 1);
    await clock.advance(1);
    assert.equal(poller.count, 2);
  });

  it('keeps retrying after a failure when the gateway was never listed (reload while it is down)', async () => {
    poller.auto = new GatewayError('connect ECONNREFUSED', {});
    const loop = make();
    await loop.pollNow();
    assert.equal(loop.state, 'waiting');
    await clock.advance(6000);
    assert.equal(poller.count, 2);
    poller.auto = [{ status: 'succeeded' }];
    await clock.advance(12_000);
    assert.equal(poller.count, 3);
    assert.equal(loop.state, 'stopped');
  });

  it('never has two requests in flight (a slow poll, pollNow and ticks meanwhile)', async () => {
    const loop = make();
    loop.start([running(0)]);
    await clock.advance(3000);
    assert.equal(loop.state, 'polling');
    assert.equal(poller.count, 1);
    const extra = [loop.pollNow(), loop.pollNow(), loop.pollNow()];
    loop.setFocus(false);
    loop.setFocus(true);
    await clock.advance(5 * MIN);
    assert.equal(poller.count, 1);
    assert.equal(poller.inFlight, 1);
    poller.last().resolve([running(0)]);
    await settle();
    // The pollNow calls made during the slow one ask for exactly one follow-up (it may list a job they just created).
    assert.equal(poller.count, 2);
    poller.last().resolve([running(0)]);
    await Promise.all(extra);
    assert.equal(poller.maxInFlight, 1);
    assert.equal(loop.state, 'waiting');
    assert.equal(clock.pendingTimers, 1);
  });

  it('dispose aborts the request in flight and schedules nothing more', async () => {
    const errors: unknown[] = [];
    const loop = make({ onError: (error) => errors.push(error) });
    loop.start([running(0)]);
    await clock.advance(3000);
    const call = poller.last();
    assert.equal(call.signal.aborted, false);
    loop.dispose();
    assert.equal(call.signal.aborted, true);
    await settle();
    assert.equal(loop.state, 'stopped');
    assert.equal(errors.length, 0, 'our own abort is not an error');
    assert.equal(clock.pendingTimers, 0);
    await clock.advance(10 * MIN);
    await loop.pollNow();
    loop.start([running(0)]);
    assert.equal(poller.count, 1);
  });

  it('stop lets the request in flight finish and schedules nothing after it', async () => {
    const loop = make();
    loop.start([running(0)]);
    await clock.advance(3000);
    loop.stop();
    assert.equal(poller.last().signal.aborted, false);
    poller.last().resolve([running(0)]);
    await settle();
    assert.equal(loop.state, 'stopped');
    await clock.advance(10 * MIN);
    assert.equal(poller.count, 1);
  });

  it('sends one poll per tick whatever the number of jobs', async () => {
    const many = (): PollJob[] =>
      Array.from({ length: 250 }, (_, i) => ({
        status: i % 2 ? 'queued' : 'running',
        createdAt: clock.isoAgo(i * 1000),
      }));
    poller.auto = many;
    const loop = make();
    loop.start(many());
    await clock.advance(60_000);
    // The youngest job is re-created young on every list, so every tick is 3 s: 20 ticks, 20 calls.
    assert.equal(poller.count, 20);
    assert.equal(poller.maxInFlight, 1);
  });
});
