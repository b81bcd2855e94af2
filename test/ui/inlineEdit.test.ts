import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway, type LocalGateway } from '../gateway/index';
import { scriptedReplyItem } from '../gateway/scriptedReply';
import { useChatSuite } from './chatSuite';
import { Workbench } from './workbench';
import { MATH_SOURCE } from '../harness/mathSource';

// Inline edit as a user meets it: select lines, press Ctrl+K I (the extension's binding; Ctrl+I is
// VS Code's inline chat while a chat agent provides it), type the instruction in the input, see
// the inline diff with its lenses in the same editor, accept it with Alt+Shift+Y (not Ctrl+Enter: that
// is VS Code's Insert Line Below, which a user typing during the review presses by habit). The model is the
// local gateway's, answering a scripted text wrapped the way real models wrap it.
const FILE = MATH_SOURCE;
const ANSWER = [
  'Here is the updated function:',
  '',
  '```ts',
  'export function sub(a: number, b: number): number {',
  '  // Subtract b from a, never below zero.',
  '  return Math.max(0, a - b);',
  '}',
  '```',
  '',
  'It clamps the result at zero.',
].join('\n');

describe('inline edit (real VS Code in Chromium, local gateway)', () => {
  let workbench: Workbench;

  useChatSuite(
    {
      workspaceFiles: { 'src/math.ts': FILE },
      workspaceSettings: {
        'unifiedInference.inlineEdit.model': `sim-openai/gpt-sim-mini::${scriptedReplyItem(ANSWER)}`,
        'files.autoSave': 'afterDelay',
        'files.autoSaveDelay': 200,
      },
    },
    (suite) => ({ workbench } = suite),
  );

  it('Ctrl+K I on a selection: the instruction input, the inline diff with Accept/Reject lenses, Alt+Shift+Y accepts', async () => {
    const { page } = workbench;
    await workbench.quickOpen('math.ts');
    const lines = page.locator('.monaco-editor .view-lines', { hasText: 'export function sub' }).first();
    await lines.waitFor();
    // Select the whole `sub` function (lines 5 to 7) by keyboard.
    await page.locator('.monaco-editor .view-line', { hasText: 'export function sub' }).first().click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');

    // The binding under test: Ctrl+K I opens the extension's input. (Ctrl+I stays VS Code's inline
    // chat here: the built-in Copilot chat is set up, with this extension's models in it.)
    await page.keyboard.press('Control+K');
    await page.keyboard.press('I');
    const input = page.locator('.quick-input-widget input');
    await page
      .locator('.quick-input-widget', { hasText: 'Edit with Unified Inference: src/math.ts' })
      .waitFor({ timeout: 30_000 });
    await input.fill('clamp the result at zero and say so');
    await page.keyboard.press('Enter');

    // The inline diff in the same editor: the removed line marked, the added lines shown after it, lenses above.
    const lens = (text: string) => page.locator('.monaco-editor .codelens-decoration a', { hasText: text });
    await lens('Accept All').first().waitFor({ timeout: 60_000 });
    assert.equal(await lens('Reject All').count(), 1);
    assert.equal(await lens('Accept Change').count(), 1);
    assert.equal(await lens('Reject Change').count(), 1);
    // The added lines are decoration text (CSS content after the line), not text of the document.
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.monaco-editor .view-line span')].some((span) =>
          getComputedStyle(span, '::after').content.includes('return Math.max(0, a - b);'),
        ),
      undefined,
      { timeout: 30_000 },
    );
    assert.ok(
      await page.locator('.monaco-editor .view-line', { hasText: '  return a - b;' }).first().isVisible(),
      'the current line is still there',
    );
    // Auto-save is on (after 200 ms): the file on disk still holds only what the user wrote.
    const onDisk = (): string => readFileSync(join(workbench.server.workspace, 'src', 'math.ts'), 'utf8');
    assert.equal(await page.locator('.tabs-container .tab.dirty').count(), 0, 'nothing was written into the document');
    assert.equal(onDisk(), FILE, 'nothing on disk before Accept');
    await workbench.movePointerAway();
    await workbench.screenshot('inline-edit-01-review');

    // Accept by keyboard (focus is back in the editor).
    await page.locator('.monaco-editor .view-line', { hasText: 'export function add' }).first().click();
    await page.keyboard.press('Alt+Shift+Y');
    await lens('Accept All').first().waitFor({ state: 'detached', timeout: 30_000 });
    await page
      .locator('.monaco-editor .view-line', { hasText: '// Subtract b from a, never below zero.' })
      .first()
      .waitFor();
    assert.equal(
      await page.locator('.monaco-editor .view-line', { hasText: '  return a - b;' }).count(),
      0,
      'the old line is replaced',
    );
    assert.equal(
      await page.locator('.monaco-editor .view-lines', { hasText: 'It clamps the result' }).count(),
      0,
      'the prose is not in the file',
    );
    await workbench.screenshot('inline-edit-02-accepted');
    await page.waitForFunction(() => !document.querySelector('.tabs-container .tab.dirty'), undefined, {
      timeout: 30_000,
    });
    assert.match(
      onDisk(),
      /\/\/ Subtract b from a, never below zero\.\n {2}return Math\.max\(0, a - b\);\n/,
      'accepted, then auto-saved like any edit',
    );
  });
});

