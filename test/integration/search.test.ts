// Semantic search inside the real extension host against a local gateway: index a fixture folder
// the test writes (semantic/), search it, edit a file and see only it re-embedded, cancel.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RankedResult } from '../../src/core/search/rankResults';
import type { IndexRun } from '../../src/extension/search/searchIndexService';
import type { SearchOutcome } from '../../src/extension/search/semanticSearch';
import { startGateway, type LocalGateway } from '../gateway/index';
import { answerPrompts } from './mediaPrompts';
import type { TestApi } from '../../src/extension/testApi';
import { watcherRun } from './indexWatch';
import {
  activateExtension,
  clearKeyThroughCommand,
  recordNotifications,
  replace,
  setKeyThroughCommand,
  setSetting,
  waitFor,
} from './extensionHost';

const EMBEDDING = 'sim-openai/text-embedding-sim-small';
const FIXTURE: Record<string, string> = {
  'semantic/cache.ts':
    'export class LruCache<K, V> {\n  // Evicts the least recently used entry when the cache is full.\n  get(key: K): V | undefined { return undefined; }\n}\n',
  'semantic/http.ts':
    'export async function fetchWithRetry(url: string): Promise<Response> {\n  // Retries the request with exponential backoff on 5xx answers.\n  return fetch(url);\n}\n',
  'semantic/guide.md': '# Guide\n\nSet the gateway address, then store the api key in secret storage.\n',
  'semantic/generated/out.ts':
    '// generated: ignored through the root .gitignore\nexport const cache = "least recently used";\n',
  'semantic/huge.txt': 'cache '.repeat(400), // 2.4 KB, over the 1 KB cap set below
  '.gitignore': 'semantic/generated/\n',
};

const embeddedNamed = (run: IndexRun, name: string): boolean =>
  run.report.embeddedFiles.some((f) => f.endsWith(`/semantic/${name}`));

const embeddingCalls = (gateway: LocalGateway): { model: string; input: string[]; dimensions?: number }[] =>
  gateway.requests
    .filter((r) => r.path === '/api/v1/embeddings')
    .map((r) => r.body as { model: string; input: string[]; dimensions?: number });

