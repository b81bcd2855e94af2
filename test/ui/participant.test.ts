import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import {
  ensureTestHost,
  launchBrowser,
  REPO_ROOT,
  removeRunDir,
  startVsCodeServer,
  waitForWorkbench,
  workbenchUrl,
  type VsCodeServer,
} from '../harness/testHost';
import { startGateway, type LocalGateway } from '../gateway/index';
import { SCREENSHOT_DIR } from './workbench';

const DRIVER_LOG = join(REPO_ROOT, 'test-results', 'ui-participant-driver.log');
const driverLog = (): string =>
  existsSync(DRIVER_LOG) ? readFileSync(DRIVER_LOG, 'utf8').trim() : 'the driver wrote nothing';

async function frameWith(page: Page, selector: string, timeoutMs = 60_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (
        frame !== page.mainFrame() &&
        (await frame
          .locator(selector)
          .count()
          .catch(() => 0)) > 0
      )
        return frame;
    }
    if (Date.now() > deadline) throw new Error(`No frame shows ${selector}`);
    await page.waitForTimeout(250);
  }
}

// The workbench loads test/ui/participantDriver as its extension test entry: it sends
// `@unified /speak` through the participant's handler inside the extension host; this side
// drives and photographs the audio panel that opens, as a user sees it.
describe('@unified /speak: the audio player panel (real VS Code in Chromium)', () => {
  let gateway: LocalGateway;
  let server: VsCodeServer;
  let context: BrowserContext;
  let page: Page;
  let driverExit: number | undefined;

  before(async () => {
    rmSync(DRIVER_LOG, { force: true });
    gateway = await startGateway();
    const host = ensureTestHost();
    server = await startVsCodeServer(host, {
      userSettings: { 'unifiedInference.baseUrl': gateway.url },
      env: { UNIFIED_INFERENCE_API_KEY: gateway.apiKey },
    });
    const profile = join(server.runDir, 'browser');
    mkdirSync(profile);
    context = await launchBrowser(host, profile);
    page = context.pages()[0] ?? (await context.newPage());
    // The driver only ends (with a code) when it fails: say so instead of waiting for a panel.
    await page.exposeFunction('codeAutomationExit', (code: number) => {
      driverExit = Number(code);
    });
    await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => {
      if (process.env.UNIFIED_INFERENCE_TEST_VERBOSE) console.log('[workbench]', ...args);
    });
    const remote = (path: string): string => `vscode-remote://127.0.0.1:${server.port}${path}`;
    await page.goto(
      workbenchUrl(server, [
        ['extensionDevelopmentPath', remote(REPO_ROOT)],
        ['extensionTestsPath', remote(join(REPO_ROOT, 'out', 'test', 'ui', 'participantDriver.js'))],
      ]),
    );
    await waitForWorkbench(page);
  });

  after(async () => {
    await context?.close().catch(() => undefined);
    await server?.stop();
    if (server) removeRunDir(server);
    await gateway?.stop();
  });

  const screenshot = async (name: string): Promise<void> => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  };

  it('opens "Unified Inference Audio" beside the editor with the answer loaded, themed controls and labels', async () => {
    const tab = page.locator('.tab', { hasText: 'Unified Inference Audio' }).first();
    const deadline = Date.now() + 90_000;
    while (!(await tab.isVisible())) {
      assert.equal(
        driverExit,
        undefined,
        'the extension-host driver failed (UNIFIED_INFERENCE_TEST_VERBOSE=1 shows why)',
      );
      assert.ok(Date.now() < deadline, `the audio panel did not open (${driverLog()})`);
      await page.waitForTimeout(250);
    }
    const player = await frameWith(page, '.player');
    await player.locator('.part', { hasText: 'Part 1 of 1' }).waitFor();
    assert.equal(await player.locator('.title').innerText(), 'Streams in short.');
    const play = player.locator('button.play');
    assert.ok(['Play', 'Pause'].includes((await play.getAttribute('aria-label')) ?? ''));
    assert.equal(await player.locator('select.speed').getAttribute('aria-label'), 'Playback speed');
    assert.equal(await player.locator('input.progress').getAttribute('aria-label'), 'Position in the current part');
    const background = await player.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
    assert.notEqual(background, 'rgba(0, 0, 0, 0)', 'the editor background of the theme');
    await screenshot('participant-01-audio-player');
  });

  it('plays, pauses and changes speed', async () => {
    const player = await frameWith(page, '.player');
    const play = player.locator('button.play');
    if ((await play.getAttribute('aria-label')) === 'Play') await play.click();
    await player.locator('button.play[aria-label="Pause"]').waitFor({ timeout: 15_000 });
    await player.locator('select.speed').selectOption('1.5');
    const rate = await player.locator('audio').evaluate((audio) => (audio as HTMLAudioElement).playbackRate);
    assert.equal(rate, 1.5);
    await page.waitForTimeout(1_000);
    const time = await player.locator('.time').innerText();
    assert.match(time, /^0:0\d \/ 0:\d\d$/);
    await screenshot('participant-02-audio-playing');
    await player.locator('button.play').click();
    await player.locator('button.play[aria-label="Play"]').waitFor();
  });
});
