// Chunking, the binary vector store and cosine top-k (core/search), without any gateway.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkText } from '../../../src/core/search/chunking';
import { loadIndex, saveIndex } from './indexFiles';
import { looksBinary } from '../../../src/core/workspaceFiles/binary';
import { rankResults, reorderLines } from '../../../src/core/search/rankResults';
import { SemanticIndex } from '../../../src/core/search/semanticIndex';
import { topK } from '../../../src/core/search/cosine';
import { VECTOR_HEADER_BYTES, VectorStore } from '../../../src/core/search/vectorStore';
import { VECTORS_FILE } from '../../../src/core/search/indexStorage';

const lines = (n: number, prefix = 'line'): string =>
  Array.from({ length: n }, (_, i) => `${prefix} ${i}`).join('\n') + '\n';

describe('core/search: chunking', () => {
  it('cuts line windows with overlap, covering every line', () => {
    const chunks = chunkText(lines(100), { maxLines: 40, maxChars: 10_000, overlapLines: 5 });
    assert.deepEqual(
      chunks.map((c) => [c.startLine, c.endLine]),
      [
        [0, 39],
        [35, 74],
        [70, 99],
      ],
    );
    assert.equal(chunks[0]?.text.split('\n').length, 40);
    assert.equal(chunks[2]?.text.endsWith('line 99'), true, 'the final line break starts no extra line');
  });

  it('bounds characters, cuts an over-long line, and skips blank windows', () => {
    const chunks = chunkText(`${'x'.repeat(50)}\n${'y'.repeat(500)}\n\n\n\n`, {
      maxLines: 2,
      maxChars: 100,
      overlapLines: 0,
    });
    assert.deepEqual(
      chunks.map((c) => [c.startLine, c.endLine, c.text.length]),
      [
        [0, 0, 50],
        [1, 1, 100],
      ],
    );
    assert.deepEqual(chunkText('   \n\n'), []);
  });

  it('keeps CRLF files on the same line numbers and recognises binary content', () => {
    assert.deepEqual(
      chunkText('a\r\nb\r\nc', { maxLines: 2, maxChars: 100, overlapLines: 0 }).map((c) => c.text),
      ['a\nb', 'c'],
    );
    assert.equal(looksBinary('PNG\0\0data'), true);
    assert.equal(looksBinary('plain text'), false);
  });
});

