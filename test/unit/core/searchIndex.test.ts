// The incremental index (core/search/semanticIndex) against the local gateway: which files are
// embedded on each update, batching, removal, model change, and cancellation.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../../src/core/transport/client';
import { loadIndex, saveIndex } from './indexFiles';
import { SemanticIndex } from '../../../src/core/search/semanticIndex';
import { startGateway, type LocalGateway } from '../../gateway/index';
import { clientEmbedder, folderSource, listFolder } from './folderIndex';

const MODEL = 'sim-openai/text-embedding-sim-small';
const FILES: Record<string, string> = {
  'src/cache.ts': 'export class LruCache {\n  // evicts the least recently used entry when the cache is full\n}\n',
  'src/http.ts':
    'export async function fetchWithRetry(url: string) {\n  // retries the request with exponential backoff\n}\n',
  'docs/guide.md': '# Guide\n\nHow to configure the gateway address and the api key.\n',
  'empty.txt': '',
};

describe('core/search: incremental index against the local gateway', function () {
  this.timeout(20_000);
  let gateway: LocalGateway;
  let client: GatewayClient;
  let root: string;

  before(async () => {
    gateway = await startGateway();
    client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
  });
  after(async () => gateway?.stop());
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ui-search-'));
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const update = (
    index: SemanticIndex,
    embed = clientEmbedder(client, MODEL),
    extra: Partial<Parameters<SemanticIndex['update']>[0]> = {},
  ) => index.update({ current: listFolder(root), source: folderSource(root), embed, model: MODEL, ...extra });

  it('reports the files to read before the first is embedded (the status bar shows "0/N" at once), then each batch', async () => {
    const index = new SemanticIndex();
    const real = clientEmbedder(client, MODEL);
    const seen: string[] = [];
    let atFirstEmbed: string[] | undefined;
    const embed = Object.assign(
      (texts: string[], signal?: AbortSignal): Promise<ArrayLike<number>[]> => {
        atFirstEmbed ??= [...seen];
        return real(texts, signal);
      },
      { requests: 0, inputs: 0 },
    );
    await update(index, embed, {
      batchSize: 2,
      onProgress: (p) => seen.push(`${p.filesDone}/${p.filesTotal}`),
    });
    assert.deepEqual(atFirstEmbed, ['0/4'], 'before the first request: nothing done of the four files');
    assert.equal(seen.at(-1), '4/4');
  });

  it('embeds every file once, in batches of array input, and finds the right file', async () => {
    const index = new SemanticIndex();
    const embed = clientEmbedder(client, MODEL);
    gateway.clearRequests();
    const report = await update(index, embed, { batchSize: 2 });
    assert.deepEqual(report.embeddedFiles.sort(), ['docs/guide.md', 'src/cache.ts', 'src/http.ts']);
    assert.equal(report.embeddedChunks, 3);
    assert.equal(embed.requests, 2, '3 chunks in batches of 2');
    const bodies = gateway.requests
      .filter((r) => r.path === '/api/v1/embeddings')
      .map((r) => r.body as { input: unknown });
    assert.ok(
      bodies.every((b) => Array.isArray(b.input)),
      'array input',
    );
    assert.equal(index.files.size, 4, 'the empty file is remembered, with no chunks');
    const [query] = await embed(['least recently used cache evicts entry']);
    const best = index.store?.search(query ?? [], 1)[0];
    assert.equal(index.store?.record(best?.index ?? -1)?.file, 'src/cache.ts');
  });

  it('re-embeds only the changed file, skips a touched but unchanged one, and drops a deleted one', async () => {
    const index = new SemanticIndex();
    await update(index);
    writeFileSync(
      join(root, 'src/http.ts'),
      'export async function fetchWithRetry(url: string) {\n  // now with jitter\n}\n',
    );
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, 'docs/guide.md'), later, later); // touched, same content
    rmSync(join(root, 'src/cache.ts'));
    const embed = clientEmbedder(client, MODEL);
    const report = await update(index, embed);
    assert.deepEqual(report.embeddedFiles, ['src/http.ts']);
    assert.deepEqual(report.removedFiles, ['src/cache.ts']);
    assert.equal(embed.inputs, 1, 'one chunk embedded');
    assert.equal(
      index.store?.records.some((r) => r.file === 'src/cache.ts'),
      false,
    );
    const again = clientEmbedder(client, MODEL);
    assert.equal((await update(index, again)).embeddedFiles.length, 0);
    assert.equal(again.requests, 0, 'nothing to do: no request');
  });

  it('limits a watcher update to its scope, and rebuilds everything for another model', async () => {
    const index = new SemanticIndex();
    await update(index);
    writeFileSync(join(root, 'src/http.ts'), 'changed\n');
    writeFileSync(join(root, 'src/cache.ts'), 'changed too\n');
    const scoped = await update(index, undefined, { scope: new Set(['src/cache.ts']) });
    assert.deepEqual(scoped.embeddedFiles, ['src/cache.ts'], 'http.ts is outside the scope');
    const other = clientEmbedder(client, 'sim-cohere/embed-sim-english');
    const rebuilt = await index.update({
      current: listFolder(root),
      source: folderSource(root),
      embed: other,
      model: 'sim-cohere/embed-sim-english',
    });
    assert.equal(rebuilt.embeddedFiles.length, 3);
    assert.equal(index.store?.dimensions, 384);
  });

  it('survives a save and load: the reloaded index re-embeds nothing', async () => {
    const index = new SemanticIndex();
    await update(index);
    const dir = join(root, '..', `${root.split('/').pop() ?? 'x'}-index`);
    try {
      await saveIndex(dir, index);
      const loaded = await loadIndex(dir);
      assert.ok(loaded);
      const embed = clientEmbedder(client, MODEL);
      const report = await update(loaded, embed);
      assert.equal(embed.requests, 0);
      assert.equal(report.unchangedFiles, 4);
      assert.equal(loaded.chunkCount, index.chunkCount);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cancels: the request in flight is aborted, finished files stay indexed', async () => {
    const index = new SemanticIndex();
    const controller = new AbortController();
    const slow = clientEmbedder(client, `${MODEL}::delay-headers=3000`);
    const fast = clientEmbedder(client, MODEL);
    // The first batch answers quickly, the second hangs until it is aborted.
    const embed = Object.assign(
      (texts: string[], signal?: AbortSignal) => (fast.requests === 0 ? fast(texts, signal) : slow(texts, signal)),
      { requests: 0, inputs: 0 },
    );
    const pending = update(index, embed, { batchSize: 1, signal: controller.signal });
    const record = await gateway.waitForRequest(
      (r) =>
        r.path === '/api/v1/embeddings' &&
        String((r.body as { model?: string } | undefined)?.model ?? '').includes('delay'),
    );
    controller.abort();
    const report = await pending;
    assert.equal(report.cancelled, true);
    assert.equal(await record.closed, 'aborted');
    assert.equal(index.files.size, 1, 'the file embedded before the cancel is kept');
    assert.equal(index.chunkCount, 1);
  });
});
