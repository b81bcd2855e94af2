// The window-wide restore guard: one restore at a time (whichever chat asks), none while any chat's
// reply is writing.
import * as assert from 'node:assert/strict';
import { RestoreGuard } from '../../../../src/core/checkpoints/restoreGuard';

describe('checkpoints: the restore guard', () => {
  it('lets one restore through at a time, and the next once it is released', () => {
    const guard = new RestoreGuard();
    const release = guard.claim();
    assert.equal(typeof release, 'function');
    assert.match(String(guard.claim()), /^Another restore of files is under way/);
    if (typeof release === 'function') release();
    const next = guard.claim();
    assert.equal(typeof next, 'function', 'free again');
    if (typeof release === 'function') release(); // a stale release does not free the next restore
    assert.match(String(guard.claim()), /under way/);
  });

  it('refuses while any tracked reply runs, and allows once every one has settled (failed ones too)', async () => {
    const guard = new RestoreGuard();
    let finish!: () => void;
    let fail!: (error: Error) => void;
    const one = new Promise<void>((resolve) => (finish = resolve));
    const two = new Promise<void>((_, reject) => (fail = reject));
    guard.trackReply(one);
    guard.trackReply(two);
    assert.match(String(guard.claim()), /^Wait for the reply to finish/);
    finish();
    await one;
    assert.match(String(guard.claim()), /^Wait for the reply/, 'the other reply still runs');
    fail(new Error('stopped'));
    await two.catch(() => undefined);
    assert.equal(typeof guard.claim(), 'function');
  });
});
