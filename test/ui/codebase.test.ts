import * as assert from 'node:assert/strict';
import type { Frame, Locator } from 'playwright-core';
import type { LocalGateway } from '../gateway/index';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

// The chat searches the workspace by meaning (the real workbench in Chromium, the real webview,
// the local gateway): the model's search_codebase call first offers to build the index with its
// cost on the card, then returns ranked chunks; @codebase in the composer attaches the chunks it
// finds as chips with their line ranges. The simulated model calls the tool its message names.
describe('codebase: search_codebase and @codebase in the chat (real VS Code in Chromium, local gateway)', () => {
  let gateway: LocalGateway;
  let workbench: Workbench;
  let chat: Frame;

  useChatSuite(
    {
      workspaceFiles: {
        'codebase/http.ts':
          'export async function fetchWithRetry(url: string): Promise<Response> {\n  // Retries the request with exponential backoff on 5xx answers.\n  return fetch(url);\n}\n',
        'codebase/cache.ts':
          'export class LruCache<K, V> {\n  // Evicts the least recently used entry when the cache is full.\n  get(key: K): V | undefined { return undefined; }\n}\n',
      },
      // User settings: a workbench of its own, since its deep research job would stay in the shared
      // gateway's list (and its "report ready" badge on the activity bar) for the suites after it.
      userSettings: {
        'unifiedInference.defaultModels.chat': 'sim-openai/gpt-sim-mini',
        'unifiedInference.defaultModels.embedding': 'sim-openai/text-embedding-sim-small',
        'unifiedInference.defaultModels.rerank': 'sim-cohere/rerank-sim-v1',
        'unifiedInference.search.include': 'codebase/**',
      },
    },
    (suite) => ({ gateway, workbench, chat } = suite),
  );

  const input = (): Locator => chat.locator('.composer-input');
  const lastReply = (): Locator => chat.locator('.turn.assistant').last();
  const requests = (path: string): number => gateway.requests.filter((r) => r.path === path).length;

  it('offers to build the index with its cost, then shows the ranked chunks the model got', async () => {
    // An index another suite built on this workbench would be searched at once: none to start with.
    await workbench.runCommand('Unified Inference: Clear Semantic Search Index');
    await workbench.expectNotification('The semantic search index was deleted.');
    await workbench.hideNotifications();
    await input().fill('search codebase: where are failed requests retried with backoff? 2');
    await input().press('Enter');
    const step = lastReply().locator('.tool-step.function').first();
    await step.locator('.approval[data-state="armed"]').waitFor();
    assert.match(await step.locator('.step-name').innerText(), /search_codebase/);
    const notice = await step.locator('.cost-note').innerText();
    assert.match(notice, /Build the semantic index\? 2 files, ≈ \d+ tokens/);
    assert.equal(await step.locator('.approval button', { hasText: 'Allow for This Conversation' }).count(), 0);
    await workbench.screenshot('chat-13-codebase-build-offer');
    await step.locator('.approval button', { hasText: 'Allow Once' }).click();
    await lastReply().locator('.tool-step.function.done').waitFor({ timeout: 60_000 });
    await step.locator('details summary', { hasText: 'Result' }).click();
    const result = await step.locator('.step-result').innerText();
    assert.match(result, /codebase\/http\.ts:\d+-\d+ \(score/);
    await lastReply().locator('.turn-footer .usage').waitFor();
  });

  it('@codebase attaches the chunks it finds as chips, one embedding and one rerank request', async () => {
    await chat.locator('button[aria-label="New chat"]').click();
    await chat.locator('.empty-state').waitFor();
    gateway.clearRequests();
    await input().fill('@codebase how is the least recently used entry evicted?');
    await input().press('Enter');
    const chips = chat.locator('.turn.user .chip');
    await chips.first().waitFor();
    const labels = await chips.allInnerTexts();
    assert.ok(
      labels.some((label) => /^codebase\/cache\.ts:\d+-\d+$/.test(label.trim())),
      labels.join(', '),
    );
    await lastReply().locator('.turn-footer .usage').waitFor();
    assert.equal(requests('/api/v1/embeddings'), 1);
    assert.equal(requests('/api/v1/rerank'), 1);
    await workbench.screenshot('chat-13-codebase');
  });

  it('deep_research asks with its cost, starts the job, and its step opens the job in the Research view', async () => {
    await chat.locator('button[aria-label="New chat"]').click();
    await chat.locator('.empty-state').waitFor();
    await input().fill('deep research: which vector database suits code search');
    await input().press('Enter');
    const step = lastReply().locator('.tool-step.function').first();
    await step.locator('.approval[data-state="armed"]').waitFor();
    assert.match(
      await step.locator('.cost-note').innerText(),
      /costs credits \(cost set by the gateway\).*2 to 5 minutes/,
    );
    await step.locator('.approval button', { hasText: 'Allow Once' }).click();
    const open = step.locator('button', { hasText: 'Open Research Job' });
    await open.waitFor();
    await lastReply().locator('.turn-footer .usage').waitFor();
    await workbench.screenshot('chat-13-deep-research');
    await open.click();
    const pane = workbench.page
      .locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: 'Research Jobs' }) })
      .first();
    await pane.locator('.monaco-list-row.selected', { hasText: 'deep research: which vector database' }).waitFor();
  });
});
