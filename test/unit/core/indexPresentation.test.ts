// What indexing for semantic search shows in the status bar and the Search Results view
// (core/search/indexPresentation): progress while it runs, the outcome after, and what a click does.
import * as assert from 'node:assert/strict';
import {
  indexedDescription,
  indexStatusLook,
  indexSummary,
  progressFraction,
  progressMessage,
} from '../../../src/core/search/indexPresentation';

const report = { embeddedFiles: ['a.ts', 'b.ts'], removedFiles: ['c.ts'], cancelled: false };

describe('core/search: indexing as the status bar and the view show it', () => {
  it('shows files done of the files to read while indexing, and a click cancels', () => {
    const starting = indexStatusLook({ kind: 'indexing' });
    assert.deepEqual([starting.text, starting.action], ['$(sync~spin) Indexing...', 'cancel']);
    const running = indexStatusLook({ kind: 'indexing', progress: { filesDone: 2, filesTotal: 5, chunksEmbedded: 7 } });
    assert.equal(running.text, '$(sync~spin) Indexing 2/5 files');
    assert.equal(running.action, 'cancel');
    assert.equal(
      running.tooltip,
      'Semantic search: indexing the workspace, 2 of 5 files read, 7 chunks embedded. Click to cancel.',
    );
    assert.equal(progressMessage({ filesDone: 2, filesTotal: 5, chunksEmbedded: 7 }), '2 of 5 files, 7 chunks');
    assert.equal(progressFraction({ filesDone: 2, filesTotal: 5, chunksEmbedded: 7 }), 0.4);
    assert.equal(progressFraction({ filesDone: 0, filesTotal: 0, chunksEmbedded: 0 }), 1, 'nothing to read: done');
  });

  it('says what a run gave: indexed (a click searches), cancelled or failed (a click indexes again)', () => {
    const done = { kind: 'indexed' as const, files: 120, chunks: 340, report };
    assert.equal(indexSummary(done), '120 files, 340 chunks indexed (2 embedded now, 1 removed).');
    const indexed = indexStatusLook(done);
    assert.deepEqual([indexed.text, indexed.action], ['$(check) Indexed 120 files', 'search']);
    assert.equal(
      indexed.tooltip,
      'Semantic search: 120 files, 340 chunks indexed (2 embedded now, 1 removed). Click to search.',
    );
    assert.equal(indexStatusLook({ ...done, files: 1 }).text, '$(check) Indexed 1 file');
    const cancelled = indexStatusLook({ ...done, report: { ...report, cancelled: true } });
    assert.deepEqual([cancelled.text, cancelled.action], ['$(circle-slash) Indexing cancelled', 'index']);
    assert.match(cancelled.tooltip, /indexing cancelled: 120 files, 340 chunks indexed .* Click to index again\.$/);
    const failed = indexStatusLook({ kind: 'failed', reason: 'The gateway did not answer' });
    assert.deepEqual([failed.text, failed.action], ['$(error) Indexing failed', 'index']);
    assert.equal(
      failed.tooltip,
      'Semantic search: indexing failed: The gateway did not answer. What was embedded before is kept. Click to index again.',
    );
  });

  it("describes the index in the Search Results view's title", () => {
    assert.equal(indexedDescription(1), '1 file indexed');
    assert.equal(indexedDescription(12), '12 files indexed');
  });
});
