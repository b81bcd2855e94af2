import * as assert from 'node:assert/strict';
import { formatCredits, formatDuration, formatResetIn, UNKNOWN_CREDITS } from '../../../src/core/account/creditsFormat';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('core: credits formatting', () => {
  it('formatCredits: dollars and cents, thousands separators, truncated (never shows more than held)', () => {
    const cases: [number, string][] = [
      [12.34, '$12.34'],
      [1234.56, '$1,234.56'],
      [1_234_567.891, '$1,234,567.89'],
      [999.999, '$999.99'],
      [0, '$0.00'],
      [-0, '$0.00'],
      [0.01, '$0.01'],
      // Binary floating point: 0.29 * 100 is 28.999...; the micro-dollar step keeps it 29 cents.
      [0.29, '$0.29'],
      [1.005, '$1.00'],
      [0.999999, '$0.99'],
      [25, '$25.00'],
      [100, '$100.00'],
      [1000, '$1,000.00'],
      [0.004, '<$0.01'],
      [0.000001, '<$0.01'],
      [Number.MIN_VALUE, '<$0.01'],
      [-0.5, '-$0.50'],
      [-1234.5, '-$1,234.50'],
      [-0.001, '-<$0.01'],
      [NaN, UNKNOWN_CREDITS],
      [Infinity, UNKNOWN_CREDITS],
      [-Infinity, UNKNOWN_CREDITS],
      [1e12 + 0.5, '$1,000,000,000,000.50'],
    ];
    for (const [input, expected] of cases) assert.equal(formatCredits(input), expected, String(input));
    assert.equal(UNKNOWN_CREDITS, '$—');
  });

  it('formatDuration: at most two units, truncated to whole minutes, sign ignored', () => {
    const cases: [number, string][] = [
      [0, 'less than a minute'],
      [59_999, 'less than a minute'],
      [MIN, '1 min'],
      [45 * MIN + 59_000, '45 min'],
      [59 * MIN, '59 min'],
      [HOUR, '1 h'],
      [2 * HOUR + 10 * MIN, '2 h 10 min'],
      [2 * HOUR + 10 * MIN + 59_999, '2 h 10 min'],
      [23 * HOUR + 59 * MIN, '23 h 59 min'],
      [DAY, '1 d'],
      [3 * DAY + 4 * HOUR + 30 * MIN, '3 d 4 h'],
      [40 * DAY, '40 d'],
      [-45 * MIN, '45 min'],
      [NaN, 'an unknown time'],
      [Infinity, 'an unknown time'],
    ];
    for (const [input, expected] of cases) assert.equal(formatDuration(input), expected, String(input));
  });

  it('formatResetIn: future, past, now, and invalid dates', () => {
    const now = new Date('2025-03-31T21:50:00Z');
    assert.equal(formatResetIn(new Date('2025-04-01T00:00:00Z'), now), 'resets in 2 h 10 min');
    assert.equal(formatResetIn(new Date('2025-04-04T02:00:00Z'), now), 'resets in 3 d 4 h');
    assert.equal(formatResetIn(now, now), 'resets in less than a minute');
    assert.equal(formatResetIn(new Date(now.getTime() - 5 * MIN), now), 'reset 5 min ago');
    assert.equal(formatResetIn(new Date(now.getTime() - 30_000), now), 'reset less than a minute ago');
    assert.equal(formatResetIn(new Date('not a date'), now), 'reset time unknown');
    assert.equal(formatResetIn(new Date('2025-04-01T00:00:00Z'), new Date(NaN)), 'reset time unknown');
  });
});
