// Semantic search as a user meets it, in the real workbench (Chromium) against a local gateway:
// index the folder, search from the palette, pick a result, see the Search Results view, and
// rerank lines from the editor's context menu.
import * as assert from 'node:assert/strict';
import type { LocalGateway } from '../gateway/index';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

const FILES: Record<string, string> = {
  'semantic/cache.ts':
    'export class LruCache<K, V> {\n  // Evicts the least recently used entry when the cache is full.\n  private readonly entries = new Map<K, V>();\n}\n',
  'semantic/http.ts':
    'export async function fetchWithRetry(url: string): Promise<Response> {\n  // Retries the request with exponential backoff on 5xx answers.\n  return fetch(url);\n}\n',
  'semantic/guide.md': '# Guide\n\nSet the gateway address, then store the api key in secret storage.\n',
  'semantic/queue.ts': 'export class JobQueue {\n  // Runs queued jobs one at a time, oldest first.\n}\n',
  // Outside the indexed folder: lines to rerank from the editor's context menu.
  'notes/lines.txt': 'bananas are yellow\nthe cache evicts old entries\nsql joins tables\n',
};

describe('semantic search in the workbench (real VS Code in Chromium, local gateway)', () => {
  let gateway: LocalGateway;
  let workbench: Workbench;

  useChatSuite(
    {
      workspaceFiles: FILES,
      workspaceSettings: {
        'unifiedInference.search.include': 'semantic/**',
        // The first embedding request waits a minute (until cancelled): the progress stays in sight.
        'unifiedInference.defaultModels.embedding': 'sim-openai/text-embedding-sim-small::delay-headers=60000;times=1',
        'unifiedInference.defaultModels.rerank': 'sim-cohere/rerank-sim-v1',
      },
    },
    (suite) => ({ gateway, workbench } = suite),
  );

  it('shows indexing progress in the status bar, and a click there cancels it', async () => {
    await workbench.runCommand('Unified Inference: Index Workspace for Semantic Search');
    const progress = workbench.statusItem('Indexing 0/4 files');
    await progress.waitFor();
    assert.match(
      (await progress.getAttribute('aria-label')) ?? '',
      /indexing the workspace, 0 of 4 files read, 0 chunks embedded\. Click to cancel\./,
    );
    await workbench.screenshot('search-01-indexing-in-status-bar');
    await progress.click();
    await workbench.statusItem('Indexing cancelled').waitFor();
    await workbench.expectNotification(/Indexing cancelled/);
    await workbench.hideNotifications();
  });

  it('says what it indexed in the status bar and in the Search Results view, and in a notification', async () => {
    await workbench.runCommand('Unified Inference: Index Workspace for Semantic Search');
    await workbench.statusItem('Indexed 4 files').waitFor();
    await workbench.openContainer('Research & Models');
    const header = workbench.page
      .locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: 'Search Results' }) })
      .first()
      .locator('.pane-header')
      .first();
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await header.locator('.description', { hasText: '4 files indexed' }).waitFor();
    await workbench.movePointerAway();
    await workbench.screenshot('search-01-indexed');
    await workbench.expectNotification(/4 files, 4 chunks indexed/);
    await workbench.hideNotifications();
    assert.ok(gateway.requests.some((r) => r.path === '/api/v1/embeddings'));
  });

  it('shows reranked results in a quick pick and opens the picked one with its lines selected', async () => {
    const page = workbench.page;
    await workbench.runCommand('Unified Inference: Semantic Search...');
    await page.locator('.quick-input-widget', { hasText: 'Semantic Search' }).waitFor();
    await page.locator('.quick-input-widget input').fill('least recently used cache eviction');
    await page.keyboard.press('Enter');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'cache.ts:1-4' }).first().waitFor();
    const first = await rows.first().innerText();
    assert.match(first, /cache\.ts:1-4/);
    assert.match(first, /relevance 0\.\d{3}/);
    assert.match(first, /export class LruCache/, 'the preview');
    await workbench.screenshot('search-02-quick-pick');
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'cache.ts' }).waitFor();
    await page.locator('.view-lines', { hasText: 'class LruCache' }).first().waitFor();
    await page.locator('.selected-text').first().waitFor();
    await workbench.screenshot('search-03-opened-result');
  });

  it('lists the last results in the Search Results view', async () => {
    await workbench.openContainer('Research & Models');
    const pane = workbench.page
      .locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: 'Search Results' }) })
      .first();
    const header = pane.locator('.pane-header').first();
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await pane.locator('.monaco-list-row', { hasText: 'cache.ts:1-4' }).first().waitFor();
    // The files that share no word with the query are left out, and the view says how many.
    await pane
      .locator('.message', { hasText: /\(\d+ results? of no relevance not shown\)/ })
      .first()
      .waitFor();
    assert.equal(await pane.locator('.monaco-list-row', { hasText: 'queue.ts' }).count(), 0, 'no irrelevant result');
    await workbench.screenshot('search-04-results-view');
  });

  it("reranks the selected lines from the editor's context menu", async () => {
    const page = workbench.page;
    await workbench.quickOpen('lines.txt');
    const text = page.locator('.monaco-editor .view-lines', { hasText: 'bananas are yellow' }).first();
    await text.click();
    await page.keyboard.press('Control+A');
    await text.click({ button: 'right' });
    // One "Unified Inference" entry in the menu; the extension's actions are in its submenu. (By
    // role: a submenu's entry holds the submenu in its DOM, so text would match the parent too.)
    const submenu = page.getByRole('menuitem', { name: 'Unified Inference' });
    await submenu.waitFor();
    assert.equal(await page.getByRole('menuitem', { name: 'Rerank Lines...' }).count(), 0, 'not at the top level');
    await submenu.hover();
    const item = page.getByRole('menuitem', { name: 'Rerank Lines...' });
    await item.waitFor();
    await workbench.screenshot('search-05-rerank-context-menu');
    await item.click();
    // The menu hands the command the editor's Uri: it must ask for the query, not take the Uri's.
    await page.locator('.quick-input-widget', { hasText: 'Rerank Lines' }).waitFor();
    await page.locator('.quick-input-widget input').fill('cache entries');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Replace Selection' }).first().click();
    await page
      .locator('.monaco-editor .view-line')
      .first()
      .filter({ hasText: 'the cache evicts old entries' })
      .waitFor();
    await workbench.screenshot('search-06-reranked');
  });
});
