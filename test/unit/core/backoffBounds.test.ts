// L7 of the review: wire-conventions say backoff goes "from 0.5 s to 8 s with jitter".
import * as assert from 'node:assert/strict';
import { backoffDelay } from '../../../src/core/transport/retry';

describe('core: backoff bounds (review L7)', () => {
  it('L7: every backoff delay, jitter included, stays within 0.5 s to 8 s and grows', () => {
    for (const r of [0, 0.5, 1]) {
      const delays = [0, 1, 2, 3, 4, 5, 9].map((i) => backoffDelay(i, () => r));
      for (const d of delays) assert.ok(d >= 500 && d <= 8000, `${d} with jitter ${r}`);
      for (let i = 1; i < 5; i++) assert.ok((delays[i] as number) > (delays[i - 1] as number), delays.join());
    }
  });
});
