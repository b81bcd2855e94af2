// A real VS Code workbench in a real Chromium with the extension loaded from this repository, for
// the UI tests: start it once per suite, drive it like a user, take screenshots.
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { trackWorkbench, untrackWorkbench } from './failureScreenshots';
import {
  README_SCREENSHOT_MAX_BYTES,
  README_SCREENSHOTS,
  UPDATE_SCREENSHOTS_ENV,
  type ReadmeScreenshot,
} from './readmeScreenshots';
import {
  closeSharedBrowser,
  ensureTestHost,
  launchBrowser,
  newBrowserContext,
  REPO_ROOT,
  removeRunDir,
  startVsCodeServer,
  waitForWorkbench,
  workbenchUrl,
  type ServerOptions,
  type VsCodeServer,
} from '../harness/testHost';

export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-results', 'screenshots');
const README_SCREENSHOT_DIR = join(REPO_ROOT, 'media', 'screenshots');

/** Bound on the extension's activation after the workbench shows (a hung start, not a slow one). */
const EXTENSION_START_MS = 120_000;

// The Chromium the run's workbenches share closes after the last suite (a root hook of mocha).
after(closeSharedBrowser);

export interface WorkbenchOptions extends ServerOptions {
  /**
   * The browser's storage in a profile on disk, inside the run folder (a later start with this
   * `runDir` reuses it; a secret scan of the run folder covers it). Default: an in-memory profile
   * in the Chromium the UI tests share, much quicker to start.
   */
  readonly browserOnDisk?: boolean;
}

export class Workbench {
  private constructor(
    readonly page: Page,
    readonly server: VsCodeServer,
    private readonly context: BrowserContext,
  ) {}

  static async open(options: WorkbenchOptions = {}): Promise<Workbench> {
    const host = ensureTestHost();
    const server = await startVsCodeServer(host, options);
    let context: BrowserContext | undefined;
    try {
      // A restart (options.runDir) reuses the browser's storage of the first start too.
      const profile = join(server.runDir, 'browser');
      if (options.browserOnDisk || existsSync(profile)) {
        mkdirSync(profile, { recursive: true });
        context = await launchBrowser(host, profile);
      } else {
        context = await newBrowserContext(host);
      }
      const page = context.pages()[0] ?? (await context.newPage());
      const remote = `vscode-remote://127.0.0.1:${server.port}${REPO_ROOT}`;
      await page.goto(workbenchUrl(server, [['extensionDevelopmentPath', remote]]));
      await waitForWorkbench(page);
      // The extension activates after startup; on a loaded machine that took over 30 s, longer
      // than a test's first wait. Its status bar item (always shown) says it is running.
      await page
        .locator('.part.statusbar [aria-label^="Unified Inference:"]')
        .first()
        .waitFor({ timeout: EXTENSION_START_MS });
      const workbench = new Workbench(page, server, context);
      trackWorkbench(workbench);
      return workbench;
    } catch (error) {
      await context?.close().catch(() => undefined);
      await server.stop();
      throw error;
    }
  }

  async close(): Promise<void> {
    untrackWorkbench(this);
    await this.context.close().catch(() => undefined);
    await this.server.stop();
  }

  removeFiles(): void {
    removeRunDir(this.server);
  }

  /** Runs a command from the palette by its full title, as a user would. */
  async runCommand(title: string): Promise<void> {
    // The palette lists the commands known when it opens: on a loaded machine the extension's may
    // register a moment after the workbench shows, so a palette without the command is reopened.
    await this.pickReopening(() => this.openPalette(), `>${title}`, title);
  }

  /**
   * Answers the input box titled `title` (a command's showInputBox) with `value`: waits for that
   * box, not just any quick input (the palette that ran the command may still hold the widget).
   */
  async answerInput(title: string, value: string): Promise<void> {
    const widget = this.page.locator('.quick-input-widget', {
      has: this.page.locator('.quick-input-title', { hasText: title }),
    });
    const input = widget.locator('input').first();
    await input.fill(value);
    // A box replaced meanwhile would have lost the text: Enter only on the text in this one.
    if ((await input.inputValue()) !== value) throw new Error(`The input box "${title}" did not take the text.`);
    await input.press('Enter');
  }

