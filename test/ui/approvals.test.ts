import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import type { LocalGateway } from '../gateway/index';
import { useChatSuite } from './chatSuite';
import type { Workbench } from './workbench';

// Only a deliberate act approves (the real workbench in Chromium, the real dist/webview/chat.js):
// a user who keeps typing in the composer while a reply brings a terminal command or a write of a
// file that can run code approves nothing, whatever keys land while the card arrives and arms.
// The local gateway's `tool-args` mode scripts the call; its headers come late (`delay-headers`)
// so the typing is under way when the card arrives.
describe('approvals: only a deliberate act approves (real VS Code in Chromium, local gateway)', () => {
  let gateway: LocalGateway;
  let workbench: Workbench;
  let chat: Frame;

  useChatSuite(
    {
      workspaceFiles: { 'README.md': '# A project\n' },
      workspaceSettings: {
        'unifiedInference.defaultModels.chat': 'sim-openai/gpt-sim-mini::tool-args;delay-headers=1500',
      },
      userSettings: { 'unifiedInference.chat.terminalTool': true },
    },
    (suite) => ({ gateway, workbench, chat } = suite),
  );

  const input = (): Locator => chat.locator('.composer-input');
  const lastStep = (): Locator => chat.locator('.turn.assistant').last().locator('.tool-step.function').first();
  /** Requests that answer a tool call (their last message is the tool's result): one per call that ran. */
  const toolResultsSent = (): number =>
    gateway.requests.filter(
      (r) =>
        r.path === '/api/v1/chat/completions' &&
        (r.body as { messages?: Array<{ role?: string }> } | undefined)?.messages?.at(-1)?.role === 'tool',
    ).length;
  /** The newest reply's first tool call: 'none' yet, its card's data-state while it waits, or how it was answered. */
  const cardState = (): Promise<string> =>
    chat.evaluate(() => {
      const step = Array.from(document.querySelectorAll('.turn.assistant'))
        .at(-1)
        ?.querySelector('.tool-step.function');
      if (!step) return 'none';
      if (!step.classList.contains('awaitingApproval')) return `answered: ${step.className}`;
      return step.querySelector('.approval')?.getAttribute('data-state') ?? 'waiting';
    });
  /** Tool results the gateway had before this test's call (an earlier test's call was allowed). */
  let resultsBefore = 0;
  const composerHasFocus = (): Promise<boolean> =>
    input().evaluate((node) => node === node.ownerDocument.activeElement);

  /**
   * Sends `text` (a scripted tool call), then keeps typing into the composer as the card arrives
   * and arms: words with spaces, lone spaces and Enters (which send nothing while a reply runs).
   * Waits on the card's state, never on time; returns what was typed (Enter adds no character).
   */
  async function typeThroughArrival(text: string): Promise<string> {
    resultsBefore = toolResultsSent();
    await input().fill(text);
    await input().press('Enter');
    await chat.locator('button[aria-label="Stop"]').waitFor();
    const keyboard = workbench.page.keyboard;
    let typed = '';
    const type = async (chunk: string): Promise<void> => {
      await keyboard.type(chunk);
      typed += chunk;
    };
    for (let i = 0; (await cardState()) === 'none'; i++) {
      if (i > 2_000) assert.fail('no approval card came');
      await type(`w${i} `);
    }
    // The card is there and arming: what the old card took as its answer (its first button had the focus).
    for (const key of ['Space', 'Enter', 'Space', 'Enter']) {
      await keyboard.press(key);
      if (key === 'Space') typed += ' ';
      await type('typing on ');
    }
    for (let i = 0, state = await cardState(); state !== 'armed'; i++, state = await cardState()) {
      if (state !== 'arming' || i > 2_000)
        assert.fail(`the card was answered or never armed while the user typed (${state})`);
      await type(`a${i} `);
      await keyboard.press('Enter');
    }
    // Armed now: the same keys again.
    for (const key of ['Space', 'Enter', 'Space', 'Enter']) {
      await keyboard.press(key);
      if (key === 'Space') typed += ' ';
    }
    await type('still here');
    return typed;
  }

  async function assertNothingApproved(typed: string): Promise<void> {
    assert.equal(await cardState(), 'armed', 'the card still waits for a decision');
    assert.equal(toolResultsSent(), resultsBefore, 'no tool result went to the gateway');
    assert.equal(await input().inputValue(), typed, 'every typed character is in the composer');
    assert.ok(await composerHasFocus(), 'the focus never left the composer');
  }

  it('types through the arrival of a terminal command: nothing runs; Enter on its button does not allow it; Ctrl+Shift+Alt+Enter does', async () => {
    const marker = join(workbench.server.workspace, 'ran.txt');
    // A right-to-left override in a comment: the card must show it, and the shell still gets it.
    const command = 'echo approved > ran.txt # \u202Etxt.daer';
    const typed = await typeThroughArrival(`run_command ${JSON.stringify({ command })}`);
    await assertNothingApproved(typed);
    assert.equal(existsSync(marker), false, 'the command did not run');

    const step = lastStep();
    assert.equal(
      await step.locator('.command-line').innerText(),
      'echo approved > ran.txt # ⟨U+202E⟩txt.daer',
      'the override is drawn, not obeyed',
    );
    assert.equal(await step.locator('.command-line .control-char').getAttribute('title'), 'RIGHT-TO-LEFT OVERRIDE');

    // A keyboard user on the button: Enter and Space say how to allow, and allow nothing.
    const allow = step.locator('.approval button', { hasText: 'Allow Once' });
    await allow.focus();
    await allow.press('Enter');
    await allow.press('Space');
    await step.locator('.approval[data-refused="keyboard"]').waitFor();
    assert.equal(
      await step.locator('.approval-hint').innerText(),
      'Enter and Space do not allow this: click Allow Once or press Ctrl+Shift+Alt+Enter.',
    );
    assert.equal(toolResultsSent(), resultsBefore);
    assert.equal(existsSync(marker), false, 'still not run');
    await input().focus();
    await workbench.screenshot('approval-01-command-card-pending-after-typing-and-enter');

    await workbench.page.keyboard.press('Control+Shift+Alt+Enter');
    await step.locator('.step-status', { hasText: 'done' }).waitFor();
    assert.equal(readFileSync(marker, 'utf8').trim(), 'approved', 'allowed deliberately, it ran as written');
    await chat.locator('button[aria-label="Send"]').waitFor();
  });

  it('types through the arrival of a write to a file that can run code: nothing is written; a click allows it', async () => {
    const tasks = join(workbench.server.workspace, '.vscode', 'tasks.json');
    const call = { path: '.vscode/tasks.json', content: '{ "version": "2.0.0", "tasks": [] }\n' };
    const typed = await typeThroughArrival(`create_file ${JSON.stringify(call)}`);
    await assertNothingApproved(typed);
    assert.equal(existsSync(tasks), false, 'nothing written');
    const step = lastStep();
    assert.equal(
      await step.locator('.approval-hint').innerText(),
      'Click Allow Once or press Ctrl+Shift+Alt+Enter to allow; Enter and Space do not.',
    );
    await workbench.screenshot('approval-02-guarded-write-card-pending-after-typing');

    await step.locator('.approval button', { hasText: 'Allow Once' }).click();
    await step.locator('.step-status', { hasText: 'done' }).waitFor();
    assert.equal(readFileSync(tasks, 'utf8'), call.content);
    await chat.locator('button[aria-label="Send"]').waitFor();
  });
});
