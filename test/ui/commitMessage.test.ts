import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway, type LocalGateway } from '../gateway/index';
import { scriptedReplyItem } from '../gateway/scriptedReply';
import { Workbench } from './workbench';

// Commit messages as a user meets them: a real repository opened as the workspace, the sparkle in
// the Source Control title, and the message written into git's own commit box. The model is the
// local gateway's, answering what a real one might (a fence and a preamble, which are cleaned).
describe('commit messages in the Source Control view (real VS Code in Chromium, local gateway)', () => {
  let gateway: LocalGateway | undefined;
  let workbench: Workbench | undefined;
  const ANSWER = 'Here is a commit message:\n\n```\nfeat(parser): return no tokens for empty input\n```';

  before(async () => {
    gateway = await startGateway();
    // The repository is made before VS Code opens the folder, so git finds it at start.
    const runDir = mkdtempSync(join('/tmp', 'uiv-'));
    const ws = join(runDir, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    const git = (...args: string[]): string => execFileSync('/usr/bin/git', args, { cwd: ws, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.name', 'Commit Test');
    git('config', 'user.email', 'commit-test@example.invalid');
    git('config', 'commit.gpgsign', 'false');
    writeFileSync(join(ws, '.git', 'info', 'exclude'), '.vscode/\n');
    for (const [i, subject] of [
      'feat(parser): add the tokenizer',
      'fix(parser): keep line numbers',
      'feat(cli): read from stdin',
    ].entries()) {
      writeFileSync(join(ws, 'src', 'parser.ts'), `export const version = ${i};\n`);
      git('add', '-A');
      git('commit', '-q', '-m', subject);
    }
    writeFileSync(
      join(ws, 'src', 'parser.ts'),
      'export function parse(input: string): string[] {\n  return input === "" ? [] : input.split(" ");\n}\n',
    );
    git('add', '-A');
    workbench = await Workbench.open({
      runDir,
      userSettings: { 'unifiedInference.baseUrl': gateway.url, 'git.enabled': true },
      workspaceSettings: {
        'git.enabled': true,
        'unifiedInference.commitMessage.model': `sim-openai/gpt-sim-mini::delay-chunks=300;${scriptedReplyItem(ANSWER)}`,
      },
      env: { UNIFIED_INFERENCE_API_KEY: gateway.apiKey },
    });
  });

  after(async () => {
    await workbench?.close();
    workbench?.removeFiles();
    await gateway?.stop();
  });

  it('the sparkle in the Source Control title writes the message into the commit box', async () => {
    const page = (workbench as Workbench).page;
    await page.locator('.part.activitybar [aria-label^="Source Control"]').first().click();
    // The button is waited for with its sparkle codicon, not checked at the first look: a busy
    // clean-clone run found a button with this label without the icon's class at that moment.
    const button = page
      .locator(
        '.part.sidebar .title-actions a.codicon-sparkle[aria-label^="Write Commit Message"], .part.sidebar .actions-container a.codicon-sparkle[aria-label^="Write Commit Message"]',
      )
      .first();
    await button.waitFor({ timeout: 90_000 });
    await button.click();
    // While it writes, this repository's title shows Stop in place of the sparkle (the root is in the writing list).
    const stop = page
      .locator(
        '.part.sidebar .title-actions a[aria-label^="Stop Writing"], .part.sidebar .actions-container a[aria-label^="Stop Writing"]',
      )
      .first();
    await stop.waitFor({ timeout: 30_000 });
    await (workbench as Workbench).screenshot('commit-message-00-writing');
    const box = page.locator('.part.sidebar .scm-editor .view-lines').first();
    await page
      .waitForFunction(
        () =>
          document
            .querySelector<HTMLElement>('.part.sidebar .scm-editor .view-lines')
            ?.innerText.replace(/\s+/g, ' ')
            .includes('feat(parser): return no tokens for empty input') === true,
        undefined,
        { timeout: 90_000 },
      )
      .catch(async (error: unknown) => {
        await (workbench as Workbench).screenshot('commit-message-failed');
        throw error;
      });
    // The box wraps long lines: compare the words.
    const text = (await box.innerText()).replace(/\s+/g, ' ').trim();
    assert.equal(
      text,
      'feat(parser): return no tokens for empty input',
      'the cleaned message, without fence or preamble',
    );
    await button.waitFor({ timeout: 30_000 });
    await (workbench as Workbench).movePointerAway();
    await (workbench as Workbench).screenshot('commit-message-01-scm');
  });
});
