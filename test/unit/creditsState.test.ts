import * as assert from 'node:assert/strict';
import { AuthenticationError, ConnectionError, RateLimitError } from '../../src/core/errors';
import { creditsStateForError, outOfCredits, type CreditsReading } from '../../src/core/account/creditsState';
import { LIMIT_HOLD_MS, LimitHold } from '../../src/core/account/limitHold';

const T0 = Date.UTC(2025, 0, 15, 9, 30);
const reading = (credits: number, reset = new Date(T0 + 24 * 3_600_000).toISOString()): CreditsReading => ({
  credits,
  reset,
  at: T0,
});

describe('credits state and the limit hold', () => {
  it('a failed quota read becomes badKey, outOfCredits, offline or error, keeping the last reading', () => {
    const last = reading(3);
    assert.deepEqual(creditsStateForError(new AuthenticationError('no'), last), { kind: 'badKey', message: 'no' });
    assert.deepEqual(creditsStateForError(new RateLimitError('spent', { quotaExhausted: true }), last), {
      kind: 'outOfCredits',
      last,
    });
    assert.deepEqual(creditsStateForError(new RateLimitError('slow down'), undefined), {
      kind: 'error',
      message: 'slow down',
    });
    assert.deepEqual(creditsStateForError(new ConnectionError('down'), last), {
      kind: 'offline',
      message: 'down',
      last,
    });
    assert.deepEqual(creditsStateForError('odd', undefined), { kind: 'error', message: 'odd' });
    assert.deepEqual(outOfCredits(undefined), { kind: 'outOfCredits' });
  });

  it('a refusal holds until the window resets, the balance rises, it reads zero, or an hour passes', () => {
    const hold = new LimitHold();
    assert.equal(hold.holds(reading(5), T0), false, 'nothing held');
    hold.hold(5, T0);
    assert.equal(hold.holds(reading(5), T0 + 1000), true);
    assert.equal(hold.holds(reading(6), T0 + 2000), false, 'topped up');
    assert.equal(hold.holds(reading(5), T0 + 3000), false, 'forgotten once over');
    hold.hold(5, T0);
    assert.equal(hold.holds(reading(5, new Date(T0 + 500).toISOString()), T0 + 1000), false, 'window reset');
    hold.hold(5, T0);
    assert.equal(hold.holds(reading(0), T0 + 1000), false, 'zero tells the story itself');
    hold.hold(5, T0);
    assert.equal(hold.holds(reading(5), T0 + LIMIT_HOLD_MS), false, 'held an hour at most');
  });

  it('a refusal without a balance takes the next one as the balance to rise above', () => {
    const hold = new LimitHold();
    hold.hold(undefined, T0);
    hold.noteCredits(4);
    assert.equal(hold.holds(reading(4), T0 + 1000), true);
    assert.equal(hold.holds(reading(4.5), T0 + 2000), false);
    hold.hold(undefined, T0);
    assert.equal(hold.holds(reading(7), T0 + 1000), true, 'the first reading sets it');
    assert.equal(hold.holds(reading(7), T0 + 2000), true);
  });
});
