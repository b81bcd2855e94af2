import * as assert from 'node:assert/strict';
import { startGateway, type LocalGateway } from '../gateway/index';
import { Workbench } from './workbench';

// Sending from VS Code's built-in Chat view needs its default agent (GitHub Copilot), which asks
// for an online sign-in in this offline workbench; the model picker itself works, so that is what
// this test drives. Answers through the provider are tested in the extension host (vscode.lm).
describe('gateway models in VS Code\'s chat model picker (real VS Code in Chromium)', () => {
  let gateway: LocalGateway;
  let workbench: Workbench;

  before(async () => {
    gateway = await startGateway();
    workbench = await Workbench.open({ userSettings: { 'unifiedInference.baseUrl': gateway.url }, env: { UNIFIED_INFERENCE_API_KEY: gateway.apiKey } });
  });

  after(async () => {
    await workbench?.close();
    workbench?.removeFiles();
    await gateway?.stop();
  });

  it('offers the gateway\'s chat models, labelled with their provider', async () => {
    const pickerButton = workbench.page.locator('.interactive-input-part .action-label', { hasText: /sim-/ }).first();
    await pickerButton.waitFor({ timeout: 60_000 });
    const search = workbench.page.locator('input[placeholder="Search models"]').first();
    const rows = workbench.page.locator('.monaco-list-row', { hasText: /sim-(openai|anthropic|google)/ });
    // VS Code's picker is an action widget that closes when it loses focus, and its chat view
    // takes focus for its own input while it finishes loading; a clean-clone run once typed into
    // a picker that had just closed ("rows shown: .vscode", the explorer). The picker also builds
    // its rows once, from the models VS Code knows when it opens: a CI run opened it while VS Code
    // was re-reading our list after the key arrived, and it stayed open with no rows at all. So
    // every try opens a fresh picker (closing one left from the try before), then types the filter.
    let labels: string[];
    for (let attempt = 1; ; attempt++) {
      try {
        if (await search.isVisible()) {
          await workbench.page.keyboard.press('Escape');
          await search.waitFor({ state: 'hidden', timeout: 5_000 });
        }
        await pickerButton.click();
        await search.waitFor({ state: 'visible', timeout: 15_000 });
        await search.fill('sim', { timeout: 5_000 });
        await rows.first().waitFor({ timeout: 10_000 });
        labels = await rows.allInnerTexts();
        if (labels.length === 0) throw new Error('the picker closed while its rows were read');
        break;
      } catch (error) {
        if (attempt < 5) continue;
        await workbench.screenshot('lm-01-failed-model-picker');
        const shown = await workbench.page.locator('.monaco-list-row').allInnerTexts();
        throw new Error(`no gateway model in the picker after ${attempt} tries; picker open: ${await search.isVisible()}; rows shown: ${shown.join(' | ')}`, { cause: error });
      }
    }
    assert.ok(labels.some((label) => /gpt-sim-mini/.test(label)), `the picker lists gpt-sim-mini (${labels.join(' | ')})`);
    assert.ok(!labels.some((label) => /embedding|rerank|tts|whisper/.test(label)), 'only chat models');
    await workbench.screenshot('lm-01-chat-model-picker');
    await workbench.page.keyboard.press('Escape');
  });
});
