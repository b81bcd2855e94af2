import * as assert from 'node:assert/strict';
import { isClosedFence } from '../../src/shared/codeFence';

describe('isClosedFence', () => {
  it('is closed when the last line is a fence of the same character, at least as long', () => {
    assert.equal(isClosedFence('```ts\nconst a = 1;\n```'), true);
    assert.equal(isClosedFence('```ts\nconst a = 1;\n````\n\n'), true);
    assert.equal(isClosedFence('~~~\nx\n~~~  '), true);
  });

  it('is open when the reply stopped inside the block', () => {
    assert.equal(isClosedFence('```ts\nconst a = 1;'), false);
    assert.equal(isClosedFence('```ts'), false);
    assert.equal(isClosedFence('````\nx\n```'), false);
    assert.equal(isClosedFence('```\nx\n~~~'), false);
    assert.equal(isClosedFence('```\nx\n``` not a fence'), false);
  });

  it('treats indented code (no fence) as closed: there is nothing to wait for', () => {
    assert.equal(isClosedFence('    const a = 1;\n'), true);
  });
});
