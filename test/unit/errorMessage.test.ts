import * as assert from 'node:assert/strict';
import { ConnectionError } from '../../src/core/errors';
import { errorMessage } from '../../src/shared/errorMessage';

describe('errorMessage', () => {
  it("answers an Error's message (subclasses too), without its name", () => {
    assert.equal(errorMessage(new Error('disk full')), 'disk full');
    assert.equal(errorMessage(new ConnectionError('socket closed')), 'socket closed');
  });

  it('answers any other thrown value as text', () => {
    assert.equal(errorMessage('plain text'), 'plain text');
    assert.equal(errorMessage(42), '42');
    assert.equal(errorMessage(undefined), 'undefined');
    assert.equal(errorMessage(null), 'null');
  });
});
