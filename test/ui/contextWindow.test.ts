import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

const TINY = 'sim-openai/gpt-sim-tiny';

// The context window as a user sees it: the composer's meter against the small model's 2,048
// tokens, the AGENTS.md chip, and the "Earlier turns summarized" block once the conversation
// outgrows the model.
describe('context window (real VS Code in Chromium, local gateway)', () => {
  let workbench: Workbench;
  let chat: Frame;

  useChatSuite(
    {
      workspaceFiles: {
        'AGENTS.md': '# Conventions\n\nUse tabs for indentation. Name tests after what they prove.\n',
        'src/app.ts': 'export const answer = 42;\n',
      },
      // The workspace tools' definitions alone take about half of the tiny model's 2,048 tokens.
      workspaceSettings: { 'unifiedInference.defaultModels.chat': TINY, 'unifiedInference.chat.workspaceTools': false },
    },
    (suite) => ({ workbench, chat } = suite),
  );

  const input = () => chat.locator('.composer-input');
  const meter = () => chat.locator('.context-meter');

  it('shows the meter (estimated, then measured), the AGENTS.md chip, and the summary block past the limit', async () => {
    const chip = chat.locator('.instruction-chip', { hasText: 'AGENTS.md' });
    await chip.waitFor();
    assert.match(
      (await chip.getAttribute('aria-label')) ?? '',
      /^Instructions from AGENTS\.md, added to the system prompt/,
    );
    // The meter is drawn before the catalog answers (its limit then reads "?"): wait for the model's 2k.
    await chat.locator('.context-meter', { hasText: /\/ 2k$/ }).waitFor();
    assert.match((await meter().getAttribute('class')) ?? '', /estimated/, 'estimated before the first reply');
    assert.match((await meter().getAttribute('title')) ?? '', /estimated/);

    for (let i = 0; i < 12; i++) {
      // The composer takes a message only once the last reply has fully ended (Send, not Stop).
      await chat.locator('.send').waitFor();
      await input().fill(
        `Question ${i}: how does part ${i} of the pipeline handle retries, timeouts and partial failures in detail?`,
      );
      await input().press('Enter');
      await chat
        .locator('.turn.assistant')
        .nth(i)
        .locator('.turn-footer .usage', { hasText: 'tokens' })
        .waitFor({ timeout: 30_000 });
      if ((await chat.locator('.context-summary').count()) > 0) break;
    }
    const summary = chat.locator('.context-summary').first();
    await summary.waitFor();
    await chat.locator('.send').waitFor();
    await chat.locator('.context-meter:not(.estimated)').waitFor();
    assert.match((await meter().getAttribute('aria-label')) ?? '', /^Context: [\d,]+ of 2,048 tokens used$/);
    assert.match((await meter().getAttribute('title')) ?? '', /measured/);
    assert.match(await summary.locator('summary').innerText(), /Earlier turns summarized/);
    await summary.locator('summary').click();
    await summary.locator('.context-summary-text').waitFor();
    assert.ok((await summary.locator('.context-summary-text').innerText()).length > 20, 'the summary is readable');
    // The original turns are all still on screen.
    assert.ok((await chat.locator('.turn.user').count()) >= 4);
    await summary.scrollIntoViewIfNeeded();
    await workbench.screenshot('context-01-meter');

    await chip.click();
    await workbench.page.locator('.tab.active', { hasText: 'AGENTS.md' }).waitFor();
    await workbench.screenshot('context-02-agents-chip-opened');
  });
});
