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
    await pickerButton.click();
    const search = workbench.page.locator('input[placeholder="Search models"]').first();
    await search.waitFor();
    const rows = workbench.page.locator('.monaco-list-row', { hasText: /sim-(openai|anthropic|google)/ });
    // Once in a clean-clone run the filter typed into a picker still being built showed no row
    // within 30 s: type it again (at most 3 times), and leave a screenshot and the rows if it fails.
    for (let attempt = 1; ; attempt++) {
      await search.fill('');
      await search.fill('sim');
      try {
        await rows.first().waitFor({ timeout: 10_000 });
        break;
      } catch (error) {
        if (attempt < 3) continue;
        await workbench.screenshot('lm-01-failed-model-picker');
        const shown = await workbench.page.locator('.monaco-list-row').allInnerTexts();
        throw new Error(`no gateway model in the picker; rows shown: ${shown.join(' | ')}`, { cause: error });
      }
    }
    const labels = await rows.allInnerTexts();
    assert.ok(labels.some((label) => /gpt-sim-mini/.test(label)), `the picker lists gpt-sim-mini (${labels.join(' | ')})`);
    assert.ok(!labels.some((label) => /embedding|rerank|tts|whisper/.test(label)), 'only chat models');
    await workbench.screenshot('lm-01-chat-model-picker');
    await workbench.page.keyboard.press('Escape');
  });
});
