// Semantic search benchmark: the core indexer (no VS Code) over a generated 2,000-file workspace
// against the local gateway on its own thread (as a remote gateway would be), the index's size on
// disk, and query latency (cosine top-k, embedding excluded) over 100k vectors.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../src/core/transport/client';
import { IndexStorage, METADATA_FILE, VECTORS_FILE } from '../../src/core/search/indexStorage';
import { SemanticIndex } from '../../src/core/search/semanticIndex';
import { VectorStore } from '../../src/core/search/vectorStore';
import { clientEmbedder, folderSource, listFolder } from '../unit/core/folderIndex';
import { seededRandom } from '../harness/seededRandom';
import { gatewayOnThread } from './gatewayThread';

export interface SearchBenchOptions {
  readonly outDir: string;
  readonly files?: number;
  readonly vectors?: number;
}

const MODEL = 'sim-openai/text-embedding-sim-small';
// 100k x 1536 floats would be 600 MB in the editor's memory: past the sizes a workspace index should reach.
const QUERY_DIMENSIONS = [384, 768] as const;
const WORDS =
  'cache queue retry backoff token stream parser socket buffer vector index search query rank model gateway request response error timeout config setting editor folder watcher chunk embed score file line path user session key value map list tree node graph edge render layout style theme'.split(
    ' ',
  );