  /** Opens a workspace file by name through Quick Open (Ctrl+P), as a user would. */
  async quickOpen(name: string): Promise<void> {
    // A file search that ran before the workspace's file list caught up with a file written a
    // moment ago answers "No matching results" and is not run again: Quick Open is reopened.
    await this.pickReopening(
      async () => {
        await this.focusWorkbench();
        await this.page.keyboard.press('Control+P');
      },
      name,
      name,
    );
  }

  /**
   * Opens a quick input with `open`, types `text` and picks the first row showing `rowText`;
   * closed and opened again (three tries) when no such row comes, or when the input closes before
   * the text is in it (a webview that took the focus back closes it; clean-clone runs saw it after
   * the image gallery and after the account suite).
   */
  private async pickReopening(open: () => Promise<void>, text: string, rowText: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: rowText }).first();
      try {
        await open();
        await this.page.locator('.quick-input-widget input').fill(text, { timeout: 10_000 });
        await row.waitFor({ timeout: attempt < 3 ? 10_000 : 30_000 });
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
        await this.page.keyboard.press('Escape');
      }
    }
    await this.page.keyboard.press('Enter');
  }

  async openPalette(): Promise<void> {
    await this.focusWorkbench();
    await this.page.keyboard.press('F1');
    await this.page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  }

  /**
   * Takes the keyboard focus from a webview back to the workbench, so that its keybindings reach
   * it: a click on the title bar's empty left part. (A click in the middle of the window landed on
   * whatever an editor showed there: a walkthrough's step button once ran its command over the
   * palette.)
   */
  private async focusWorkbench(): Promise<void> {
    await this.page
      .locator('.part.titlebar')
      .click({ position: { x: 200, y: 10 } })
      .catch(() => undefined);
  }

  /**
   * Opens a view container (unless it is open already: a click on the open one would close the
   * side bar) and gives one of its views the room: the other views are folded (their lists are
   * virtual, so rows below a small view's fold are never rendered). A container with one view
   * (the chat's) shows it merged with the container's title, without a view header.
   */
  async showOnlyView(container: string, view: string): Promise<void> {
    await this.openContainer(container);
    const sidebar = this.page.locator('.part.sidebar');
    const headers = sidebar.locator('.pane-header:visible');
    const merged = sidebar.locator('.composite.title .title-label', {
      hasText: new RegExp(`: ${escapeRegExp(view)}$`, 'i'),
    });
    await headers.filter({ hasText: view }).or(merged).first().waitFor();
    if (await merged.isVisible()) return;
    for (const header of await headers.all()) {
      const title = (await header.innerText()).split('\n')[0]?.trim() ?? '';
      const expanded = (await header.getAttribute('aria-expanded')) === 'true';
      if (expanded !== (title.toLowerCase() === view.toLowerCase())) await header.click();
    }
  }

  /** Shows a view container in the side bar as a user does, by its activity bar entry. */
  async openContainer(container: string): Promise<void> {
    // The entry's item, not its label: a badge drawn over the label ("1 research report ready")
    // takes the pointer events a click on the label would need.
    if (!(await this.isContainerOpen(container)))
      await this.page
        .locator('.activitybar .action-item')
        .filter({ has: this.page.locator(activityLabel(container)) })
        .first()
        .click();
    await this.page
      .locator('.part.sidebar .composite.title .title-label', {
        hasText: new RegExp(`^${escapeRegExp(container)}(:|$)`, 'i'),
      })
      .waitFor();
  }

  async isContainerOpen(container: string): Promise<boolean> {
    const item = this.page
      .locator('.activitybar .action-item.checked')
      .filter({ has: this.page.locator(activityLabel(container)) });
    return (await item.count()) > 0 && (await this.page.locator('.part.sidebar').isVisible());
  }

  /** The activity bar entry of a view container, by its exact title (titles may share a prefix). */
  activityItem(name: string): Locator {
    return this.page.locator('.activitybar').locator(activityLabel(name)).first();
  }

  /** The inner frame of the (only visible) webview, where its page runs. */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  }

  /**
   * The webview frame (of several open: views, previews) whose page has `selector`: webviews sit
   * in an overlay outside the part that shows them, so the frame is found by what it holds.
   */
  async webviewWith(selector: string, timeoutMs = 30_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const frame of this.page.frames()) {
        if (frame === this.page.mainFrame()) continue;
        if (
          (await frame
            .locator(selector)
            .count()
            .catch(() => 0)) > 0
        )
          return frame;
      }
      if (Date.now() > deadline) throw new Error(`No webview shows ${selector}`);
      await this.page.waitForTimeout(200);
    }
  }

  statusItem(text: string): Locator {
    return this.page.locator('.statusbar-item', { hasText: text }).first();
  }

  /**
   * Waits for a notification, looking in the notification center: in this headless workbench
   * notifications do not always pop up as toasts, but they always reach the center.
   */
  async expectNotification(text: string | RegExp): Promise<void> {
    const inCenter = this.page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
    const toast = this.page.locator('.notification-toast', { hasText: text }).first();
    const center = this.page.locator('.notifications-center.visible');
    // The toast, or the list: shown again while neither holds it (a toast hides after a while, and
    // a command typed while the workbench was busy can be lost).
    for (const deadline = Date.now() + 60_000; ;) {
      if (await toast.isVisible()) return;
      if (!(await center.isVisible())) await this.runCommand('Notifications: Show Notifications');
      try {
        await inCenter.waitFor({ timeout: 5_000 });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
    }
  }

  async hideNotifications(): Promise<void> {
    await this.runCommand('Notifications: Hide Notifications');
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const path = join(SCREENSHOT_DIR, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /**
   * Moves the mouse off whatever it last clicked (an activity bar entry's tooltip would cover the
   * side bar in a picture) to the editor area's lower part, where nothing has a hover, and waits
   * for open hovers to close.
   */
  async movePointerAway(): Promise<void> {
    const viewport = this.page.viewportSize() ?? { width: 1400, height: 900 };
    await this.page.mouse.move(Math.round(viewport.width * 0.7), viewport.height - 100);
    await this.page.locator('.monaco-hover:visible').first().waitFor({ state: 'hidden' });
  }

  /**
   * A picture for the README: a JPEG of the workbench left of the secondary side bar (VS Code's own
   * chat sits there), into test-results/screenshots/readme-<file>, and into media/screenshots/ only
   * when UNIFIED_INFERENCE_UPDATE_SCREENSHOTS=1, so a test run never changes the tree.
   */
  async readmeScreenshot(name: ReadmeScreenshot): Promise<string> {
    const file = README_SCREENSHOTS[name];
    const viewport = this.page.viewportSize() ?? { width: 1400, height: 900 };
    await this.movePointerAway();
    const aux = this.page.locator('.part.auxiliarybar');
    const auxBox = (await aux.isVisible()) ? await aux.boundingBox() : null;
    const width = Math.round(auxBox && auxBox.x > viewport.width / 2 ? auxBox.x : viewport.width);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const path = join(SCREENSHOT_DIR, `readme-${file}`);
    await this.page.screenshot({
      path,
      type: 'jpeg',
      quality: 80,
      clip: { x: 0, y: 0, width, height: viewport.height },
    });
    const size = statSync(path).size;
    if (size > README_SCREENSHOT_MAX_BYTES)
      throw new Error(`${path} is ${size} bytes, over the README's cap of ${README_SCREENSHOT_MAX_BYTES}`);
    if (process.env[UPDATE_SCREENSHOTS_ENV] === '1') {
      mkdirSync(README_SCREENSHOT_DIR, { recursive: true });
      copyFileSync(path, join(README_SCREENSHOT_DIR, file));
    }
    return path;
  }
}

/**
 * An activity bar entry's label: its title, maybe followed by a keybinding in brackets, or by its
 * badge's words ("Research & Models - 1 research report ready to read").
 */
function activityLabel(name: string): string {
  return `.action-label[aria-label="${name}"], .action-label[aria-label^="${name} ("], .action-label[aria-label^="${name} - "]`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
