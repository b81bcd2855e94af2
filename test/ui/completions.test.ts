import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalGateway } from '../gateway/index';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

// Inline completions as a user meets them in the real workbench: turned on from the palette (the
// model picked from the catalog, prices shown), typing in a real file shows ghost text with the
// file's real continuation (the local gateway's completion model knows the file), Tab accepts it,
// and the status item says they are on.
const REAL = [
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export function greet(name: string): string {',
  '  return `Hello, ${name}!`;',
  '}',
  '',
].join('\n');
// The file being written: the second line not finished yet.
const TYPED = REAL.replace('  return a + b;', '  return a');

describe('inline completions (real VS Code in Chromium, local gateway)', () => {
  let gateway: LocalGateway;
  let workbench: Workbench;
  let filesDir: string;

  useChatSuite({ workspaceFiles: { 'src/calc.ts': TYPED } }, (suite) => ({ gateway, workbench } = suite));

  before(() => {
    filesDir = mkdtempSync(join(tmpdir(), 'uiv-ui-completion-files-'));
    writeFileSync(join(filesDir, 'calc.ts'), REAL);
    gateway.setCompletionFiles(filesDir);
  });

  // The workbench is shared with the suites after this one: completions off again (they stay on in
  // the user's settings), so no ghost text lands in their editors.
  after(async () => {
    if (!workbench) return; // the shared workbench did not start: its own hook says why
    const on = workbench.page.locator('.part.statusbar [aria-label^="Inline completions: on"]').first();
    if (await on.isVisible()) {
      await workbench.runCommand('Unified Inference: Turn Inline Completions On/Off');
      await workbench.page.locator('.part.statusbar [aria-label="Inline completions: off"]').first().waitFor();
    }
    gateway.setCompletionFiles(undefined);
    rmSync(filesDir, { recursive: true, force: true });
  });

  it('turned on from the palette, typing shows ghost text, Tab accepts it, the status item says on', async () => {
    const { page } = workbench;
    const status = page.locator('.part.statusbar [aria-label^="Inline completions:"]').first();
    await status.waitFor({ timeout: 60_000 });
    assert.equal(await status.getAttribute('aria-label'), 'Inline completions: off');

    await workbench.runCommand('Unified Inference: Turn Inline Completions On/Off');
    // No model yet: the catalog's chat models, cheapest first, each with its price.
    const picker = page.locator('.quick-input-widget');
    await picker.locator('.quick-input-title', { hasText: 'Inline Completions Model' }).waitFor({ timeout: 30_000 });
    await picker.locator('input').fill('gpt-sim-complete');
    const row = picker
      .locator('.quick-input-list .monaco-list-row', { hasText: 'sim-openai/gpt-sim-complete' })
      .first();
    await row.waitFor();
    assert.match(await row.innerText(), /per million tokens in \/ out/);
    await page.keyboard.press('Enter');
    await page.locator('.part.statusbar [aria-label^="Inline completions: on"]').first().waitFor({ timeout: 30_000 });

    await workbench.quickOpen('calc.ts');
    const lines = page.locator('.monaco-editor .view-lines', { hasText: 'export function add' }).first();
    await lines.waitFor();
    await lines.click();
    // Line 2, at its end, then type as a user would.
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').fill(':2');
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.type(' +');

    const ghost = page.locator('.monaco-editor .ghost-text-decoration');
    await ghost.first().waitFor({ timeout: 60_000 });
    // The decoration may come in pieces (VS Code renders leading whitespace apart): all of them, in order.
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.monaco-editor .ghost-text-decoration')]
          .map((e) => e.textContent ?? '')
          .join('')
          .replace(/\u00a0/g, ' ')
          .includes('b;'),
      undefined,
      { timeout: 30_000 },
    );
    const shown = (await ghost.allTextContents()).join('').replace(/\u00a0/g, ' ');
    assert.equal(shown, ' b;');
    await workbench.movePointerAway();
    const shot = await workbench.screenshot('completions-01-ghost-text');
    assert.ok(shot);

    await page.keyboard.press('Tab');
    await page
      .locator('.monaco-editor .view-line', { hasText: /^\s*return\sa\s\+\sb;$/ })
      .first()
      .waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('.monaco-editor .ghost-text-decoration').count(), 0, 'the ghost text became text');
  });
});
