import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

// "Restore files to before this reply" as a user meets it: a conversation whose reply changed a
// file through the checkpoint contract (made at activation by the UI-test seed, since the browser
// cannot reach the extension's test API), the Restore button on the reply, the preview listing
// the file with a Show Diff button, and the file back byte for byte after confirming.
const ORIGINAL = 'export function add(a: number, b: number): number {\r\n  return a + b;\r\n}\r\n';
const CHANGED = 'export function sum(values: number[]): number {\n  return values.reduce((a, b) => a + b, 0);\n}\n';

describe("checkpoints: restore a reply's files (real VS Code in Chromium)", () => {
  let workbench: Workbench;
  let chat: Frame;
  const onDisk = (): string => readFileSync(join(workbench.server.workspace, 'src', 'app.ts'), 'utf8');

  useChatSuite(
    {
      workspaceFiles: { 'src/app.ts': ORIGINAL },
      env: { UNIFIED_INFERENCE_UI_CHECKPOINT_SEED: JSON.stringify({ path: 'src/app.ts', text: CHANGED }) },
    },
    (suite) => ({ workbench, chat } = suite),
  );

  it('shows the preview with the file and its diff, and restores the file on confirm', async () => {
    const restore = chat.locator('.turn.assistant button.restore-checkpoint');
    await restore.waitFor({ timeout: 60_000 });
    assert.equal(onDisk(), CHANGED, 'the reply changed the file');
    assert.equal(await restore.innerText(), 'Restore checkpoint', 'a labelled button');
    // By keyboard, as a user without a mouse would.
    await restore.focus();
    await restore.press('Enter');

    const widget = workbench.page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: 'Restore files to before this reply' }).waitFor();
    const restoreRow = widget.locator('.monaco-list-row', { hasText: 'Restore 1 file' });
    const fileRow = widget.locator('.monaco-list-row', { hasText: 'src/app.ts' });
    await restoreRow.waitFor();
    await fileRow.waitFor();
    assert.match(await fileRow.innerText(), /restore its content/);
    await workbench.screenshot('checkpoint-01-restore-preview');

    // Show Diff: the file now against what it goes back to; the preview stays open.
    await fileRow.hover();
    await fileRow.locator('.action-label[aria-label="Show Diff"], .action-label[title="Show Diff"]').first().click();
    await workbench.page.locator('.tab', { hasText: 'now ↔ before the reply' }).first().waitFor();
    await workbench.page.locator('.monaco-diff-editor').first().waitFor();
    await restoreRow.waitFor();
    await workbench.screenshot('checkpoint-02-restore-diff');

    assert.equal(onDisk(), CHANGED, 'nothing moved before the user confirmed');
    await restoreRow.click();
    for (const deadline = Date.now() + 30_000; onDisk() !== ORIGINAL;) {
      if (Date.now() > deadline) throw new Error(`the file was not restored: ${JSON.stringify(onDisk())}`);
      await workbench.page.waitForTimeout(200);
    }
    assert.equal(onDisk(), ORIGINAL, 'back byte for byte, CRLF included');
    // Said on the reply itself, where the button was pressed (the notification adds the count).
    await chat.locator('.turn.assistant .turn-footer .restored-note', { hasText: 'Restored' }).waitFor();
    await workbench.expectNotification('Restored 1 file to before the reply.');
    await workbench.screenshot('checkpoint-03-restored');
  });
});
