import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { findSecretLeaks } from '../harness/secretScan';
import { Workbench } from './workbench';

const BASE_URL = 'http://127.0.0.1:9/ui-test-gateway';

describe('the workbench with Unified Inference (real VS Code in Chromium)', () => {
  let workbench: Workbench;
  const key = `uik-ui-${randomBytes(10).toString('hex')}`;

  before(async () => {
    // On disk, so the secret scan after the suite searches the browser's storage too.
    workbench = await Workbench.open({ userSettings: { 'unifiedInference.baseUrl': BASE_URL }, browserOnDisk: true });
  });

  after(async () => {
    if (!workbench) return;
    await workbench.close();
    const leaks = findSecretLeaks(workbench.server.runDir, key);
    if (leaks.length === 0) workbench.removeFiles();
    assert.deepEqual(leaks, [], 'no file written by VS Code or the browser holds the key');
  });

  it('shows the Research & Models view container with the Research Jobs and Models views', async () => {
    await workbench.openContainer('Research & Models');
    const page = workbench.page;
    await page.locator('.pane-header', { hasText: 'Research Jobs' }).first().waitFor();
    await page.locator('.pane-header', { hasText: 'Models' }).first().waitFor();
    await page.locator('.welcome-view-content', { hasText: 'First, set your API key' }).first().waitFor();
    await workbench.screenshot('01-view-container');
  });

  it('shows the Chat alone in the Unified Inference view container', async () => {
    await workbench.showOnlyView('Unified Inference', 'Chat');
    assert.equal(
      await workbench.page.locator('.part.sidebar .pane-header:visible').count(),
      0,
      'no other view shares the side bar',
    );
  });

  it('renders the chat webview through the secure page, showing what is missing', async () => {
    const chat = workbench.webview();
    await chat.locator('.connection-card').waitFor();
    assert.match(
      await chat.locator('.connection-card').innerText(),
      new RegExp(`Gateway: ${BASE_URL.replace(/[/.]/g, '\\$&')}`),
    );
    await chat.locator('li.step.todo', { hasText: 'API key not set' }).waitFor();
    assert.equal(await chat.locator('button', { hasText: 'Set API Key' }).getAttribute('type'), 'button');
    await workbench.screenshot('02-chat-webview-no-key');
  });

  it('shows the missing key in the status bar', async () => {
    await workbench.statusItem('Set API key').waitFor();
  });

  it("refuses an empty key in the palette's password box", async () => {
    await workbench.runCommand('Unified Inference: Set API Key');
    const input = workbench.page.locator('.quick-input-widget input[type="password"]');
    await input.waitFor();
    await input.fill('   ');
    await workbench.page.locator('.quick-input-message', { hasText: 'Enter the API key' }).waitFor();
    await workbench.page.keyboard.press('Escape');
  });

  it('sets the key through the palette and every view reflects it', async () => {
    await workbench.runCommand('Unified Inference: Set API Key');
    const input = workbench.page.locator('.quick-input-widget input[type="password"]');
    await input.waitFor();
    await input.fill(key);
    await workbench.screenshot('03-palette-password-box');
    await workbench.page.keyboard.press('Enter');
    await workbench.expectNotification('Unified Inference: API key saved.');
    await workbench.screenshot('04-key-saved-notification');
    await workbench.hideNotifications();
    // Nothing listens at the test address: the credits item says so instead of asking for a key.
    const offline = workbench.statusItem('Offline');
    await offline.waitFor();
    assert.equal(await workbench.statusItem('Set API key').count(), 0, 'the key prompt is gone');
    // The icon draws (an unknown name draws as nothing) and a screen reader hears the state in words.
    const glyph = await offline
      .locator('.codicon-debug-disconnect')
      .evaluate((icon) => getComputedStyle(icon, '::before').content);
    assert.ok(glyph !== 'none' && glyph !== '' && glyph !== '""', `the offline icon has a glyph (${glyph})`);
    assert.match(
      (await offline
        .locator('[aria-label]')
        .first()
        .getAttribute('aria-label')
        .catch(() => null)) ??
        (await offline.getAttribute('aria-label')) ??
        '',
      /gateway is unreachable; no balance has been read yet/,
    );
    await workbench.screenshot('04b-offline-status');
    // With an address and a key the chat needs no setup: the checklist gives way to the message box.
    const chat = workbench.webview();
    await chat.locator('.connection-card').waitFor({ state: 'hidden' });
    await chat.locator('.composer-input').waitFor();
    assert.equal(await chat.locator('button:visible', { hasText: 'Set API Key' }).count(), 0);
    await workbench.page
      .locator('.welcome-view-content', { hasText: 'First, set your API key' })
      .waitFor({ state: 'detached' });
    await workbench.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await workbench.screenshot('05-key-set');
  });

  it("opens the key box from the chat webview's button (webview -> host message)", async () => {
    await workbench.runCommand('Unified Inference: Clear API Key');
    const dialog = workbench.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    await workbench.screenshot('06-clear-confirmation');
    await dialog.locator('.monaco-button', { hasText: 'Clear API Key' }).click();
    await workbench.statusItem('Set API key').waitFor();
    const chat = workbench.webview();
    await chat.locator('button', { hasText: 'Set API Key' }).click();
    await workbench.page.locator('.quick-input-widget input[type="password"]').waitFor();
    await workbench.page.keyboard.press('Escape');
  });

  it('shows the log from the palette, without the key', async () => {
    await workbench.runCommand('Unified Inference: Show Log');
    // The output follows its end; the filter brings the line we look for into view.
    const filter = workbench.page.locator('.part.panel input[placeholder^="Filter"]').first();
    await filter.fill('API key');
    const output = workbench.page.locator('.part.panel .view-lines');
    await output.filter({ hasText: 'API key stored in secret storage' }).first().waitFor();
    assert.ok(!(await output.first().innerText()).includes(key));
    await workbench.screenshot('07-log');
  });
});