describe('core/search: vector store and cosine search', () => {
  it('finds the nearest vectors best first, by cosine (length does not matter)', () => {
    const store = new VectorStore(3);
    store.add({ file: 'a', startLine: 0, endLine: 1 }, [1, 0, 0]);
    store.add({ file: 'b', startLine: 0, endLine: 1 }, [0, 10, 0]);
    store.add({ file: 'c', startLine: 0, endLine: 1 }, [1, 1, 0]);
    const found = store.search([0, 3, 0.1], 2);
    assert.deepEqual(
      found.map((f) => store.record(f.index)?.file),
      ['b', 'c'],
    );
    assert.ok(Math.abs((found[0]?.score ?? 0) - 0.99944) < 1e-4);
    assert.equal(store.search([2, 0, 0], 1)[0]?.index, 0, 'the first row counts too');
    assert.throws(() => store.search([1, 0], 1), /dimensions/);
  });

  it('topK agrees with a full sort on pseudo-random data', () => {
    const dims = 16;
    const count = 500;
    const data = Float32Array.from({ length: dims * count }, (_, i) => (Math.sin(i * 12.9898) * 43758.5453) % 1);
    const query = Array.from({ length: dims }, (_, i) => Math.cos(i));
    const qNorm = Math.hypot(...query);
    const expected = Array.from({ length: count }, (_, r) => {
      const row = data.subarray(r * dims, (r + 1) * dims);
      return { index: r, score: row.reduce((sum, v, i) => sum + v * (query[i] ?? 0), 0) / qNorm };
    }).sort((a, b) => b.score - a.score);
    const best = topK(data, dims, count, query, 10);
    assert.deepEqual(
      best.map((b) => b.index),
      expected.slice(0, 10).map((e) => e.index),
    );
    best.forEach((b, i) => assert.ok(Math.abs(b.score - (expected[i]?.score ?? 0)) < 1e-5));
  });

  it("removes a file's rows and keeps the others' vectors", () => {
    const store = new VectorStore(2);
    store.add({ file: 'a', startLine: 0, endLine: 0 }, [1, 0]);
    store.add({ file: 'b', startLine: 0, endLine: 0 }, [0, 1]);
    store.add({ file: 'a', startLine: 1, endLine: 1 }, [1, 1]);
    assert.equal(store.removeFiles(new Set(['a'])), 2);
    assert.equal(store.count, 1);
    assert.deepEqual(Array.from(store.vector(0)), [0, 1]);
  });

  it('round-trips through the binary form: 4 bytes a float plus a 16-byte header', () => {
    const dims = 256;
    const store = new VectorStore(dims);
    for (let r = 0; r < 100; r++)
      store.add(
        { file: `f${r % 7}`, startLine: r, endLine: r + 3 },
        Array.from({ length: dims }, (_, i) => ((r * 31 + i * 17) % 13) - 6),
      );
    const bytes = store.encode();
    assert.equal(bytes.byteLength, VECTOR_HEADER_BYTES + 100 * dims * 4);
    assert.equal(Buffer.from(bytes.subarray(0, 4)).toString('latin1'), 'UIVS');
    const back = VectorStore.decode(bytes, store.records);
    assert.equal(back.count, 100);
    assert.equal(back.dimensions, dims);
    assert.deepEqual(Array.from(back.vector(57)), Array.from(store.vector(57)));
    assert.deepEqual(back.record(57), { file: 'f1', startLine: 57, endLine: 60 });
    assert.throws(() => VectorStore.decode(bytes.subarray(0, bytes.byteLength - 4), store.records), /size/);
    assert.throws(() => VectorStore.decode(bytes, store.records.slice(1)), /metadata/);
  });

  it('saves an index as binary vectors plus small JSON, and loads it back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ui-index-'));
    try {
      const index = new SemanticIndex(
        'm',
        new VectorStore(4),
        new Map([['a.ts', { mtime: 1, size: 2, hash: 'h', chunks: 1 }]]),
      );
      index.store?.add({ file: 'a.ts', startLine: 0, endLine: 9 }, [0.5, 0.5, 0.5, 0.5]);
      await saveIndex(dir, index);
      assert.equal(statSync(join(dir, 'gen-1', VECTORS_FILE)).size, VECTOR_HEADER_BYTES + 16);
      assert.doesNotMatch(
        readFileSync(join(dir, 'gen-1', 'index.json'), 'utf8'),
        /0\.5/,
        'no vector numbers in the JSON',
      );
      const loaded = await loadIndex(dir);
      assert.equal(loaded?.model, 'm');
      assert.deepEqual(loaded?.files.get('a.ts'), { mtime: 1, size: 2, hash: 'h', chunks: 1 });
      assert.deepEqual(loaded?.store?.record(0), { file: 'a.ts', startLine: 0, endLine: 9 });
      assert.equal(await loadIndex(join(dir, 'missing')), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('core/search: result order', () => {
  it('follows the reranker, ignoring invented or repeated indexes', () => {
    const c = (file: string, similarity: number) => ({
      record: { file, startLine: 0, endLine: 0 },
      similarity,
      text: file,
    });
    const candidates = [c('a', 0.9), c('b', 0.8), c('c', 0.7)];
    const ranked = rankResults(
      candidates,
      [
        { index: 2, relevance_score: 0.99 },
        { index: 9, relevance_score: 0.5 },
        { index: 2, relevance_score: 0.4 },
        { index: 0, relevance_score: 0.3 },
      ],
      5,
    );
    assert.deepEqual(
      ranked.map((r) => [r.text, r.score]),
      [
        ['c', 0.99],
        ['a', 0.3],
      ],
    );
    assert.deepEqual(
      rankResults(candidates, undefined, 2).map((r) => [r.text, r.score, r.reranked]),
      [
        ['a', 0.9, false],
        ['b', 0.8, false],
      ],
    );
    assert.deepEqual(
      reorderLines(['x', 'y', 'z'], [{ index: 1, relevance_score: 0.9 }]).map((o) => o.line),
      ['y', 'x', 'z'],
    );
  });
});
