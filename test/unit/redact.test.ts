import * as assert from 'node:assert/strict';
import { redactSecrets } from '../../src/core/redact';

describe('redactSecrets', () => {
  it('replaces every occurrence of each secret', () => {
    assert.equal(redactSecrets('key=abc123xyz; again abc123xyz', ['abc123xyz']), 'key=[redacted]; again [redacted]');
  });

  it('ignores missing and very short secrets (they would shred ordinary text)', () => {
    assert.equal(redactSecrets('a b c', [undefined, '', 'a']), 'a b c');
  });
});
