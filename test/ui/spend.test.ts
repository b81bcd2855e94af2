import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import type { LocalGateway } from '../gateway/index';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

const MODEL = 'sim-openai/gpt-sim';
const CHAT_PATHS = ['/api/v1/chat/completions', '/api/v1/messages'];

// Spending as a user meets it: the estimate beside Send, a tool loop the per-reply spend cap
// stops (the reason and the setting's button in the reply), and the conversation's total in the
// header and in History. The cap and the threshold are user settings (a workspace cannot set
// them), so this suite starts a workbench with them in the user's settings.
describe('chat spending (real VS Code in Chromium, local gateway)', () => {
  let gateway: LocalGateway;
  let workbench: Workbench;
  let chat: Frame;

  useChatSuite(
    {
      workspaceFiles: { 'read_file.md': '# Notes\n\nThe launch code word is PAPAYA.\n' },
      userSettings: {
        'unifiedInference.defaultModels.chat': MODEL,
        // A tenth of a cent: the round that asks for a tool (system prompt and tools included) passes it.
        'unifiedInference.chat.maxSpendPerReply': 0.001,
        'unifiedInference.chat.costEstimateThreshold': 0.001,
      },
    },
    (suite) => ({ gateway, workbench, chat } = suite),
  );

  const input = () => chat.locator('.composer-input');
  const lastReply = () => chat.locator('.turn.assistant').last();

  it('estimates the send beside Send, stops the tool loop at the cap saying why, and totals the conversation', async () => {
    // A bound for the answer, so the estimate is a range.
    await chat.locator('button[aria-label="Parameters"]').click();
    await chat.locator('input[aria-label="Max tokens"]').fill('4000');
    await chat.locator('input[aria-label="Max tokens"]').press('Tab');
    await chat.locator('button[aria-label="Parameters"]').click();
    await input().fill('read_file.md');
    const estimate = chat.locator('.composer-toolbar .cost-estimate');
    await estimate.filter({ hasText: /≈ \$0\.\d{4} – \$0\.\d{4}/ }).waitFor();

    gateway.clearRequests();
    await input().press('Enter');
    const stop = lastReply().locator('.error-message.spend-cap');
    await stop.waitFor();
    assert.match(
      await stop.innerText(),
      /Stopped: this reply's cost \$0\.\d{4} passed your cap of \$0\.0010 per reply/,
    );
    assert.equal(await lastReply().locator('.badge').innerText(), 'stopped');
    assert.equal(await lastReply().locator('.error-actions button').innerText(), 'Open Spend Cap Setting');
    assert.equal(await lastReply().locator('.tool-step').count(), 0, 'the tool asked for was not run');
    const chats = gateway.requests.filter((r) => CHAT_PATHS.includes(r.path));
    assert.equal(chats.length, 1, 'no request after the round that passed the cap');
    // The reply's cost, then the conversation's total in the header.
    await lastReply().locator('.turn-footer .usage', { hasText: 'from pricing' }).waitFor();
    const total = chat.locator('.chat-header .conversation-cost');
    await total.filter({ hasText: /^\$0\.\d{4}$/ }).waitFor();

    // A next message's estimate beside Send, with the stop and the total on screen.
    await input().fill('Then summarize the notes, please.');
    await estimate.filter({ hasText: /≈ \$/ }).waitFor();
    // The estimate never pushes Send out of a narrow side bar.
    const send = await chat.locator('.composer-toolbar button.send').boundingBox();
    const composer = await chat.locator('.composer').boundingBox();
    assert.ok(send && composer && send.x + send.width <= composer.x + composer.width, 'Send stays in view');
    await workbench.screenshot('chat-13-spend-cap');

    const shownTotal = await total.innerText();
    await chat.locator('button[aria-label="History"]').click();
    const row = chat.locator('.history-item', { hasText: 'read_file.md' });
    await row.waitFor();
    assert.ok((await row.locator('.history-meta').innerText()).endsWith(`· ${shownTotal}`), 'the row shows the total');
    await workbench.screenshot('chat-13b-spend-history');
    await chat.locator('button[aria-label="Back to the chat"]').click();
  });
});
