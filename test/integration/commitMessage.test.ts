import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { isAbortError } from '../../src/core/errors';
import { repositoryChanges } from '../../src/extension/commitMessage/commitChanges';
import type { CommitMessageOutcome } from '../../src/extension/commitMessage/commitMessageWriter';
import { WorkspaceFilesService } from '../../src/extension/workspaceFiles/workspaceFilesService';
import { asGitExtension, type GitApi, type GitRepository } from '../../src/extension/commitMessage/gitApi';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway, RequestRecord } from '../gateway/index';
import { scriptedReplyItem } from '../gateway/scriptedReply';
import { activateExtension, connectedGateway, recordNotifications, setSettingAndWait, waitFor } from './extensionHost';

// Commit messages on a real repository this suite makes (git init in a folder of the test
// workspace, a few commits in a distinctive style): the message lands in the git extension's own
// commit input box, the request carries the staged diff and the recent subjects and never a
// sensitive file's content, nothing staged means every change, and Stop closes the request.
// The harness runs with git.enabled false (it slows every other suite); this suite turns it on at
// runtime and puts the harness's value back.
describe('commit messages: written into the real git input box', function () {
  this.timeout(120_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let notes: ReturnType<typeof recordNotifications>;
  let repository: GitRepository;
  let gitEnabledBefore: boolean | undefined;
  const MODEL = 'sim-openai/gpt-sim-mini';
  const SECRET = 'FAKE-SECRET-7319-commit';
  const repoDir = (): string => join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string, 'commit-repo');
  const git = (...args: string[]): string => execFileSync('/usr/bin/git', args, { cwd: repoDir(), encoding: 'utf8' });
  const SUBJECTS = [
    'feat(parser): add the tokenizer',
    'fix(parser): keep line numbers across tokens',
    'docs(readme): explain the grammar',
    'feat(cli): read the program from stdin',
  ];

  async function gitApi(): Promise<GitApi> {
    const extension = vscode.extensions.getExtension('vscode.git');
    assert.ok(extension, 'the built-in git extension is loaded');
    const exports = extension.isActive ? extension.exports : await extension.activate();
    const git = await waitFor(
      () => asGitExtension(extension.exports ?? exports),
      (found) => found?.enabled === true,
      'the git extension to turn on',
      30_000,
    );
    const gitApi = (git as NonNullable<typeof git>).getAPI(1);
    await waitFor(
      () => gitApi.state,
      (state) => state === 'initialized',
      'the git extension to read its repositories',
      30_000,
    );
    return gitApi;
  }

  function commitRequests(): RequestRecord[] {
    return gateway.requests.filter(
      (r) =>
        (r.path.endsWith('/chat/completions') || r.path.endsWith('/messages')) &&
        (JSON.stringify(r.body) ?? '').includes('You write git commit messages'),
    );
  }

  async function write(): Promise<CommitMessageOutcome> {
    return vscode.commands.executeCommand<CommitMessageOutcome>('unifiedInference.commitMessage.write', {
      rootUri: repository.rootUri,
    });
  }

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
    notes = recordNotifications();
  });

  after(async () => {
    notes?.restore();
    await gateway?.stop();
  });

  // Runs before the suite below turns git on: the git extension only turns off again on a reload.
  it('says what to do when git is turned off', async () => {
    assert.equal(vscode.workspace.getConfiguration('git').get('enabled'), false, 'the harness starts with git off');
    const shown: string[] = [];
    const listener = api.failures.onDidShow((failure) =>
      shown.push(`${failure.message} [${failure.buttons.join(', ')}]`),
    );
    try {
      assert.deepEqual(await vscode.commands.executeCommand('unifiedInference.commitMessage.write'), {
        kind: 'notReady',
      });
    } finally {
      listener.dispose();
    }
    assert.ok(
      shown.some(
        (text) => /Git is turned off \(the git\.enabled setting\)/.test(text) && text.endsWith('[Open Setting]'),
      ),
      JSON.stringify(shown),
    );
  });

  describe('on a repository the test makes', () => {
    before(async () => {
      rmSync(repoDir(), { recursive: true, force: true });
      mkdirSync(join(repoDir(), 'src'), { recursive: true });
      git('init', '-q', '-b', 'main');
      git('config', 'user.name', 'Commit Test');
      git('config', 'user.email', 'commit-test@example.invalid');
      git('config', 'commit.gpgsign', 'false');
      SUBJECTS.slice()
        .reverse()
        .forEach((subject, i) => {
          writeFileSync(join(repoDir(), 'src', 'parser.ts'), `export const version = ${i};\n`);
          git('add', '-A');
          git('commit', '-q', '-m', subject);
        });
      writeFileSync(join(repoDir(), 'README.md'), '# Parser\n');
      git('add', '-A');
      git('commit', '-q', '-m', 'docs(readme): add a title');
      const configuration = vscode.workspace.getConfiguration('git');
      gitEnabledBefore = configuration.inspect<boolean>('enabled')?.globalValue;
      await configuration.update('enabled', true, vscode.ConfigurationTarget.Global);
      const found = await gitApi();
      const opened = found.openRepository ? await found.openRepository(vscode.Uri.file(repoDir())) : null;
      repository = (await waitFor(
        () => opened ?? found.getRepository(vscode.Uri.file(repoDir())),
        (r) => r !== null,
        'the test repository to open',
        30_000,
      )) as GitRepository;
    });

    afterEach(async () => {
      await setSettingAndWait('commitMessage.model', undefined);
      repository.inputBox.value = '';
    });

    after(async () => {
      await vscode.workspace
        .getConfiguration('git')
        .update('enabled', gitEnabledBefore, vscode.ConfigurationTarget.Global);
      rmSync(repoDir(), { recursive: true, force: true });
    });

    it("writes the staged change in the repository's style: diff and subjects sent, the .env named without its content, the fenced answer cleaned", async () => {
      writeFileSync(
        join(repoDir(), 'src', 'parser.ts'),
        'export const version = 4;\nexport function parse(input: string): string[] {\n  if (input === "") return [];\n  return input.split(" ");\n}\n',
      );
      writeFileSync(join(repoDir(), '.env'), `API_TOKEN=${SECRET}\n`);
      writeFileSync(
        join(repoDir(), 'logo.png'),
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 1, 2, 3]),
      );
      git('add', 'src/parser.ts', '.env', 'logo.png');
      writeFileSync(join(repoDir(), 'README.md'), '# Parser\n\nUNSTAGED-README-LINE\n');
      const answer =
        'Here is a commit message for the staged changes:\n\n```\nfeat(parser): return no tokens for empty input\n\nparse("") used to give [""].\n```\n\nThis message follows the conventional-commit style of the repository.';
      await setSettingAndWait('commitMessage.model', `${MODEL}::${scriptedReplyItem(answer)}`);
      const before = commitRequests().length;
      const outcome = await write();
      assert.deepEqual(outcome, {
        kind: 'written',
        message: 'feat(parser): return no tokens for empty input\n\nparse("") used to give [""].',
        model: `${MODEL}::${scriptedReplyItem(answer)}`,
      });
      assert.equal(
        repository.inputBox.value,
        'feat(parser): return no tokens for empty input\n\nparse("") used to give [""].',
        'the message is in the git input box',
      );
      const requests = commitRequests().slice(before);
      assert.equal(requests.length, 1, 'one request');
      const body = JSON.stringify((requests[0] as RequestRecord).body);
      assert.ok(body.includes('+  if (input === \\"\\") return [];'), 'the staged diff is sent');
      for (const subject of SUBJECTS) assert.ok(body.includes(subject), `the recent subject "${subject}" is sent`);
      assert.ok(body.includes('start with a conventional-commit prefix'), 'the style is spelled out');
      assert.ok(!body.includes(SECRET), 'the .env content is never sent');
      assert.ok(body.includes('A .env (content not sent: sensitive)'), 'the .env is named');
      assert.ok(!body.includes('UNSTAGED-README-LINE'), 'an unstaged change is not part of a staged commit');
      assert.ok(body.includes('A logo.png (binary)'), 'a binary file is named only');
      assert.ok(body.includes('Changes staged for this commit, 3 files'));
    });

    it('takes every change, untracked files too, when nothing is staged; a sensitive untracked file stays home', async () => {
      git('reset', '-q');
      writeFileSync(join(repoDir(), 'src', 'lexer.ts'), 'export const UNTRACKED_LEXER = true;\n');
      await setSettingAndWait(
        'commitMessage.model',
        `${MODEL}::${scriptedReplyItem('Add the lexer and the empty-input case')}`,
      );
      const before = commitRequests().length;
      const outcome = await write();
      assert.equal(outcome.kind, 'written');
      assert.equal(repository.inputBox.value, 'Add the lexer and the empty-input case');
      const body = JSON.stringify((commitRequests().slice(before)[0] as RequestRecord).body);
      assert.ok(body.includes('nothing is staged, so every change is committed'));
      assert.ok(body.includes('UNSTAGED-README-LINE'), 'the unstaged change is sent');
      assert.ok(body.includes('+  if (input === \\"\\") return [];'), 'the unstaged parser change is sent');
      assert.ok(body.includes('+export const UNTRACKED_LEXER = true;'), 'the untracked file is sent as added');
      assert.ok(!body.includes(SECRET), 'the untracked .env content is never sent');
      assert.ok(body.includes('.env (content not sent: sensitive)'), 'and it is named');
    });

    it('Stop aborts the request (the gateway sees the connection close) and puts the draft back', async () => {
      const long = `fix(parser): ${'keep going '.repeat(60)}`;
      await setSettingAndWait('commitMessage.model', `${MODEL}::delay-chunks=400;${scriptedReplyItem(long)}`);
      repository.inputBox.value = 'my draft';
      const before = commitRequests().length;
      const running = write();
      const record = await gateway.waitForRequest((r) => commitRequests().indexOf(r) >= before, 30_000);
      assert.ok(JSON.stringify(record.body).includes('my draft'), "the draft is sent as the user's intent");
      await waitFor(
        () => repository.inputBox.value,
        (value) => value.startsWith('fix(parser): keep'),
        'the message streaming into the box',
      );
      await vscode.commands.executeCommand('unifiedInference.commitMessage.stop');
      assert.deepEqual(await running, { kind: 'cancelled' });
      assert.equal(await record.closed, 'aborted');
      assert.equal(repository.inputBox.value, 'my draft', 'the draft is back');
    });

    it('typing into the box while the message streams stops the request and keeps what was typed', async () => {
      await setSettingAndWait(
        'commitMessage.model',
        `${MODEL}::delay-chunks=400;${scriptedReplyItem(`fix(parser): ${'typed over '.repeat(60)}`)}`,
      );
      const before = commitRequests().length;
      const running = write();
      const record = await gateway.waitForRequest((r) => commitRequests().indexOf(r) >= before, 30_000);
      await waitFor(
        () => repository.inputBox.value,
        (value) => value.startsWith('fix(parser): typed'),
        'the message streaming into the box',
      );
      repository.inputBox.value = 'fix: my own words';
      assert.deepEqual(await running, { kind: 'stoppedByTyping' });
      assert.equal(await record.closed, 'aborted', 'the request was stopped');
      assert.equal(repository.inputBox.value, 'fix: my own words', 'what the user typed stays');
    });

    it('an earlier piece echoed back by the workbench while the message streams is not taken for typing', async () => {
      const message = `fix(parser): ${'echo back '.repeat(5).trim()}`;
      const model = `${MODEL}::delay-chunks=150;${scriptedReplyItem(message)}`;
      await setSettingAndWait('commitMessage.model', model);
      repository.inputBox.value = '';
      const running = write();
      const first = await waitFor(
        () => repository.inputBox.value,
        (value) => value.startsWith('fix(parser): echo'),
        'the first piece in the box',
      );
      await waitFor(
        () => repository.inputBox.value,
        (value) => value !== first && value.startsWith(first),
        'a later piece in the box',
      );
      // The workbench's input box reports an older value after the extension set a newer one
      // (its change event crosses ours on the way): seen under load in the Source Control view.
      repository.inputBox.value = first;
      assert.deepEqual(await running, { kind: 'written', message, model });
      assert.equal(repository.inputBox.value, message, 'the whole message, not the piece echoed back');
    });

    it('typing into the box before the first piece arrives stops the request and keeps what was typed', async () => {
      await setSettingAndWait(
        'commitMessage.model',
        `${MODEL}::delay-headers=4000;delay-chunks=200;${scriptedReplyItem(`fix(parser): ${'overwritten '.repeat(60)}`)}`,
      );
      repository.inputBox.value = 'my draft';
      const before = commitRequests().length;
      const running = write();
      const record = await gateway.waitForRequest((r) => commitRequests().indexOf(r) >= before, 30_000);
      // The gateway holds the status line back: no piece has come yet.
      repository.inputBox.value = 'fix: typed while waiting';
      assert.deepEqual(await running, { kind: 'stoppedByTyping' });
      assert.equal(await record.closed, 'aborted', 'the request was stopped');
      assert.equal(
        repository.inputBox.value,
        'fix: typed while waiting',
        'the first piece did not overwrite what was typed',
      );
    });

    it('one request per repository: a second Write while one runs is refused', async () => {
      await setSettingAndWait(
        'commitMessage.model',
        `${MODEL}::delay-chunks=400;${scriptedReplyItem(`fix: ${'slow '.repeat(40)}`)}`,
      );
      const before = commitRequests().length;
      const first = write();
      await gateway.waitForRequest((r) => commitRequests().indexOf(r) >= before, 30_000);
      assert.deepEqual(await write(), { kind: 'busy' });
      await vscode.commands.executeCommand('unifiedInference.commitMessage.stop', { rootUri: repository.rootUri });
      assert.deepEqual(await first, { kind: 'cancelled' });
      assert.equal(commitRequests().length - before, 1);
    });

    it('says so when nothing changed', async () => {
      git('add', '-A');
      git('reset', '-q', '--hard', 'HEAD');
      git('clean', '-qfd');
      notes.shown.length = 0;
      assert.deepEqual(await write(), { kind: 'nothingChanged' });
      assert.ok(
        notes.shown.some((n) => n.kind === 'info' && /no changes in .* to write a commit message for/.test(n.message)),
        JSON.stringify(notes.shown),
      );
    });

    it('a huge staged file is named only: its content is not read into the prompt, and the request stays small', async () => {
      const HUGE = 'HUGE-TABLE-MARKER-5521';
      writeFileSync(
        join(repoDir(), 'src', 'table.ts'),
        `// ${HUGE}\n${'export const row = [1, 2, 3, 4, 5, 6, 7, 8];\n'.repeat(50_000)}`,
      );
      writeFileSync(join(repoDir(), 'src', 'small.ts'), 'export const SMALL_CHANGE = 1;\n');
      git('add', 'src/table.ts', 'src/small.ts');
      try {
        await setSettingAndWait('commitMessage.model', `${MODEL}::${scriptedReplyItem('Add the parse table')}`);
        const before = commitRequests().length;
        assert.equal((await write()).kind, 'written');
        const body = JSON.stringify((commitRequests().slice(before)[0] as RequestRecord).body);
        assert.ok(body.includes('A src/table.ts (content not sent: too large)'), 'the huge file is named');
        assert.ok(!body.includes(HUGE), 'none of its content is sent');
        assert.ok(body.includes('+export const SMALL_CHANGE = 1;'), "the small file's diff is sent");
        assert.ok(body.length < 100_000, `the request is bounded (${body.length} characters)`);
      } finally {
        git('reset', '-q', '--hard', 'HEAD');
      }
    });

    it('once the diffs read pass a few budgets, the rest of the files are named only', async () => {
      // Each file is under the too-large mark (3 budgets of a 42,000-character budget) but two of them pass the reading mark (4 budgets).
      const names = ['rows-a', 'rows-b', 'rows-c'];
      for (const name of names)
        writeFileSync(
          join(repoDir(), 'src', `${name}.ts`),
          `// MARK-${name}\n${`export const ${name.replace('-', '')} = [1, 2, 3, 4, 5, 6, 7, 8];\n`.repeat(2_000)}`,
        );
      git('add', 'src');
      try {
        await setSettingAndWait('commitMessage.model', `${MODEL}::${scriptedReplyItem('Add the rows')}`);
        const before = commitRequests().length;
        assert.equal((await write()).kind, 'written');
        const body = JSON.stringify((commitRequests().slice(before)[0] as RequestRecord).body);
        const leftOut = names.filter((name) => body.includes(`A src/${name}.ts (diff left out: over the size budget)`));
        assert.equal(leftOut.length, 1, `one file past the reading mark is named only: ${leftOut.join(', ')}`);
        assert.ok(!body.includes(`MARK-${leftOut[0] as string}`), 'its content is not sent');
        for (const name of names.filter((n) => n !== leftOut[0]))
          assert.ok(body.includes(`MARK-${name}`), `${name} is diffed`);
      } finally {
        git('reset', '-q', '--hard', 'HEAD');
      }
    });

    it('a deleted file the workspace excludes (.gitignore) is named only: its removed lines are not sent', async () => {
      const GENERATED = 'GENERATED-ROWS-8830';
      mkdirSync(join(repoDir(), 'generated'), { recursive: true });
      writeFileSync(join(repoDir(), 'generated', 'rows.txt'), `${GENERATED}\n`);
      writeFileSync(join(repoDir(), '.gitignore'), 'generated/\n');
      git('add', '-f', '.gitignore', 'generated/rows.txt');
      git('commit', '-q', '-m', 'chore: check in the generated rows');
      git('rm', '-q', 'generated/rows.txt');
      try {
        await setSettingAndWait('commitMessage.model', `${MODEL}::${scriptedReplyItem('Drop the generated rows')}`);
        const before = commitRequests().length;
        assert.equal((await write()).kind, 'written');
        const body = JSON.stringify((commitRequests().slice(before)[0] as RequestRecord).body);
        assert.ok(
          body.includes('D generated/rows.txt (content not sent: excluded'),
          'the deleted file is named as excluded',
        );
        assert.ok(!body.includes(GENERATED), 'its removed lines are not sent');
      } finally {
        git('reset', '-q', '--hard', 'HEAD');
      }
    });

    it('Stop while the changes are read ends the reading at the next file', async () => {
      for (const name of ['one', 'two', 'three', 'four'])
        writeFileSync(join(repoDir(), 'src', `${name}.ts`), `export const ${name} = 1;\n`);
      git('add', 'src');
      const controller = new AbortController();
      let diffs = 0;
      // The real repository, but Stop comes during its first diff.
      const stopping = new Proxy(repository, {
        get(target, key) {
          if (key === 'diffIndexWithHEAD')
            return (path: string) => {
              diffs++;
              controller.abort();
              return target.diffIndexWithHEAD(path);
            };
          const value: unknown = Reflect.get(target, key);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      const service = new WorkspaceFilesService();
      try {
        await assert.rejects(repositoryChanges(stopping, service, 42_000, controller.signal), (error: unknown) =>
          isAbortError(error),
        );
        assert.equal(diffs, 1, 'no git diff after Stop');
      } finally {
        service.dispose();
        git('reset', '-q', '--hard', 'HEAD');
      }
    });
  });
});
