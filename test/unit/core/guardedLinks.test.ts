// A write is judged by the file it reaches, not by the name it was given: a guarded name that is a
// link makes its target guarded, a hard link always asks, a folder opened at a guarded place is
// guarded, and what the repository's git config makes git run is guarded like .git/hooks.
import * as assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitConfigRunValues } from '../../../src/core/workspaceFiles/gitRunPaths';
import { WorkspaceFiles } from '../../../src/core/workspaceFiles/workspaceFiles';
import { findGuardedLinks, linksReaching } from '../../../src/core/workspaceFiles/guardedLinks';
import { GitignoreCache, openFolders } from '../../../src/core/workspaceFiles/rootFolders';

describe('core/workspaceFiles: writes judged by the file they reach', () => {
  let ws: string;
  before(() => {
    ws = mkdtempSync(join(tmpdir(), 'ui-reach-'));
    for (const dir of ['data', 'conf', 'scripts', 'src', '.git/hooks', 'tools/hooks'])
      mkdirSync(join(ws, dir), { recursive: true });
    writeFileSync(join(ws, 'data', 'pkg.json'), '{}\n');
    writeFileSync(join(ws, 'conf', 'tasks.json'), '{}\n');
    writeFileSync(join(ws, 'scripts', 'check'), 'echo ok\n');
    writeFileSync(join(ws, 'src', 'a.ts'), 'export {};\n');
    writeFileSync(join(ws, 'src', 'b.ts'), 'export {};\n');
    // Committed links with guarded names leading to harmless-looking places.
    symlinkSync(join(ws, 'data', 'pkg.json'), join(ws, 'package.json'));
    symlinkSync(join(ws, 'conf'), join(ws, '.vscode'));
    // A hook linked from .git/hooks (a folder the listing never enters), and a hard link.
    symlinkSync(join('..', '..', 'scripts', 'check'), join(ws, '.git', 'hooks', 'pre-commit'));
    linkSync(join(ws, 'src', 'b.ts'), join(ws, 'src', 'b-copy.ts'));
    writeFileSync(
      join(ws, '.git', 'config'),
      '[core]\n\tbare = false\n\thooksPath = "tools/hooks" ; set by the repository\n[core "x"]\n\tfsmonitor = ignored.sh\n',
    );
  });
  after(() => rmSync(ws, { recursive: true, force: true }));
  const open = (): Promise<WorkspaceFiles> =>
    WorkspaceFiles.open({ folders: [{ name: 'ws', path: ws, excludes: { 'files.exclude': ['**/.git'] } }] });

  it("guards the target of a guarded link under the link's name (a file, and a file or new file below a linked folder)", async () => {
    const files = await open();
    const pkg = await files.resolveForWrite('data/pkg.json');
    assert.ok(pkg.ok);
    assert.deepEqual(pkg.file.guarded, [{ path: 'package.json', reason: 'runsCode' }]);
    const tasks = await files.resolve('conf/tasks.json', 'write');
    assert.ok(tasks.ok);
    assert.deepEqual(tasks.file.guarded, [{ path: '.vscode/tasks.json', reason: 'runsCode' }]);
    const fresh = await files.resolveNew('conf/launch.json');
    assert.ok(fresh.ok);
    assert.deepEqual(fresh.target.guarded, [{ path: '.vscode/launch.json', reason: 'runsCode' }]);
    const plain = await files.resolve('src/a.ts', 'write');
    assert.ok(plain.ok);
    assert.deepEqual(plain.file.guarded, [], 'a file no guarded link reaches');
  });

  it('judges a write by its name through any link: a folder above a guarded path, a gitignored .vscode/, a linked hooks folder', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'ui-through-'));
    try {
      for (const dir of ['ci/workflows', 'scripts', 'hooks', '.vscode', '.git'])
        mkdirSync(join(repo, dir), { recursive: true });
      writeFileSync(join(repo, 'ci', 'workflows', 'deploy.yml'), 'on: push\n');
      writeFileSync(join(repo, 'scripts', 't.json'), '{}\n');
      writeFileSync(join(repo, 'hooks', 'pre-commit'), 'echo ok\n');
      writeFileSync(join(repo, '.gitignore'), '.vscode/\n');
      // `.github` is not guarded itself; `.github/workflows` is.
      symlinkSync('ci', join(repo, '.github'));
      // Inside an excluded (gitignored) but guarded folder.
      symlinkSync(join('..', 'scripts', 't.json'), join(repo, '.vscode', 'tasks.json'));
      // The whole hooks folder is a link.
      symlinkSync(join('..', 'hooks'), join(repo, '.git', 'hooks'));
      const files = await WorkspaceFiles.open({ folders: [{ name: 'repo', path: repo, excludes: {} }] });
      for (const [path, name] of [
        ['ci/workflows/deploy.yml', '.github/workflows/deploy.yml'],
        ['scripts/t.json', '.vscode/tasks.json'],
        ['hooks/pre-commit', '.git/hooks/pre-commit'],
      ]) {
        const resolved = await files.resolve(path as string, 'write');
        assert.ok(resolved.ok, path);
        assert.deepEqual(
          resolved.file.guarded.map((g) => g.path),
          [name],
          path,
        );
      }
      const fresh = await files.resolveNew('ci/workflows/new.yml');
      assert.ok(fresh.ok);
      assert.deepEqual(
        fresh.target.guarded.map((g) => g.path),
        ['.github/workflows/new.yml'],
      );
      writeFileSync(join(repo, 'ci', 'README.md'), 'notes\n');
      const plain = await files.resolve('ci/README.md', 'write');
      assert.ok(plain.ok);
      assert.deepEqual(plain.file.guarded, [], 'below the link, a name that is not guarded there (.github/README.md)');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('guards the missing target of a dangling guarded link (creating it creates what the editor runs)', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'ui-dangling-'));
    try {
      for (const dir of ['.vscode', 'notes', 'data']) mkdirSync(join(repo, dir));
      // Committed links whose targets do not exist (yet): in an existing folder, a missing one, and through a second dangling link.
      symlinkSync(join('..', 'notes', 'todo.json'), join(repo, '.vscode', 'tasks.json'));
      symlinkSync(join('..', 'later', 'launch.json'), join(repo, '.vscode', 'launch.json'));
      symlinkSync('pkg-link', join(repo, 'package.json'));
      symlinkSync(join('data', 'new.json'), join(repo, 'pkg-link'));
      const files = await WorkspaceFiles.open({ folders: [{ name: 'repo', path: repo, excludes: {} }] });
      for (const [path, link] of [
        ['notes/todo.json', '.vscode/tasks.json'],
        ['later/launch.json', '.vscode/launch.json'],
        ['data/new.json', 'package.json'],
      ]) {
        const created = await files.resolveNew(path as string);
        assert.ok(created.ok, path);
        assert.deepEqual(created.target.guarded, [{ path: link, reason: 'runsCode' }], path);
      }
      const other = await files.resolveNew('notes/other.json');
      assert.ok(other.ok);
      assert.deepEqual(other.target.guarded, [], 'a file no link reaches');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('guards a script that a link in .git/hooks runs', async () => {
    const check = await (await open()).resolve('scripts/check', 'write');
    assert.ok(check.ok);
    assert.deepEqual(check.file.guarded, [{ path: '.git/hooks/pre-commit', reason: 'runsCode' }]);
  });

  it('always asks for a file with other names (a hard link), saying why', async () => {
    const files = await open();
    for (const path of ['src/b.ts', 'src/b-copy.ts']) {
      const linked = await files.resolve(path, 'write');
      assert.ok(linked.ok);
      assert.deepEqual(linked.file.guarded, [{ path, reason: 'otherNames' }], path);
    }
  });

  it("guards what the repository's git config makes git run (core.hooksPath)", async () => {
    const files = await open();
    const hook = await files.resolveNew('tools/hooks/pre-push');
    assert.ok(hook.ok);
    assert.deepEqual(hook.target.guarded, [{ path: 'tools/hooks/pre-push', reason: 'runsCode' }]);
    const beside = await files.resolveNew('tools/other.txt');
    assert.ok(beside.ok);
    assert.deepEqual(beside.target.guarded, []);
  });

  it('says when the walk for links stopped at its bound (then every write asks)', async () => {
    const folders = await openFolders([{ name: 'ws', path: ws, excludes: {} }], [], false);
    const whole = await findGuardedLinks(folders, new GitignoreCache(false));
    assert.ok(whole.complete);
    assert.deepEqual(linksReaching(whole, join(ws, 'conf', 'x', 'y.json'), false), [
      { path: '.vscode/x/y.json', reason: 'runsCode' },
    ]);
    assert.equal((await findGuardedLinks(folders, new GitignoreCache(false), 3)).complete, false);
  });

  it('reads core.hooksPath and a core.fsmonitor program from a git config, and nothing else', () => {
    assert.deepEqual(
      gitConfigRunValues(
        '[core]\n\thooksPath = .githooks\n\tfsmonitor = tools/watch.sh # comment\n[alias]\n\thooksPath = no\n',
      ),
      ['.githooks', 'tools/watch.sh'],
    );
    assert.deepEqual(
      gitConfigRunValues('[CORE]\nHooksPath="a b/hooks"\nfsmonitor = true\n[core "sub"]\nhooksPath = x\n'),
      ['a b/hooks'],
    );
  });

  it('takes the program of an fsmonitor with arguments (git runs it through the shell), and guards a shared .gitconfig', async () => {
    assert.deepEqual(gitConfigRunValues('[core]\n\tfsmonitor = tools/watch.sh --since 0\n'), ['tools/watch.sh']);
    const files = await open();
    writeFileSync(join(ws, '.gitconfig'), '[core]\n');
    const shared = await files.resolve('.gitconfig', 'write');
    assert.ok(shared.ok);
    assert.equal(shared.file.guarded[0]?.reason, 'runsCode');
  });

  it('guards everything in a folder opened at a guarded place (its folder-relative paths do not say it)', async () => {
    const files = await WorkspaceFiles.open({
      folders: [{ name: 'conf', path: join(ws, '.git', 'hooks'), excludes: {} }],
    });
    const hook = await files.resolveNew('post-merge');
    assert.ok(hook.ok);
    assert.deepEqual(hook.target.guarded, [{ path: 'post-merge', reason: 'runsCode' }]);
    // Opened by a linked name (.vscode leading to conf/): VS Code reads it by that name.
    const named = await WorkspaceFiles.open({
      folders: [{ name: '.vscode', path: join(ws, '.vscode'), excludes: {} }],
    });
    const launch = await named.resolveNew('launch.json');
    assert.ok(launch.ok);
    assert.deepEqual(launch.target.guarded, [{ path: 'launch.json', reason: 'runsCode' }]);
  });
});
