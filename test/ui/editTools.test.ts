import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

// A model's edit as a user reviews it: the real workbench in Chromium, the local gateway's
// `tool-args` mode scripting the model's replace_in_file call. The approval card shows the diff
// (VS Code's diff colours), Open Diff opens VS Code's diff editor, Allow Once writes the file.
describe('edit tools (real VS Code in Chromium, local gateway)', () => {
  let workbench: Workbench;
  let chat: Frame;
  const SOURCE =
    'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function twice(n: number): number {\n  return add(n, n);\n}\n';

  useChatSuite(
    {
      workspaceFiles: { 'src/math.ts': SOURCE },
      workspaceSettings: { 'unifiedInference.defaultModels.chat': 'sim-openai/gpt-sim-mini::tool-args' },
    },
    (suite) => ({ workbench, chat } = suite),
  );

  // (That it asks even with autoApproveEdits on is the integration suite's test; this is what the user sees.)
  it('says on the card why an edit of a file that can run code is asked, and offers no standing permission for it', async () => {
    const call = { path: '.vscode/tasks.json', content: '{ "version": "2.0.0", "tasks": [] }\n' };
    await chat.locator('.composer-input').fill(`create_file ${JSON.stringify(call)}`);
    await chat.locator('.composer-input').press('Enter');
    const step = chat.locator('.turn.assistant').last().locator('.tool-step.function').first();
    const approval = step.locator('.approval');
    await approval.locator('button', { hasText: 'Allow Once' }).waitFor();
    const note = step.locator('.guarded-note');
    assert.equal(await note.innerText(), 'Always asked: .vscode/tasks.json (this file can run code)');
    assert.ok(await note.locator('.codicon-shield').isVisible(), 'with its icon');
    assert.deepEqual(
      await approval.locator('button').allInnerTexts(),
      ['Allow Once', 'Deny'],
      'no standing permission for it',
    );
    await step.locator('.approval[data-state="armed"]').waitFor(); // drawn as the user acts on it, past its arming
    await workbench.screenshot('edit-00-guarded-approval');
    await approval.locator('button', { hasText: 'Deny' }).click();
    await step.locator('.step-status', { hasText: 'denied' }).waitFor();
    assert.throws(
      () => readFileSync(join(workbench.server.workspace, '.vscode', 'tasks.json'), 'utf8'),
      /ENOENT/,
      'nothing written',
    );
  });

  it('shows an edit as a diff on its approval card, opens it in the diff editor, and writes it on Allow Once', async () => {
    const call = {
      path: 'src/math.ts',
      edits: [{ search: '  return a + b;', replace: '  const sum = a + b;\n  return sum;' }],
    };
    await chat.locator('.composer-input').fill(`replace_in_file ${JSON.stringify(call)}`);
    await chat.locator('.composer-input').press('Enter');
    const step = chat.locator('.turn.assistant').last().locator('.tool-step.function').first();
    const approval = step.locator('.approval');
    await approval.locator('button', { hasText: 'Allow Once' }).waitFor();
    assert.equal(
      await approval.getAttribute('aria-label'),
      'Allow replace_in_file (Edit src/math.ts: 2 lines added, 1 removed)?',
    );
    assert.deepEqual(await approval.locator('button').allInnerTexts(), [
      'Allow Once',
      'Allow for This Conversation',
      'Deny',
    ]);
    const diff = step.locator('.tool-change .diff');
    assert.equal(await diff.getAttribute('aria-label'), 'Diff: Edit src/math.ts: 2 lines added, 1 removed');
    assert.deepEqual(await diff.locator('.diff-removed').allInnerTexts(), ['-  return a + b;\n']);
    assert.deepEqual(await diff.locator('.diff-added').allInnerTexts(), [
      '+  const sum = a + b;\n',
      '+  return sum;\n',
    ]);
    // Themed with the editor's diff colours, not left plain.
    const added = await diff
      .locator('.diff-added')
      .first()
      .evaluate((node) => getComputedStyle(node).backgroundColor);
    assert.notEqual(added, 'rgba(0, 0, 0, 0)', 'added lines have a background');
    assert.equal(await step.locator('.change-counts').innerText(), '+2 −1');
    await step.locator('.approval[data-state="armed"]').waitFor(); // drawn as the user acts on it, past its arming
    await workbench.screenshot('edit-01-tool-diff-approval');

    await step.locator('button', { hasText: 'Open Diff' }).click();
    await workbench.page.locator('.monaco-diff-editor').first().waitFor({ timeout: 30_000 });
    await workbench.page.locator('.tab', { hasText: 'src/math.ts (proposed edit)' }).first().waitFor();
    // Both sides come from the reviewed texts: the file as it is, and what the edit writes.
    await workbench.page
      .locator('.monaco-diff-editor .editor.original .view-lines', { hasText: 'return a + b;' })
      .waitFor({ timeout: 30_000 });
    await workbench.page
      .locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: 'const sum = a + b;' })
      .waitFor({ timeout: 30_000 });
    assert.equal(
      readFileSync(join(workbench.server.workspace, 'src', 'math.ts'), 'utf8'),
      SOURCE,
      'nothing written before Allow',
    );
    await workbench.screenshot('edit-02-open-diff');

    await approval.locator('button', { hasText: 'Allow Once' }).click();
    await step.locator('.step-status', { hasText: 'done' }).waitFor();
    assert.equal(
      readFileSync(join(workbench.server.workspace, 'src', 'math.ts'), 'utf8'),
      SOURCE.replace('  return a + b;', '  const sum = a + b;\n  return sum;'),
    );
    await workbench.screenshot('edit-03-edit-done');
  });
});
