// The setting most UI suites share: a local gateway, the real workbench pointed at it (its address
// in user settings, where only a user may set it; the key in the environment), the Chat view
// shown alone so the conversation has room, and its webview frame.
//
// A suite that needs nothing at launch but that (its files and workspace settings can be written
// while VS Code runs) shares one workbench and one gateway with the other such suites of the run:
// a start of VS Code and Chromium costs more than most suites' tests. Before each such suite the
// workbench is put back to a known state (no editors, no notifications, the suite's files and
// settings, a new chat that shows the settings were applied). A suite that needs its own
// environment or user settings at launch starts a workbench of its own, stopped after it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { startGateway, type LocalGateway } from '../gateway/index';
import type { ServerOptions } from '../harness/testHost';
import { Workbench } from './workbench';

export interface ChatSuite {
  readonly gateway: LocalGateway;
  readonly workbench: Workbench;
  readonly chat: Frame;
}

/** What a suite on the shared workbench may bring: written into the running workspace before it. */
interface SharedSetup {
  readonly workspaceFiles?: Record<string, string>;
  readonly workspaceSettings?: Record<string, unknown>;
}

const CHAT_MODEL_KEY = 'unifiedInference.defaultModels.chat';

/** Registers the suite's before/after hooks; `ready` hands the started parts to the suite's variables. */
export function useChatSuite(options: ServerOptions, ready: (suite: ChatSuite) => void): void {
  if (needsOwnWorkbench(options)) {
    useOwnWorkbench(options, ready);
    return;
  }
  before(async () => {
    const { gateway, workbench } = await sharedWorkbench();
    ready({ gateway, workbench, chat: await resetSharedWorkbench(gateway, workbench, options) });
  });
}

/** Whether the options need a launch of their own: anything beyond files and workspace settings. */
function needsOwnWorkbench(options: ServerOptions): boolean {
  return Object.keys(options).some((key) => key !== 'workspaceFiles' && key !== 'workspaceSettings');
}

function useOwnWorkbench(options: ServerOptions, ready: (suite: ChatSuite) => void): void {
  let gateway: LocalGateway | undefined;
  let workbench: Workbench | undefined;
  before(async () => {
    gateway = await startGateway();
    workbench = await Workbench.open({
      ...options,
      userSettings: { 'unifiedInference.baseUrl': gateway.url, ...options.userSettings },
      env: { UNIFIED_INFERENCE_API_KEY: gateway.apiKey, ...options.env },
    });
    await workbench.showOnlyView('Unified Inference', 'Chat');
    ready({ gateway, workbench, chat: await workbench.webviewWith('.composer-input', 60_000) });
  });
  after(async () => {
    await workbench?.close();
    workbench?.removeFiles();
    await gateway?.stop();
  });
}

let shared: Promise<{ gateway: LocalGateway; workbench: Workbench }> | undefined;

function sharedWorkbench(): Promise<{ gateway: LocalGateway; workbench: Workbench }> {
  shared ??= (async () => {
    const gateway = await startGateway();
    try {
      const workbench = await Workbench.open({
        userSettings: { 'unifiedInference.baseUrl': gateway.url },
        // The key reaches the extension through its environment fallback, as with `npm start`.
        env: { UNIFIED_INFERENCE_API_KEY: gateway.apiKey },
      });
      return { gateway, workbench };
    } catch (error) {
      await gateway.stop();
      throw error;
    }
  })();
  shared.catch(() => (shared = undefined));
  return shared;
}

// The shared workbench closes after the last suite (a root hook of mocha), then its gateway.
if (typeof after === 'function')
  after(async () => {
    const started = await shared?.catch(() => undefined);
    shared = undefined;
    if (!started) return;
    await started.workbench.close();
    started.workbench.removeFiles();
    await started.gateway.stop();
  });

let generation = 0;

/**
 * Puts the shared workbench in the state a fresh one would be in for `setup`, and returns the
 * chat's frame. The settings are known to be applied when a new chat starts with the model they
 * name: first a model no suite uses (so that a suite naming the same model as the one before it
 * cannot pass on the old file), then the suite's own (or anything but that one).
 */