describe('semantic search against the local gateway', function () {
  this.timeout(60_000);
  let gateway: LocalGateway;
  let root: vscode.Uri;
  let notes: ReturnType<typeof recordNotifications>;
  let api: TestApi;
  const uri = (path: string): vscode.Uri => vscode.Uri.joinPath(root, path);
  const write = (path: string, text: string): Thenable<void> =>
    vscode.workspace.fs.writeFile(uri(path), new TextEncoder().encode(text));
  const index = (): Thenable<IndexRun | undefined> =>
    vscode.commands.executeCommand<IndexRun | undefined>('unifiedInference.search.index');

  before(async () => {
    api = await activateExtension();
    root = vscode.workspace.workspaceFolders?.[0]?.uri ?? assert.fail('the suite opens a folder');
    gateway = await startGateway();
    await setSetting('baseUrl', gateway.url);
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(
      () => api.connection.setup,
      (setup) => setup.baseUrl === gateway.url && setup.hasKey,
      'the connection',
    );
    await setSetting('defaultModels.embedding', EMBEDDING);
    await setSetting('defaultModels.rerank', 'sim-cohere/rerank-sim-v1');
    await setSetting('search.include', 'semantic/**');
    await setSetting('search.maxFileSizeKB', 1);
    for (const [path, text] of Object.entries(FIXTURE)) await write(path, text);
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    notes = recordNotifications();
  });

  after(async () => {
    notes?.restore();
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    await vscode.workspace.fs.delete(uri('semantic'), { recursive: true }).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(uri('.gitignore')).then(undefined, () => undefined);
    for (const key of ['defaultModels.embedding', 'defaultModels.rerank', 'search.include', 'search.maxFileSizeKB'])
      await setSetting(key, undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('indexes the semantic files in batches, leaving out .gitignored and oversized files', async () => {
    gateway.clearRequests();
    const run = await index();
    assert.ok(run, 'the index command returns its run');
    assert.equal(run.report.cancelled, false);
    assert.deepEqual(run.report.embeddedFiles.map((f) => f.replace(/^.*\/semantic\//, '')).sort(), [
      'cache.ts',
      'guide.md',
      'http.ts',
    ]);
    assert.equal(run.files, 3);
    const calls = embeddingCalls(gateway);
    assert.equal(calls.length, 1, 'three chunks fit one batch');
    assert.deepEqual(calls[0]?.input.length, 3, 'array input');
    assert.ok(
      notes.shown.some((n) => n.kind === 'info' && /3 files, 3 chunks indexed/.test(n.message)),
      JSON.stringify(notes.shown),
    );
    // The answer in place too: the status bar says what was indexed (a click searches), the view how much.
    assert.deepEqual(
      [api.searchStatus.presentation?.text, api.searchStatus.presentation?.command],
      ['$(check) Indexed 3 files', 'unifiedInference.search.search'],
    );
    assert.match(api.searchStatus.presentation?.tooltip ?? '', /3 files, 3 chunks indexed .*Click to search\.$/);
    assert.equal(api.searchResults.view.description, '3 files indexed');
  });

  it('finds the right file first, reranked with top_n', async () => {
    gateway.clearRequests();
    const outcome = await vscode.commands.executeCommand<SearchOutcome | undefined>('unifiedInference.search.search', {
      query: 'least recently used cache eviction',
    });
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.ok(outcome);
    const first: RankedResult | undefined = outcome.results[0];
    assert.match(first?.record.file ?? '', /semantic\/cache\.ts$/);
    assert.equal(first?.reranked, true);
    assert.deepEqual([first?.record.startLine, first?.record.endLine], [0, 3]);
    const rerank = gateway.requests.find((r) => r.path === '/api/v1/rerank')?.body as
      { top_n?: number; documents?: string[] } | undefined;
    assert.equal(rerank?.top_n, 3, 'top_n: the results setting (10), bounded by the 3 candidates');
    assert.equal(embeddingCalls(gateway).length, 1, 'only the query was embedded');
  });

  it('hides the results the reranker found no relevance in, and says so when none is left', async () => {
    // The quick picks the command opens (created through the real API, recorded).
    const picks: vscode.QuickPick<vscode.QuickPickItem>[] = [];
    const create = vscode.window.createQuickPick.bind(vscode.window);
    const restore = replace(vscode.window, 'createQuickPick', <T extends vscode.QuickPickItem>() => {
      const pick = create<T>();
      picks.push(pick);
      return pick;
    });
    const search = async (query: string): Promise<SearchOutcome | undefined> => {
      const outcome = await vscode.commands.executeCommand<SearchOutcome | undefined>(
        'unifiedInference.search.search',
        { query },
      );
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return outcome;
    };
    try {
      // Only cache.ts shares words with the query: the local reranker (BM25) gives the others 0.
      const some = await search('least recently used cache eviction');
      const file = (r: RankedResult): string => r.record.file.replace(/^.*\/semantic\//, '');
      assert.deepEqual(some?.results.map(file), ['cache.ts']);
      assert.equal(some?.hidden, 2);
      assert.deepEqual(api.searchResults.getChildren().map(file), ['cache.ts'], 'the Search Results view');
      assert.equal(
        api.searchResults.view.message,
        '“least recently used cache eviction” (2 results of no relevance not shown)',
      );
      assert.equal(picks.length, 1);
      assert.deepEqual(
        picks[0]?.items.map((item) => item.label),
        ['$(file) cache.ts:1-4'],
        'the quick pick',
      );
      assert.match(picks[0]?.placeholder ?? '', /2 results of no relevance to the query are not shown/);

      // No file shares a word with this query: nothing is relevant, and that is said.
      const before = notes.shown.length;
      const none = await search('zebra quokka');
      assert.deepEqual(none?.results, []);
      assert.equal(none?.hidden, 3);
      assert.deepEqual(api.searchResults.getChildren(), []);
      assert.equal(api.searchResults.view.message, 'No result is relevant to “zebra quokka”.');
      assert.equal(picks.length, 1, 'no empty list to pick from');
      assert.deepEqual(notes.shown.slice(before), [{ kind: 'info', message: 'No result is relevant to the query.' }]);
    } finally {
      restore();
    }
  });

  it('re-embeds only an edited file (file watcher), and drops a deleted one', async () => {
    gateway.clearRequests();
    const updated = watcherRun(api, (run) => embeddedNamed(run, 'http.ts'), 'http.ts re-embedded');
    await write(
      'semantic/http.ts',
      'export async function fetchWithRetry(url: string) {\n  // Retries with jitter now.\n}\n',
    );
    await updated;
    const calls = embeddingCalls(gateway);
    assert.equal(calls.length, 1, 'one request');
    assert.equal(calls[0]?.input.length, 1, "one input: the edited file's chunk");
    assert.match(calls[0]?.input[0] ?? '', /jitter/);
    await vscode.workspace.fs.delete(uri('semantic/guide.md'));
    const run = await waitFor(
      async () => index(),
      (r) => r?.files === 2,
      'the deleted file dropped',
      15_000,
    );
    assert.equal(run?.report.embeddedFiles.length, 0, 'nothing else re-embedded');
  });

  it('a one-file edit is one watcher update: only its changed chunk is re-embedded, saved as an appended change, and found by search', async () => {
    // Two chunks (lines 0-39 and 35-59) under the 1 KB cap of this suite.
    const lines = Array.from({ length: 60 }, (_, i) => `note ${i} ok`);
    const created = watcherRun(api, (run) => embeddedNamed(run, 'notes.txt'), 'notes.txt indexed');
    await write('semantic/notes.txt', `${lines.join('\n')}\n`);
    const first = await created;
    assert.equal(first.report.embeddedChunks, 2);

    gateway.clearRequests();
    lines[2] = 'the flamingo migrates south';
    const edited = watcherRun(api, (run) => embeddedNamed(run, 'notes.txt'), 'notes.txt re-embedded');
    await write('semantic/notes.txt', `${lines.join('\n')}\n`);
    const run = await edited;
    const calls = embeddingCalls(gateway);
    assert.equal(calls.length, 1, 'one /embeddings request');
    assert.deepEqual(
      calls[0]?.input.map((text) => text.includes('flamingo')),
      [true],
      'only the chunk holding the edit',
    );
    assert.deepEqual([run.report.embeddedChunks, run.report.reusedChunks, run.report.removedFiles.length], [1, 1, 0]);
    assert.equal(run.saved?.kind, 'delta', 'appended, not the whole index rewritten');
    assert.ok(
      (run.saved?.bytesWritten ?? Infinity) < (run.chunks - 1) * 1536 * 4,
      `bytes written: ${run.saved?.bytesWritten}, less than rewriting the ${run.chunks} vectors`,
    );

    const outcome = await vscode.commands.executeCommand<SearchOutcome | undefined>('unifiedInference.search.search', {
      query: 'flamingo migrates south',
    });
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const top = outcome?.results[0];
    assert.match(top?.record.file ?? '', /semantic\/notes\.txt$/);
    assert.deepEqual([top?.record.startLine, top?.record.endLine], [0, 39]);
  });

  it('cancels indexing from its status bar item: the embedding request is aborted and the cancel is reported', async () => {
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    assert.equal(api.searchResults.view.description, undefined, 'no index, no count');
    await setSetting('defaultModels.embedding', `${EMBEDDING}::delay-headers=5000`);
    try {
      gateway.clearRequests();
      const pending = index();
      const record = await gateway.waitForRequest('/api/v1/embeddings', 15_000);
      // While the first batch is in flight the status bar shows the files done of those to read.
      const shown = await waitFor(
        () => api.searchStatus.presentation,
        (look) => /^\$\(sync~spin\) Indexing 0\/\d+ files$/.test(look?.text ?? ''),
        'the progress in the status bar',
      );
      assert.ok(shown);
      assert.equal(shown.command, 'unifiedInference.search.cancelIndexing', 'a click cancels');
      const started = Date.now();
      assert.equal(await vscode.commands.executeCommand(shown.command), true);
      const run = await pending;
      assert.ok(Date.now() - started < 3_000, 'the cancel did not wait for the slow answer');
      assert.equal(run?.report.cancelled, true);
      assert.equal(await record.closed, 'aborted');
      await waitFor(
        () => notes.shown,
        (shown) => shown.some((n) => n.kind === 'warning' && n.message.startsWith('Indexing cancelled')),
        'the cancel notice',
      );
      assert.deepEqual(
        [api.searchStatus.presentation?.text, api.searchStatus.presentation?.command],
        ['$(circle-slash) Indexing cancelled', 'unifiedInference.search.index'],
      );
    } finally {
      await setSetting('defaultModels.embedding', EMBEDDING);
    }
  });

  it('reranks selected lines (replacing the selection) and copies an embedding with dimensions', async () => {
    const document = await vscode.workspace.openTextDocument({
      content: 'bananas are yellow\nthe cache evicts old entries\nsql joins tables\n',
    });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 3, 0);
    const order = await vscode.commands.executeCommand<string[]>('unifiedInference.search.rerankLines', {
      query: 'cache entries',
      mode: 'replace',
    });
    assert.equal(order?.[0], 'the cache evicts old entries');
    assert.equal(document.lineAt(0).text, 'the cache evicts old entries');
    assert.equal(document.lineCount, 4, 'same lines, final line break kept');
    gateway.clearRequests();
    editor.selection = new vscode.Selection(0, 0, 0, 9);
    const vector = await vscode.commands.executeCommand<number[]>('unifiedInference.search.copyEmbedding', {
      dimensions: 64,
    });
    assert.equal(vector?.length, 64);
    assert.deepEqual(JSON.parse(await vscode.env.clipboard.readText()), vector);
    assert.equal(embeddingCalls(gateway)[0]?.dimensions, 64);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it("from the editor's context menu (which hands over the editor's Uri) asks for the query and reranks, and asks for the embedding's dimensions", async () => {
    const document = await vscode.workspace.openTextDocument({
      content: 'bananas are yellow\nthe cache evicts old entries\nsql joins tables\n',
    });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 3, 0);
    const prompted = answerPrompts({
      inputs: { 'Rerank Lines': 'cache entries', 'Copy Embedding of Selection': '32' },
      picks: { 'Rerank Lines': 'Replace Selection' },
    });
    try {
      // What VS Code passes a command run from editor/context: the editor's resource and its group.
      const menuArgs = [document.uri, { groupId: 1 }];
      const order = await vscode.commands.executeCommand<string[]>('unifiedInference.search.rerankLines', ...menuArgs);
      assert.deepEqual(prompted.titles, ['Rerank Lines', 'Rerank Lines'], 'the query, then the order');
      assert.equal(order?.[0], 'the cache evicts old entries');
      assert.equal(document.lineAt(0).text, 'the cache evicts old entries');
      editor.selection = new vscode.Selection(0, 0, 0, 9);
      const vector = await vscode.commands.executeCommand<number[]>(
        'unifiedInference.search.copyEmbedding',
        ...menuArgs,
      );
      assert.equal(prompted.titles.at(-1), 'Copy Embedding of Selection');
      assert.equal(vector?.length, 32);
    } finally {
      prompted.restore();
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });
});
