import * as assert from 'node:assert/strict';
import { MAX_SPEND_READINGS, SPEND_RETENTION_MS, SpendTracker } from '../../../src/core/account/spendTracker';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** A tracker on a clock the test moves by hand. */
function tracker(start = 1_000_000_000): { spend: SpendTracker; clock: { now: number } } {
  const clock = { now: start };
  return { spend: new SpendTracker(() => clock.now), clock };
}

/** Compares money without tripping over binary fractions (0.1 + 0.2). */
function near(actual: number | undefined, expected: number, what = ''): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≈ ${expected}`);
}

describe('core: spend tracker', () => {
  it('sums the decreases between successive readings', () => {
    const { spend, clock } = tracker();
    assert.equal(spend.spentThisSession(), 0);
    assert.equal(spend.latest(), undefined);
    spend.record(25);
    clock.now += MIN;
    spend.record(24.5);
    clock.now += MIN;
    spend.record(24.5);
    clock.now += MIN;
    spend.record(24.2);
    near(spend.spentThisSession(), 0.8, 'session');
    near(spend.spentInLast(HOUR), 0.8, 'hour');
    assert.deepEqual(spend.latest(), { credits: 24.2, at: clock.now });
  });

  it('a top-up or a reset is not negative spend: it starts a new baseline', () => {
    const { spend, clock } = tracker();
    spend.record(1);
    clock.now += MIN;
    spend.record(0.4); // spent 0.6
    clock.now += MIN;
    spend.record(50); // reset: new credits
    clock.now += MIN;
    spend.record(49); // spent 1 from the new baseline, not 0.6 - 49
    near(spend.spentThisSession(), 1.6, 'session');
    near(spend.spentInLast(HOUR), 1.6, 'hour');
    clock.now += MIN;
    spend.record(0); // out of credits
    near(spend.spentThisSession(), 50.6, 'to zero');
  });

  it('the window counts a decrease when its later reading is inside (inclusive at the edge)', () => {
    const { spend, clock } = tracker();
    const t0 = clock.now;
    spend.record(10, t0);
    spend.record(9, t0 + 10 * MIN); // -1
    spend.record(7, t0 + 40 * MIN); // -2
    spend.record(6.5, t0 + 70 * MIN); // -0.5
    clock.now = t0 + 70 * MIN;
    // Window [t0+10min, now]: the pair ending at t0+10min is inside (inclusive), so all three count.
    near(spend.spentInLast(60 * MIN), 3.5, 'edge inclusive');
    // One millisecond shorter: the pair ending at t0+10min falls out.
    near(spend.spentInLast(60 * MIN - 1), 2.5, 'edge exclusive');
    near(spend.spentInLast(30 * MIN), 2.5, 'two pairs');
    near(spend.spentInLast(29 * MIN), 0.5, 'last pair only');
    near(spend.spentInLast(0), 0.5, 'zero window still holds the reading taken now');
    assert.equal(spend.spentInLast(-5), 0.5);
    clock.now += 1;
    assert.equal(spend.spentInLast(0), 0, 'nothing at exactly now');
  });

  it('readings older than the latest, and non-numbers, are ignored (no double counting)', () => {
    const { spend, clock } = tracker();
    spend.record(10, clock.now);
    spend.record(9, clock.now + 2 * MIN);
    spend.record(10, clock.now + MIN); // a late answer from before the second reading
    spend.record(NaN, clock.now + 3 * MIN);
    spend.record(Infinity, clock.now + 3 * MIN);
    near(spend.spentThisSession(), 1, 'session');
    assert.deepEqual(spend.latest(), { credits: 9, at: clock.now + 2 * MIN });
  });

  it('burn rate: spend over the span the readings cover, per hour', () => {
    const { spend, clock } = tracker();
    assert.equal(spend.burnRatePerHour(), undefined, 'no readings');
    spend.record(10);
    assert.equal(spend.burnRatePerHour(), undefined, 'one reading');
    clock.now += 30_000;
    spend.record(9);
    assert.equal(spend.burnRatePerHour(), undefined, 'under a minute covered');
    clock.now += 30_000;
    spend.record(9);
    near(spend.burnRatePerHour(), 60, '1 USD in one minute');
    clock.now += 14 * MIN;
    spend.record(8.5);
    // 1.5 USD over 15 minutes = 6 USD per hour (the covered span, not a whole hour).
    near(spend.burnRatePerHour(), 6, '15 min covered');
  });

  it('burn rate: only the last hour counts; a top-up adds time but no spend', () => {
    const { spend, clock } = tracker();
    const t0 = clock.now;
    spend.record(20, t0);
    spend.record(10, t0 + 10 * MIN); // outside the window later
    spend.record(30, t0 + 80 * MIN); // top-up; its pair starts at t0+10min
    spend.record(29, t0 + 100 * MIN);
    clock.now = t0 + 110 * MIN; // window starts at t0+50min
    // Counted pairs: (t0+10 -> t0+80, increase), (t0+80 -> t0+100, -1). Span t0+10 .. t0+100 = 90 min.
    near(spend.spentInLast(HOUR), 1, 'hour');
    near(spend.burnRatePerHour(), 1 / 1.5, 'rate');
    clock.now = t0 + 161 * MIN; // the latest reading is more than an hour old: nothing to rate
    assert.equal(spend.burnRatePerHour(), undefined);
    assert.equal(spend.spentInLast(HOUR), 0);
    near(spend.spentThisSession(), 11, 'session keeps everything');
  });

  it('memory is bounded by age (keeping one baseline) and by count; the session total survives', () => {
    const { spend, clock } = tracker();
    const t0 = clock.now;
    spend.record(100, t0);
    spend.record(99, t0 + MIN);
    clock.now = t0 + SPEND_RETENTION_MS + 10 * MIN;
    spend.record(98, clock.now - 5 * MIN); // prunes the first reading, keeps the second as baseline
    const readings = (spend as unknown as { readings: unknown[] }).readings;
    assert.equal(readings.length, 2);
    // The baseline still gives the pair ending inside the window its decrease.
    near(spend.spentInLast(HOUR), 1, 'baseline kept');
    near(spend.spentThisSession(), 2, 'session');

    const busy = tracker();
    for (let i = 0; i < MAX_SPEND_READINGS + 500; i++) {
      busy.clock.now += 1;
      busy.spend.record(10_000 - i * 0.5);
    }
    assert.equal((busy.spend as unknown as { readings: unknown[] }).readings.length, MAX_SPEND_READINGS);
    near(busy.spend.spentThisSession(), (MAX_SPEND_READINGS + 499) * 0.5, 'busy session');
  });

  it('defaults to Date.now and to the current time for a reading', () => {
    const spend = new SpendTracker();
    const before = Date.now();
    spend.record(5);
    const at = spend.latest()?.at ?? 0;
    assert.ok(at >= before && at <= Date.now());
  });
});
