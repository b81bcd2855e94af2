import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../src/core/transport/client';
import { DEFAULT_RESEARCH_TIMINGS, RESEARCH_FAILURE_WORD, type LocalGateway } from '../gateway/index';
import { useChatSuite } from './chatSuite';
import type { Locator } from 'playwright-core';
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

  /** The row's status words are inside the part of the row the side bar shows (not cut by its ellipsis). */
  async function statusInSight(target: Locator, status: string): Promise<void> {
    const cut = await target.locator('.label-name').evaluate((label, words) => {
      const text = label.textContent ?? '';
      const range = document.createRange();
      const node = [...label.querySelectorAll('*'), label]
        .flatMap((element) => [...element.childNodes])
        .find((child) => child.nodeType === Node.TEXT_NODE && (child.textContent ?? '').startsWith(words));
      if (!node || !text.startsWith(words)) return `"${text}" does not start with ${words}`;
      range.setStart(node, 0);
      range.setEnd(node, words.length);
      const shown = label.closest('.monaco-icon-label-container') ?? label;
      const right = range.getBoundingClientRect().right;
      return right <= shown.getBoundingClientRect().right ? '' : `${words} ends at ${right}, past the row's edge`;
    }, status);
    assert.equal(cut, '', cut);
  }

  it("lists the account's jobs with an icon per status, the status first where a narrow side bar cannot cut it", async () => {
    await workbench.showOnlyView('Research & Models', 'Research Jobs');
    await workbench.runCommand('Unified Inference: Refresh Research Jobs');
    await row('Which vector database').locator('.codicon-pass').waitFor();
    await row('An impossible topic').locator('.codicon-error').waitFor();
    await row('What makes a VS Code extension').waitFor();
    await row('How do SSE streams').waitFor();
    const labels = await pane().locator('.monaco-list-row .label-name').allInnerTexts();
    for (const shown of [
      'Report ready · Which vector database',
      'Failed · An impossible topic',
      'Running · How do SSE streams',
      'Queued · What makes a VS Code extension',
    ])
      assert.ok(
        labels.some((label) => label.startsWith(shown)),
        `"${shown}..." is shown (${labels.join(' | ')})`,
      );
    await statusInSight(row('How do SSE streams'), 'Running');
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
    // The title once: the document's heading, no topic row and no heading of the report repeating it.
    const title = 'Which vector database suits code search?';
    const repeats = await preview
      .locator('h1, h2, h3, h4, h5, h6, td')
      .evaluateAll(
        (cells, text) => cells.filter((cell) => cell.textContent?.trim() === text).map((cell) => cell.tagName),
        title,
      );
    assert.deepEqual(repeats, ['H1'], `the title is shown once, as the heading (${repeats.join(', ')})`);
    await workbench.screenshot('research-03-report');
    await workbench.readmeScreenshot('researchReport');
  });

  it('marks a job that finishes while you work "New report", with a badge on the view, and its report one click away', async () => {
    const page = workbench.page;
    await workbench.runCommand('View: Close All Editors');
    await workbench.showOnlyView('Research & Models', 'Research Jobs');
    // Started here, as a user does: the extension follows it from the start, whatever the machine's speed.
    gateway.setResearchTimings({ queuedMs: 0, runningMs: 4_000 });
    const topic =
      'How do server-sent event streams recover from dropped connections behind corporate proxies and load balancers?';
    await workbench.runCommand('Unified Inference: Start Deep Research');
    await page.locator('.quick-input-widget', { hasText: 'Start Deep Research' }).waitFor();
    await page.locator('.quick-input-widget input').fill(topic);
    await page.keyboard.press('Enter');
    const job = row('How do server-sent event streams');
    await job.locator('.label-name', { hasText: /^(Queued|Running) · How do server-sent/ }).waitFor();
    const done = job.locator('.label-name', { hasText: /^New report · How do server-sent/ });
    await done.waitFor({ timeout: 60_000 });
    await job.locator('.codicon-pass-filled').waitFor();
    await statusInSight(job, 'New report');
    assert.match((await job.getAttribute('aria-label')) ?? '', /^New report: How do server-sent event streams/);
    // The view's container counts it on the activity bar, and says what the count is.
    const badge = page.locator(
      '.activitybar .action-item:has(.action-label[aria-label^="Research & Models - 1 research report ready to read"]) .badge-content',
    );
    assert.equal((await badge.innerText()).trim(), '1');
    await workbench.movePointerAway();
    await workbench.screenshot('research-04-new-report-marked');
    // One click on the row opens the report; it is read then: "Report ready", no badge.
    await job.click();
    const preview = await workbench.webviewWith('h1:has-text("How do server-sent event streams")');
    await preview.locator('h2:has-text("Sources")').waitFor();
    // The gateway cut the long topic into its title: the heading is the whole topic, and only there.
    const repeats = await preview
      .locator('h1, h2, h3, h4, h5, h6, td')
      .evaluateAll(
        (cells, text) => cells.filter((cell) => cell.textContent?.includes(text)).map((cell) => cell.tagName),
        'How do server-sent event streams',
      );
    assert.deepEqual(repeats, ['H1'], `the topic is shown once, as the heading (${repeats.join(', ')})`);
    assert.equal(await preview.locator('h1').first().innerText(), topic);
    await job.locator('.label-name', { hasText: /^Report ready · How do server-sent/ }).waitFor();
    await badge.waitFor({ state: 'detached' });
    await workbench.screenshot('research-05-new-report-opened');
  });
});