describe('inline edit without inline chat: Ctrl+I, Escape and the recalled instruction (real VS Code in Chromium)', () => {
  let gateway: LocalGateway;
  let workbench: Workbench;

  before(async () => {
    gateway = await startGateway();
    workbench = await Workbench.open({
      workspaceFiles: { 'src/math.ts': FILE },
      workspaceSettings: {
        'unifiedInference.inlineEdit.model': `sim-openai/gpt-sim-mini::${scriptedReplyItem('```ts\n// Subtraction follows.\n```')}`,
      },
      // No AI features of VS Code's own: no chat agent, so VS Code's inline chat does not take Ctrl+I.
      userSettings: { 'unifiedInference.baseUrl': gateway.url, 'chat.disableAIFeatures': true },
      env: { UNIFIED_INFERENCE_API_KEY: gateway.apiKey },
    });
  });

  after(async () => {
    await workbench?.close();
    workbench?.removeFiles();
    await gateway?.stop();
  });

  it('Ctrl+I on an empty line opens the input; Escape rejects all; ↓ recalls the last instruction', async () => {
    const { page } = workbench;
    await workbench.quickOpen('math.ts');
    await page.locator('.monaco-editor .view-line', { hasText: 'export function sub' }).first().click();
    await page.keyboard.press('ArrowUp'); // the empty line 4
    const widget = page.locator('.quick-input-widget', { hasText: 'Edit with Unified Inference: src/math.ts' });
    await page.keyboard.press('Control+I');
    await widget.waitFor({ timeout: 30_000 });
    await page.locator('.quick-input-widget input').fill('note what follows');
    await page.keyboard.press('Enter');
    const acceptAll = page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Accept All' });
    await acceptAll.first().waitFor({ timeout: 60_000 });
    // Escape rejects only when no widget is open, a notification toast included (any message of
    // the workbench may show one): cleared first, then the cursor back in the editor.
    await workbench.runCommand('Notifications: Clear All Notifications');
    await page
      .locator('.notification-toast')
      .first()
      .waitFor({ state: 'detached', timeout: 30_000 })
      .catch(() => undefined);
    assert.equal(await page.locator('.notification-toast').count(), 0, 'no toast left');
    await page.locator('.monaco-editor .view-line', { hasText: 'export function sub' }).first().click();
    await page.keyboard.press('ArrowUp'); // the empty line 4 again (the recalled edit is made there too)
    await page.keyboard.press('Escape');
    await acceptAll.first().waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(await page.locator('.tabs-container .tab.dirty').count(), 0, 'rejected: nothing written');

    // Again: the input lists the last instruction; ↓ and Enter send it.
    await page.keyboard.press('Control+I');
    await widget.waitFor({ timeout: 30_000 });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'note what follows' }).first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await acceptAll.first().waitFor({ timeout: 60_000 });
    await workbench.screenshot('inline-edit-03-recalled');
    await page.keyboard.press('Alt+Shift+Y');
    await page
      .locator('.monaco-editor .view-line', { hasText: '// Subtraction follows.' })
      .first()
      .waitFor({ timeout: 30_000 });
  });
});
