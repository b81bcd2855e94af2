import * as assert from 'node:assert/strict';
import { startGateway, type LocalGateway } from '../gateway/index';
import { Workbench } from './workbench';

// A user without a key, as they see it: Generate Image... says at once that no key is set, with a
// Set API Key button (no picker first); the button asks for the key, and the command goes on to
// its first question.
describe('failures: no key, told first, with the button that fixes it (real VS Code in Chromium)', function () {
  this.timeout(180_000);
  let gateway: LocalGateway;
  let workbench: Workbench;

  before(async () => {
    gateway = await startGateway();
    workbench = await Workbench.open({ userSettings: { 'unifiedInference.baseUrl': gateway.url } });
  });

  after(async () => {
    await workbench?.close();
    workbench?.removeFiles();
    await gateway?.stop();
  });

  it('Generate Image... without a key: the Set API Key message first, then the key, then the prompt', async () => {
    const { page } = workbench;
    await workbench.runCommand('Unified Inference: Generate Image...');
    const message = /Generate Image: No API key is set for the gateway/;
    await workbench.expectNotification(message);
    const item = page
      .locator('.notification-toast, .notifications-center .notification-list-item', { hasText: message })
      .first();
    const button = item.locator('.monaco-button', { hasText: 'Set API Key' });
    await button.waitFor();
    assert.equal(
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Generate Image' }).isVisible(),
      false,
      'no question before the key',
    );
    await workbench.screenshot('failures-no-key-generate-image');
    await button.click();
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Set API Key' }).waitFor();
    await page.locator('.quick-input-widget input').fill(gateway.apiKey);
    await page.keyboard.press('Enter');
    // The command goes on by itself once the key is stored.
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'Generate Image: prompt' })
      .waitFor({ timeout: 30_000 });
    await workbench.screenshot('failures-after-key-generate-image-prompt');
    assert.equal(gateway.requests.filter((r) => r.method === 'POST').length, 0, 'nothing was sent before the prompt');
  });
});
