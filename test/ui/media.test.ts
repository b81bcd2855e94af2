import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import type { LocalGateway } from '../gateway/index';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

const READING =
  'The lighthouse keeper climbed the stairs at dusk. She lit the lamp, and the beam swept over the water.';

// A user's path through the media commands in a real workbench: Generate Image... from the
// palette into the gallery (save, then copy a link), and Read Selection Aloud from an editor
// selection into the audio player. Every prompt is answered with the keyboard.
describe('media: image gallery and read-aloud player (real VS Code in Chromium)', function () {
  this.timeout(180_000);
  let gateway: LocalGateway;
  let workbench: Workbench;

  useChatSuite(
    {
      workspaceFiles: { 'notes/reading.md': `${READING}\n` },
      workspaceSettings: { 'unifiedInference.images.folder': 'art' },
    },
    (suite) => ({ gateway, workbench } = suite),
  );

  /** Answers the open quick input: types `text` (if any) and presses Enter. */
  async function answer(title: string | RegExp, text?: string): Promise<void> {
    const { page } = workbench;
    await page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ timeout: 30_000 });
    if (text !== undefined) await page.locator('.quick-input-widget input').fill(text);
    // A pick takes Enter for its focused row: wait until the filter has focused the typed one (a
    // fixed pause raced the filter on a busy machine). An input box has no rows.
    if ((await page.locator('.quick-input-list .monaco-list-row:visible').count()) > 0) {
      await page
        .locator('.quick-input-list .monaco-list-row.focused:visible', text === undefined ? {} : { hasText: text })
        .waitFor({ timeout: 15_000 });
    }
    await page.keyboard.press('Enter');
  }

  it('Generate Image... shows the images in the gallery with revised prompts and labelled actions; Save then Copy Markdown Link', async () => {
    await workbench.runCommand('Unified Inference: Generate Image...');
    await answer('Generate Image: prompt', 'A lighthouse at dusk, watercolour');
    await answer('Generate Image: model');
    await answer('Generate Image: size', '1792x1024');
    await answer('Generate Image: quality');
    await answer('Generate Image: how many images', '2');

    const gallery: Frame = await workbench.webviewWith('.grid .card', 90_000);
    await gallery.locator('.card').nth(1).waitFor();
    assert.equal(await gallery.locator('.card').count(), 2);
    await gallery
      .locator('.card img.picture')
      .first()
      .evaluate((img) => (img as HTMLImageElement).decode());
    const width = await gallery
      .locator('.card img.picture')
      .first()
      .evaluate((img) => (img as HTMLImageElement).naturalWidth);
    assert.equal(width, 1792, 'the PNG bytes from the host, decoded in the webview');
    assert.match(await gallery.locator('.card .revised').first().innerText(), /simulat/i);
    assert.match(await gallery.locator('.card .meta').first().innerText(), /dall-e-sim-3 · 1792x1024 · standard/);
    const save = gallery.locator('.card button.action', { hasText: 'Save to Workspace' }).first();
    assert.match((await save.getAttribute('aria-label')) ?? '', /^Save image \d+ to the workspace as PNG$/);
    assert.ok(
      await gallery.locator('.card button.action', { hasText: 'Copy Markdown Link' }).first().isDisabled(),
      'no link before saving',
    );
    await workbench.screenshot('media-01-image-gallery');

    // Keyboard: focus Save and press Enter, as a keyboard user would.
    await save.focus();
    await workbench.page.keyboard.press('Enter');
    await gallery
      .locator('.card .saved', { hasText: /Saved to art\/image-.*\.png/ })
      .first()
      .waitFor({ timeout: 15_000 });
    const copy = gallery.locator('.card button.action', { hasText: 'Copy Markdown Link' }).first();
    assert.ok(await copy.isEnabled());
    await copy.click();
    await workbench.screenshot('media-02-image-saved');
  });

  it('Read Selection Aloud plays the selection in the audio player', async () => {
    const { page } = workbench;
    await workbench.quickOpen('reading.md');
    await page.locator('.monaco-editor .view-lines', { hasText: 'lighthouse keeper' }).first().waitFor();
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+A');
    // Not workbench.runCommand: its click to focus the workbench would land in the editor and
    // clear the selection.
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>Unified Inference: Read Selection Aloud');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Read Selection Aloud' }).first().waitFor();
    await page.keyboard.press('Enter');
    await answer('Read Aloud: model');
    await answer('Read Aloud: voice', 'nova');
    await answer('Read Aloud: audio format', 'wav');
    await answer('Read Aloud: speed');

    const player = await workbench.webviewWith('.player .title', 60_000);
    await player.locator('.title', { hasText: 'The lighthouse keeper climbed' }).waitFor();
    await player.locator('.part', { hasText: 'Part 1 of 1' }).waitFor({ timeout: 30_000 });
    const play = player.locator('button.play');
    if ((await play.getAttribute('aria-label')) === 'Play') await play.click();
    await player.locator('button.play[aria-label="Pause"]').waitFor({ timeout: 15_000 });
    // Poll the position (waitForFunction would compile its predicate in the page, which the CSP
    // forbids): a fixed sleep was a guess on a busy machine.
    let position = 0;
    for (const deadline = Date.now() + 15_000; position <= 0.3 && Date.now() < deadline;) {
      await page.waitForTimeout(200);
      position = await player.locator('audio').evaluate((audio) => (audio as HTMLAudioElement).currentTime);
    }
    assert.ok(position > 0.3, `playing (${position} s)`);
    const sent = gateway.requests.find((r) => r.path === '/api/v1/audio/speech')?.body as Record<string, unknown>;
    assert.deepEqual([sent.voice, sent.response_format, sent.speed], ['nova', 'wav', 1]);
    await workbench.screenshot('media-03-read-aloud-playing');
  });
});
