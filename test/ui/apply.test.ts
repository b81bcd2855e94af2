import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { scriptedReplyItem } from '../gateway/scriptedReply';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';
import { MATH_SOURCE } from '../harness/mathSource';

// Apply as a user meets it: a reply's code block names a file, Apply (by keyboard) opens VS Code's
// diff editor with Accept / Reject lenses on each change, and accepting writes the change into the
// editor. The chat model and the merge model are the local gateway's, answering scripted texts
// (reply=...): the reply a real model would give, and the merged file.
const FILE = MATH_SOURCE;
const MERGED = FILE.replace('  return a + b;', '  // Adds two numbers.\n  return a + b;').replace(
  '  return a * b;',
  '  return Math.imul(a, b);',
);
const REPLY = [
  'Document `add` and keep `mul` in 32-bit integers, in `src/app.ts`:',
  '',
  '```ts src/app.ts',
  'export function add(a: number, b: number): number {',
  '  // Adds two numbers.',
  '  return a + b;',
  '}',
  '',
  '// ... existing code ...',
  '',
  'export function mul(a: number, b: number): number {',
  '  return Math.imul(a, b);',
  '}',
  '```',
].join('\n');

describe('apply a chat code block (real VS Code in Chromium, local gateway)', () => {
  let workbench: Workbench;
  let chat: Frame;

  useChatSuite(
    {
      workspaceFiles: { 'src/app.ts': FILE },
      workspaceSettings: {
        'unifiedInference.defaultModels.chat': `sim-openai/gpt-sim::${scriptedReplyItem(REPLY)}`,
        'unifiedInference.apply.model': `sim-openai/gpt-sim-mini::${scriptedReplyItem(`\`\`\`\`ts\n${MERGED}\`\`\`\`\n`)}`,
      },
    },
    (suite) => ({ workbench, chat } = suite),
  );

  it('applies a block through the diff review: a lens per change, accept one, then the rest', async () => {
    const input = chat.locator('.composer-input');
    await input.fill('Make add documented and mul integer-safe');
    await input.press('Enter');
    const reply = chat.locator('.turn.assistant').last();
    await reply.locator('.turn-footer .usage', { hasText: 'tokens' }).waitFor({ timeout: 60_000 });
    const apply = reply.locator('.md-code-block button[aria-label="Apply to File"]').first();
    // Keyboard reachable: focused and pressed like any button.
    await apply.focus();
    await apply.press('Enter');

    const page = workbench.page;
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ timeout: 60_000 });
    await page.locator('.tabs-container .tab', { hasText: 'app.ts (Current ↔ Proposed)' }).first().waitFor();
    const acceptLens = page.locator('.monaco-diff-editor .codelens-decoration a', { hasText: 'Accept Change' });
    await page.waitForFunction(
      () => document.querySelectorAll('.monaco-diff-editor .codelens-decoration a').length >= 4,
      undefined,
      { timeout: 60_000 },
    );
    assert.equal(await acceptLens.count(), 2, 'an Accept lens on each of the two changes');
    assert.equal(
      await page.locator('.monaco-diff-editor .codelens-decoration a', { hasText: 'Reject Change' }).count(),
      2,
    );
    assert.ok(
      await page.locator('.editor-actions [aria-label^="Accept All Changes"]').first().isVisible(),
      'Accept All in the editor title',
    );
    assert.ok(
      await page.locator('.editor-actions [aria-label^="Reject All Changes"]').first().isVisible(),
      'Reject All in the editor title',
    );
    await workbench.screenshot('apply-01-diff-review');
    await workbench.readmeScreenshot('editReview');

    // Accept the first change only: the other stays proposed, with its lenses.
    await acceptLens.first().click();
    await page.waitForFunction(
      () => document.querySelectorAll('.monaco-diff-editor .codelens-decoration a').length === 2,
      undefined,
      { timeout: 30_000 },
    );
    await page.locator('.editor-actions [aria-label^="Accept All Changes"]').first().click();
    await diff.waitFor({ state: 'detached', timeout: 30_000 });
    // The file is shown with both changes (an edit of its document: undo and save are the user's;
    // the web workbench auto-saves after a delay by default).
    const editor = page.locator('.monaco-editor .view-lines');
    await editor.filter({ hasText: 'Math.imul' }).filter({ hasText: 'Adds two numbers' }).first().waitFor();
    await page.locator('.tabs-container .tab', { hasText: 'app.ts' }).first().waitFor();
    await workbench.screenshot('apply-02-accepted');
  });
});
