import * as assert from 'node:assert/strict';
import { startGateway, type LocalGateway } from '../gateway/index';
import { Workbench } from './workbench';

// The getting-started walkthrough as a new user meets it: open, nothing set yet; the address and
// the key set from the palette, the balance read by itself, a chat opened in an editor: none of it
// through the walkthrough's buttons, and its steps tick all the same.
//
// VS Code starts its walkthrough service when the Welcome page first opens, and a context key that
// is already true then never ticks its step (it counts as seen before). So the page is opened
// first here, as on a first install, where VS Code opens it.
describe('walkthrough: steps done elsewhere tick (real VS Code in Chromium)', function () {
  this.timeout(180_000);
  let gateway: LocalGateway;
  let workbench: Workbench;

  before(async () => {
    gateway = await startGateway();
    workbench = await Workbench.open();
  });

  after(async () => {
    await workbench?.close();
    workbench?.removeFiles();
    await gateway?.stop();
  });

  const step = (title: string) =>
    workbench.page.locator('.gettingStartedContainer .getting-started-step', { hasText: title }).first();

  async function openWalkthrough(): Promise<void> {
    await workbench.runCommand('Welcome: Open Walkthrough...');
    await workbench.page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with Unified Inference' })
      .first()
      .click();
    await step('Set the gateway address').waitFor();
  }

  it('ticks the address, key, connection and chat steps done from the palette', async () => {
    const { page } = workbench;
    await openWalkthrough();
    assert.equal(await page.locator('.gettingStartedContainer .getting-started-step[aria-checked="true"]').count(), 0);

    await workbench.runCommand('Unified Inference: Set Gateway Address');
    await workbench.answerInput('Unified Inference: Set Gateway Address', gateway.url);
    await workbench.runCommand('Unified Inference: Set API Key');
    await workbench.answerInput('Unified Inference: Set API Key', gateway.apiKey);
    // The balance is read by itself once both are set: the gateway answered, so the connection works.
    await workbench.statusItem(`$${gateway.credits(gateway.apiKey).toFixed(2)}`).waitFor({ timeout: 60_000 });
    await workbench.runCommand('Unified Inference: Open Chat in Editor');
    await page.locator('.tab', { hasText: 'Unified Inference Chat' }).first().waitFor();

    // The chat's page has loaded (it says ready then): hidden behind the walkthrough before that, an
    // editor's webview is not kept, and would never say it.
    await workbench.webviewWith('.composer-input', 60_000);
    await openWalkthrough();
    for (const title of ['Set the gateway address', 'Set your API key', 'Test the connection', 'Open the chat'])
      await page
        .locator('.gettingStartedContainer .getting-started-step[aria-checked="true"]', { hasText: title })
        .first()
        .waitFor({ timeout: 30_000 });
    assert.equal(
      await page
        .locator('.gettingStartedContainer .getting-started-step[aria-checked="true"]', { hasText: 'completions' })
        .count(),
      0,
      'completions were not turned on',
    );
    await workbench.screenshot('walkthrough-steps-done-elsewhere');
  });
});
