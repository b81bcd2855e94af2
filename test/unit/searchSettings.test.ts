// The semantic search settings: defaults as in package.json, and what a user can write.
import * as assert from 'node:assert/strict';
import { parseSettings } from '../../src/shared/settings';

describe('semantic search settings', () => {
  it('defaults: every file, 256 KB, 50 candidates reranked down to 10', () => {
    assert.deepEqual(parseSettings(() => undefined).search, {
      include: '**/*',
      maxFileSizeKB: 256,
      candidates: 50,
      results: 10,
    });
  });

  it('keeps a glob, clamps numbers, and falls back for wrong types', () => {
    const values: Record<string, unknown> = {
      'search.include': ' **/*.{ts,md} ',
      'search.maxFileSizeKB': 0,
      'search.candidates': 5000,
      'search.results': 'ten',
    };
    assert.deepEqual(parseSettings((key) => values[key]).search, {
      include: '**/*.{ts,md}',
      maxFileSizeKB: 1,
      candidates: 1000,
      results: 10,
    });
    assert.equal(
      parseSettings((key) => (key === 'search.include' ? '   ' : undefined)).search.include,
      '**/*',
      'a blank glob means every file',
    );
  });
});