/** `count` source-like files of 20 to 120 lines in 40 folders. */
function generateWorkspace(root: string, count: number): void {
  const next = seededRandom(7);
  for (let f = 0; f < count; f++) {
    const lines = Array.from(
      { length: 20 + Math.floor(next() * 100) },
      () =>
        `  ${Array.from({ length: 3 + Math.floor(next() * 8) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ')};`,
    );
    mkdirSync(join(root, `pkg${f % 40}`), { recursive: true });
    writeFileSync(join(root, `pkg${f % 40}`, `file${f}.ts`), `export function f${f}() {\n${lines.join('\n')}\n}\n`);
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

/** Median and p95 of `runs` top-50 queries over `count` random unit vectors of `dims` dimensions. */
function queryLatency(count: number, dims: number, runs = 30): { median: number; p95: number; buildMs: number } {
  const next = seededRandom(dims);
  const started = performance.now();
  const store = new VectorStore(dims, count);
  const row = new Float32Array(dims);
  for (let r = 0; r < count; r++) {
    for (let i = 0; i < dims; i++) row[i] = next() - 0.5;
    store.add({ file: `f${r % 2000}`, startLine: r, endLine: r + 40 }, row);
  }
  const buildMs = performance.now() - started;
  const times: number[] = [];
  for (let run = 0; run < runs + 3; run++) {
    const query = Array.from({ length: dims }, () => next() - 0.5);
    const t = performance.now();
    store.search(query, 50);
    if (run >= 3) times.push(performance.now() - t); // the first runs warm up the JIT
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95), buildMs };
}

export async function runSearchBench(options: SearchBenchOptions): Promise<string> {
  const fileCount = options.files ?? 2000;
  const vectorCount = options.vectors ?? 100_000;
  const root = mkdtempSync(join(tmpdir(), 'ui-search-bench-'));
  const gateway = await gatewayOnThread();
  try {
    const workspace = join(root, 'ws');
    generateWorkspace(workspace, fileCount);
    const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
    const index = new SemanticIndex();
    const embed = clientEmbedder(client, MODEL);
    let t = performance.now();
    const full = await index.update({
      current: listFolder(workspace),
      source: folderSource(workspace),
      embed,
      model: MODEL,
    });
    const fullMs = performance.now() - t;

    // Incremental: 20 files edited, then the same update again.
    for (let f = 0; f < 20; f++)
      writeFileSync(join(workspace, `pkg${f % 40}`, `file${f}.ts`), `export const edited${f} = 'cache retry ${f}';\n`);
    const before = embed.inputs;
    t = performance.now();
    const incremental = await index.update({
      current: listFolder(workspace),
      source: folderSource(workspace),
      embed,
      model: MODEL,
    });
    const incrementalMs = performance.now() - t;

    const indexDir = join(root, 'index');
    const storage = new IndexStorage(indexDir);
    t = performance.now();
    const saved = await storage.save(index);
    const saveMs = performance.now() - t;
    const generation = join(indexDir, `gen-${saved.generation ?? 0}`);
    const vectorBytes = statSync(join(generation, VECTORS_FILE)).size;
    const metadataBytes = statSync(join(generation, METADATA_FILE)).size;

    // One file edited, as the watcher sees it: only that file looked at, its changed chunks
    // embedded, the change appended to the saved index.
    const edited = join('pkg30', 'file30.ts');
    writeFileSync(join(workspace, edited), `export function f30() {\n  cache retry edited once;\n}\n`);
    const editedStat = statSync(join(workspace, edited));
    const beforeOne = embed.inputs;
    t = performance.now();
    const one = await index.update({
      current: new Map([[edited, { mtime: editedStat.mtimeMs, size: editedStat.size }]]),
      scope: new Set([edited]),
      source: folderSource(workspace),
      embed,
      model: MODEL,
    });
    const oneSaved = await storage.save(index);
    const oneMs = performance.now() - t;
    const oneChunks = embed.inputs - beforeOne;
    if (one.embeddedFiles.length !== 1 || oneSaved.kind !== 'delta')
      throw new Error(`The one-file update was not incremental: ${JSON.stringify({ one, oneSaved })}`);
    const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
    const perThousand = (bytes: number): string =>
      `${(((bytes / index.chunkCount) * 1000) / 1024 / 1024).toFixed(2)} MB`;
    const dims = index.store?.dimensions ?? 0;

    const latencies = QUERY_DIMENSIONS.map((d) => ({ dims: d, ...queryLatency(vectorCount, d) }));
    const lines = [
      '# Semantic search benchmark',
      '',
      `Node ${process.version}, ${new Date().toISOString()}, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the end (shared machine: times vary with it). Core indexer without VS Code; local gateway on its own thread (\`${MODEL}\`, ${dims} dimensions, base64).`,
      '',
      '| Measure | Value |',
      '|---|---|',
      `| Full index of ${fileCount} generated files | ${(fullMs / 1000).toFixed(2)} s, ${full.embeddedChunks} chunks in ${full.embedRequests} requests |`,
      `| Throughput | **${(fileCount / (fullMs / 1000)).toFixed(0)} files/s, ${(full.embeddedChunks / (fullMs / 1000)).toFixed(0)} chunks/s** |`,
      `| Incremental update after editing 20 files | ${incrementalMs.toFixed(0)} ms, ${incremental.embeddedFiles.length} files / ${embed.inputs - before} chunks re-embedded, ${incremental.unchangedFiles} unchanged |`,
      `| **One-file edit (watcher) vs full reindex** | **one file: ${oneMs.toFixed(0)} ms, ${oneChunks} chunk(s) embedded, ${kb(oneSaved.bytesWritten)} written (appended); full: ${((fullMs + saveMs) / 1000).toFixed(2)} s, ${full.embeddedChunks} chunks embedded, ${kb(saved.bytesWritten)} written** |`,
      `| Index on disk (${index.chunkCount} chunks) | vectors ${(vectorBytes / 1024 / 1024).toFixed(2)} MB + metadata ${(metadataBytes / 1024).toFixed(0)} KB, saved in ${saveMs.toFixed(0)} ms |`,
      `| **Size per 1,000 chunks** | **${perThousand(vectorBytes + metadataBytes)}** (${dims} x 4 bytes a vector + ${(((metadataBytes / index.chunkCount) * 1000) / 1024).toFixed(0)} KB metadata) |`,
      ...latencies.map(
        (l) =>
          `| **Query latency, ${vectorCount / 1000}k vectors x ${l.dims} dims, top 50** | **median ${l.median.toFixed(1)} ms, p95 ${l.p95.toFixed(1)} ms** (building the store: ${(l.buildMs / 1000).toFixed(1)} s) |`,
      ),
      '',
      'Query latency is the cosine scan and top-k selection only: the query embedding (one gateway request) and the rerank are excluded.',
      'Throughput is bounded by the simulator computing embeddings on the other core; a remote gateway adds network time per batch of 64.',
      '',
    ];
    const table = lines.join('\n');
    mkdirSync(options.outDir, { recursive: true });
    writeFileSync(join(options.outDir, 'search.md'), table);
    return table;
  } finally {
    await gateway.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
