import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../src/core/transport/client';
import { DEFAULT_RESEARCH_TIMINGS, RESEARCH_FAILURE_WORD, type LocalGateway } from '../gateway/index';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('research jobs in the workbench (real VS Code in Chromium, local gateway)', () => {
  let gateway: LocalGateway;
  let workbench: Workbench;

  useChatSuite({}, (suite) => ({ gateway, workbench } = suite));

  before(async () => {
    // Jobs in every status at once, whatever the machine's speed: two finish at once (one fails),
    // then the gateway holds one running and one queued for far longer than the test takes.
    gateway.setResearchTimings({ queuedMs: 50, runningMs: 50 });
    const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
    await client.research.create('Which vector database suits code search?');
    await client.research.create(`An impossible topic (${RESEARCH_FAILURE_WORD})`);
    await pause(200);
    gateway.setResearchTimings({ queuedMs: 0, runningMs: 30 * 60_000 });
    await client.research.create('How do SSE streams recover from dropped connections?');
    gateway.setResearchTimings({ queuedMs: 30 * 60_000, runningMs: 60_000 });
    await client.research.create('What makes a VS Code extension feel native?');
  });

  // The gateway is shared with the suites after this one: its default schedule back.
  after(() => gateway?.setResearchTimings(DEFAULT_RESEARCH_TIMINGS));

  const pane = () =>
    workbench.page
      .locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: 'Research Jobs' }) })
      .first();
  const row = (text: string) => pane().locator('.monaco-list-row', { hasText: text }).first();

  it("lists the account's jobs with an icon per status", async () => {
    await workbench.showOnlyView('Research & Models', 'Research Jobs');
    await workbench.runCommand('Unified Inference: Refresh Research Jobs');
    await row('Which vector database').locator('.codicon-pass').waitFor();
    await row('An impossible topic').locator('.codicon-error').waitFor();
    await row('What makes a VS Code extension').waitFor();
    await row('How do SSE streams').waitFor();
    const statuses = await pane().locator('.monaco-list-row .label-description').allInnerTexts();
    assert.ok(
      statuses.some((s) => /^running · /.test(s)),
      `a running job is shown (${statuses.join(' | ')})`,
    );
    assert.ok(
      statuses.some((s) => /^queued · /.test(s)),
      `a queued job is shown (${statuses.join(' | ')})`,
    );
    await workbench.screenshot('research-01-jobs-by-status');
  });

  it('filters from the title bar and says so', async () => {
    await workbench.runCommand('Unified Inference: Filter Research Jobs...');
    await workbench.page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'Failed or cancelled' })
      .first()
      .click();
    // Step 2 of 2 (text in the topic): wait for it, or Enter could land on step 1's list.
    await workbench.page.locator('.quick-input-widget', { hasText: 'Filter Research Jobs (2/2)' }).waitFor();
    await workbench.page.keyboard.press('Enter');
    await pane().locator('.message', { hasText: 'Filter: Failed or cancelled' }).waitFor();
    await row('Which vector database').waitFor({ state: 'detached' }); // the succeeded job is filtered out
    await row('An impossible topic').waitFor();
    await workbench.screenshot('research-02-filter-active');
    await workbench.runCommand('Unified Inference: Clear Research Filter');
    await row('Which vector database').waitFor();
  });

  it("opens a finished job's report in the markdown preview, with numbered sources", async () => {
    await row('Which vector database').click();
    const preview = await workbench.webviewWith('h2:has-text("Sources")');
    assert.ok((await preview.locator('ol li a').count()) >= 1, 'sources are links');
    await preview.locator('text=Which vector database').first().waitFor();
    await workbench.screenshot('research-03-report');
    await workbench.readmeScreenshot('researchReport');
  });
});
