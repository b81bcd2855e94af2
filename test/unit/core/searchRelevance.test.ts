// Semantic search hides what the reranker found no relevance in (relevantResults): on the 0..1 scale
// rerankers answer, a score that reads 0.000 says the passage has nothing to do with the query.
import * as assert from 'node:assert/strict';
import { rankResults, relevantResults, type Candidate } from '../../../src/core/search/rankResults';

const candidate = (file: string, similarity: number): Candidate => ({
  record: { file, startLine: 0, endLine: 1 },
  similarity,
  text: `text of ${file}`,
});
const CANDIDATES = [candidate('a.ts', 0.9), candidate('b.ts', 0.8), candidate('c.ts', 0.7), candidate('d.ts', 0.6)];
const files = (results: readonly { record: { file: string } }[]): string[] => results.map((r) => r.record.file);

describe('core/search: results of no relevance are hidden', () => {
  it('hides reranked results scoring 0 or reading 0.000, keeping the order of the rest', () => {
    const ranked = rankResults(
      CANDIDATES,
      [
        { index: 2, relevance_score: 0.71 },
        { index: 0, relevance_score: 0.0005 },
        { index: 3, relevance_score: 0.0004 },
        { index: 1, relevance_score: 0 },
      ],
      10,
    );
    const { shown, hidden } = relevantResults(ranked);
    assert.deepEqual(files(shown), ['c.ts', 'a.ts']);
    assert.equal(hidden, 2);
  });

  it('every result of no relevance: none shown, all counted as hidden', () => {
    const ranked = rankResults(
      CANDIDATES,
      CANDIDATES.map((_, index) => ({ index, relevance_score: 0 })),
      10,
    );
    assert.deepEqual(relevantResults(ranked), { shown: [], hidden: 4 });
  });

  it('keeps everything when nothing was reranked (a similarity is no relevance)', () => {
    const ranked = rankResults([...CANDIDATES, candidate('zero.ts', 0)], undefined, 10);
    assert.deepEqual(relevantResults(ranked), { shown: ranked, hidden: 0 });
  });

  it('keeps everything when the scores are not on a 0..1 scale (raw logits: 0 is not "none")', () => {
    const ranked = rankResults(
      CANDIDATES,
      [
        { index: 0, relevance_score: 4.2 },
        { index: 1, relevance_score: 0 },
        { index: 2, relevance_score: -3.1 },
      ],
      10,
    );
    assert.deepEqual(relevantResults(ranked), { shown: ranked, hidden: 0 });
    const nan = rankResults(CANDIDATES, [{ index: 0, relevance_score: Number.NaN }], 10);
    assert.deepEqual(relevantResults(nan).hidden, 0);
  });

  it('no results: nothing hidden', () => {
    assert.deepEqual(relevantResults([]), { shown: [], hidden: 0 });
  });
});
