// Every delay that reaches a timer is clamped: a Retry-After of 30 days (past the 2^31-1 ms a Node
// timer holds, where setTimeout fires after 1 ms) must make the research poll wait, not spin.
// The loop runs on a fake clock that fires timers the way Node does, so the count of polls in a
// stretch of virtual time is exact: no real time passes and nothing depends on the machine's speed.
import * as assert from 'node:assert/strict';
import { clampDelay, MAX_TIMER_DELAY_MS } from '../../../src/core/transport/delay';
import { nextPollDelay } from '../../../src/core/research/pollSchedule';
import { parseRetryAfter } from '../../../src/core/transport/retry';
import { RateLimitError } from '../../../src/core/errors';
import { ResearchPollLoop } from '../../../src/core/research/pollLoop';
import { retryDelay } from '../../../src/core/transport/retry';
import { FakeClock, FakePoller } from './researchPollFakes';

const DAY = 24 * 60 * 60 * 1000;
const THIRTY_DAYS = 30 * DAY;
const NOW = Date.parse('2025-01-01T12:00:00.000Z');
/** What Node's timers hold (a fact of Node, kept here so the fake below does not depend on the code under test). */
const NODE_TIMER_MAX_MS = 2 ** 31 - 1;

/** Node's timers: a delay above 2^31-1, below 1 or NaN fires after 1 ms (see setTimeout in Node's docs). */
class NodeTimerClock extends FakeClock {
  readonly asked: number[] = [];

  override setTimeout(fn: () => void, ms: number): unknown {
    this.asked.push(ms);
    return super.setTimeout(fn, ms > NODE_TIMER_MAX_MS || !(ms >= 1) ? 1 : ms);
  }
}

describe('delay clamp (Retry-After of any size cannot make a loop spin)', () => {
  it('clampDelay gives an integer a timer honours: NaN, negative, Infinity and past 24.8 days included', () => {
    assert.equal(MAX_TIMER_DELAY_MS, NODE_TIMER_MAX_MS);
    assert.equal(clampDelay(1500), 1500);
    assert.equal(clampDelay(1.2), 2, 'rounded up: never sooner than asked');
    assert.equal(clampDelay(THIRTY_DAYS), MAX_TIMER_DELAY_MS);
    assert.equal(clampDelay(Number.POSITIVE_INFINITY), MAX_TIMER_DELAY_MS);
    assert.equal(clampDelay(Number.NaN), 0);
    assert.equal(clampDelay(-5), 0);
    assert.equal(clampDelay(Number.NaN, 60_000, 500), 500, 'the fallback for a value that says nothing');
    assert.equal(clampDelay(THIRTY_DAYS, 60_000), 60_000);
    assert.equal(clampDelay(10, Number.POSITIVE_INFINITY), 10);
  });

  it('parses Retry-After into finite, non-negative milliseconds (HTTP date in the past is 0)', () => {
    assert.equal(parseRetryAfter({ 'retry-after': String(THIRTY_DAYS / 1000) }), THIRTY_DAYS);
    assert.equal(parseRetryAfter({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }, NOW), 0);
    assert.equal(parseRetryAfter({ 'retry-after': new Date(NOW + 90_000).toUTCString() }, NOW), 90_000);
    const huge = parseRetryAfter({ 'retry-after': '9'.repeat(400) });
    assert.ok(huge !== undefined && Number.isFinite(huge) && huge > MAX_TIMER_DELAY_MS, String(huge));
    for (const bad of ['-5', 'NaN', 'soon', '']) assert.equal(parseRetryAfter({ 'retry-after': bad }), undefined, bad);
  });

  it('retries honour Retry-After up to 60 s; a longer one is not waited for; NaN or negative backs off as usual', () => {
    assert.equal(retryDelay(0, 30_000), 30_000);
    assert.equal(retryDelay(0, 0), 0);
    assert.equal(retryDelay(0, THIRTY_DAYS), undefined);
    for (const bad of [Number.NaN, -1]) {
      const delay = retryDelay(0, bad, () => 0);
      assert.equal(delay, 500, `${bad}: the first backoff step`);
    }
  });

  it('the poll schedule honours a Retry-After up to 10 minutes and says so', () => {
    const running = [{ status: 'running', createdAt: new Date(NOW - 1000).toISOString() }];
    const decision = nextPollDelay({
      now: NOW,
      jobs: running,
      focused: true,
      viewVisible: true,
      consecutiveErrors: 1,
      retryAfterMs: THIRTY_DAYS,
    });
    assert.deepEqual(decision.kind === 'wait' && decision.delayMs, 600_000);
    assert.match(
      decision.kind === 'wait' ? decision.reason : '',
      /2592000 s; waiting 600 s, the longest this client waits between polls/,
    );
    for (const retryAfterMs of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      const other = nextPollDelay({
        now: NOW,
        jobs: running,
        focused: true,
        viewVisible: true,
        consecutiveErrors: 1,
        retryAfterMs,
      });
      assert.ok(
        other.kind === 'wait' && other.delayMs >= 3000 && other.delayMs <= 600_000,
        `${retryAfterMs}: ${JSON.stringify(other)}`,
      );
    }
  });

  it('a research poll answered with a 30-day Retry-After waits (one poll per 10 min), it does not spin', async () => {
    const clock = new NodeTimerClock(NOW);
    const poller = new FakePoller();
    poller.auto = new RateLimitError('slow down', { status: 429, retryAfterMs: THIRTY_DAYS });
    const loop = new ResearchPollLoop({ poll: poller.poll, clock });
    try {
      await loop.pollNow();
      assert.equal(poller.count, 1);
      // A minute of virtual time: before the clamp, the 30-day timer fired after 1 ms, again and
      // again (thousands of polls). FakeClock.advance fires at most 10,000 timers, so this is bounded.
      await clock.advance(60_000);
      assert.equal(poller.count, 1, `${poller.count} polls in one minute`);
      assert.equal(loop.state, 'waiting');
      assert.equal((loop.nextPollAt as number) - clock.now(), 540_000, 'the next poll 10 minutes after the first');
      // Focus coming back must not poll inside the (capped) Retry-After either.
      loop.setFocus(false);
      loop.setViewVisible(false);
      loop.setFocus(true);
      await clock.advance(1);
      assert.equal(poller.count, 1);
      // An hour: one poll per 10 minutes.
      await clock.advance(60 * 60_000);
      assert.ok(poller.count >= 6 && poller.count <= 7, `${poller.count} polls in an hour`);
      assert.ok(
        clock.asked.every((ms) => ms >= 0 && ms <= NODE_TIMER_MAX_MS),
        `delays asked: ${clock.asked.join(', ')}`,
      );
    } finally {
      loop.dispose();
    }
  });
});