async function resetSharedWorkbench(gateway: LocalGateway, workbench: Workbench, setup: SharedSetup): Promise<Frame> {
  try {
    return await resetTo(gateway, workbench, setup);
  } catch (error) {
    // A hook's failure gets no FAILED- screenshot of its own (failureScreenshots.ts is per test).
    await workbench.screenshot(`FAILED-shared-workbench-reset-${generation}`).catch(() => undefined);
    throw error;
  }
}

async function resetTo(gateway: LocalGateway, workbench: Workbench, setup: SharedSetup): Promise<Frame> {
  const { page } = workbench;
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await dismissDialogs(workbench);
  await closeAllEditors(workbench);
  await workbench.runCommand('Notifications: Clear All Notifications');
  // A suite's scripted "no credits" refusal holds the status item at "Out of credits" until the
  // balance rises (limitHold.ts): the key is topped up, as a user's would be, and read again.
  const outOfCredits = workbench.statusItem('Out of credits');
  if (await outOfCredits.isVisible()) {
    gateway.setCredits(gateway.apiKey, gateway.credits(gateway.apiKey) + 5);
    await workbench.runCommand('Unified Inference: Refresh Credits');
    await outOfCredits.waitFor({ state: 'hidden' });
  }
  for (const [path, text] of Object.entries(setup.workspaceFiles ?? {})) {
    mkdirSync(join(workbench.server.workspace, path, '..'), { recursive: true });
    writeFileSync(join(workbench.server.workspace, path), text);
  }
  await workbench.showOnlyView('Unified Inference', 'Chat');
  const chat = await workbench.webviewWith('.composer-input', 60_000);
  const marker = `sim-openai/gpt-sim-mini::suite-${++generation}`;
  await applySettings(workbench, chat, { [CHAT_MODEL_KEY]: marker }, (shown) => shown === marker);
  const wanted = setup.workspaceSettings?.[CHAT_MODEL_KEY];
  await applySettings(workbench, chat, setup.workspaceSettings ?? {}, (shown) =>
    typeof wanted === 'string' ? shown === wanted : shown !== marker,
  );
  return chat;
}

/** Writes the workspace settings file, then opens new chats until one shows that VS Code applied it. */
async function applySettings(
  workbench: Workbench,
  chat: Frame,
  settings: Record<string, unknown>,
  applied: (shownModel: string) => boolean,
): Promise<void> {
  const dir = join(workbench.server.workspace, '.vscode');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  const picker = chat.locator('button.model-picker');
  for (const deadline = Date.now() + 30_000; ;) {
    await chat.locator('button[aria-label="New chat"]').click();
    await chat.locator('.empty-state').waitFor();
    const shown = (await picker.getAttribute('data-model')) ?? '';
    if (applied(shown)) return;
    if (Date.now() > deadline) throw new Error(`VS Code did not apply the settings: a new chat starts with ${shown}`);
    await workbench.page.waitForTimeout(250);
  }
}

/**
 * Closes a modal dialog a suite left (it makes the rest of the workbench inert, the palette
 * included), saying which: twice a clean-clone run found one after the account suite.
 */
async function dismissDialogs(workbench: Workbench): Promise<void> {
  const dialog = workbench.page.locator('.monaco-dialog-box');
  for (let attempt = 0; attempt < 3 && (await dialog.isVisible()); attempt++) {
    console.log(`      a dialog was open: ${(await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 200)}`);
    await workbench.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }
}

/** Closes every editor, answering "Don't Save" for any a suite left with unsaved changes. */
async function closeAllEditors(workbench: Workbench): Promise<void> {
  const { page } = workbench;
  const tabs = page.locator('.part.editor .tab');
  const dontSave = page.locator('.monaco-dialog-box button', { hasText: "Don't Save" });
  // Asked again while tabs stay and no dialog asks about them: a command typed into the palette
  // while the previous suite's focus was still settling can be lost.
  let asked = 0;
  for (const deadline = Date.now() + 30_000; asked === 0 || (await tabs.count()) > 0;) {
    if (await dontSave.isVisible()) await dontSave.click();
    else if (await page.locator('.monaco-dialog-box').isVisible()) await dismissDialogs(workbench);
    else if (Date.now() > asked + 3_000) {
      await workbench.runCommand('View: Close All Editors');
      asked = Date.now();
    }
    if (Date.now() > deadline) throw new Error(`editors did not close: ${(await tabs.allInnerTexts()).join(', ')}`);
    await page.waitForTimeout(100);
  }
}
