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
    workbench = await Workbench.open({ workspaceSettings: { 'unifiedInference.baseUrl': gateway.url }, env: { UNIFIED_INFERENCE_API_KEY: gateway.apiKey } });
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
    await search.fill('sim');
    const rows = workbench.page.locator('.monaco-list-row', { hasText: /sim-(openai|anthropic|google)/ });
    await rows.first().waitFor();
    const labels = await rows.allInnerTexts();
    assert.ok(labels.some((label) => /gpt-sim-mini/.test(label)), `the picker lists gpt-sim-mini (${labels.join(' | ')})`);
    assert.ok(!labels.some((label) => /embedding|rerank|tts|whisper/.test(label)), 'only chat models');
    await workbench.screenshot('lm-01-chat-model-picker');
    await workbench.page.keyboard.press('Escape');
  });
});
