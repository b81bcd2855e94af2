// What was excluded when a conversation began stays excluded for it: editing a .gitignore (or the
// exclude settings) does not open a file to the model. The pure memory, then the gate on disk.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AS_IT_WAS,
  ExclusionBaseline,
  NOT_KEPT,
  NOT_KEPT_NOTE,
} from '../../../src/core/workspaceFiles/exclusionBaseline';
import { WorkspaceFiles } from '../../../src/core/workspaceFiles/workspaceFiles';
import type { ExcludeGlobs } from '../../../src/core/workspaceFiles/fileRules';
import { GitignoreCache, openFolders } from '../../../src/core/workspaceFiles/rootFolders';
import { admit } from '../../../src/core/workspaceFiles/workspaceFile';

describe('core/workspaceFiles: exclusions kept per conversation', () => {
  it('remembers each ignore file as first seen, and adds back exclude globs that went away', () => {
    const baseline = new ExclusionBaseline();
    assert.equal(baseline.ignoreFile('/ws', 'a', 'secret/\n'), 'secret/\n');
    assert.equal(baseline.ignoreFile('/ws', 'a', ''), 'secret/\n', 'the first sighting wins');
    assert.equal(baseline.ignoreFile('/ws', 'b', undefined), undefined);
    assert.equal(
      baseline.ignoreFile('/ws', 'b', '!x\n'),
      undefined,
      'a file that was not there is remembered as not there',
    );
    const first: ExcludeGlobs = { 'files.exclude': ['**/.git', 'private/**'], 'search.exclude': [] };
    assert.deepEqual(baseline.excludes('/ws', first), first);
    assert.deepEqual(baseline.excludes('/ws', { 'files.exclude': ['**/.git', 'more/**'] }), {
      'files.exclude': ['**/.git', 'more/**'],
      [`files.exclude${AS_IT_WAS}`]: ['private/**'],
    });
  });

  it('is bounded: past its files it cannot tell (NOT_KEPT), past its characters it keeps a digest', () => {
    const baseline = new ExclusionBaseline({ maxFiles: 100, maxChars: 1_000 });
    for (let i = 0; i < 150; i++) baseline.ignoreFile('/ws', `dir${i}`, i < 100 ? 'x'.repeat(200) : undefined);
    assert.deepEqual(baseline.size.files, 100, 'files past the bound are not kept');
    // 3 + "dirN" names + 4 whole texts of 200 + 96 digests of 44: far below the 100 texts' 20,000.
    assert.ok(baseline.size.chars < 1_000 + 100 * (5 + 44), String(baseline.size.chars));
    assert.equal(
      baseline.ignoreFile('/ws', 'dir0', 'changed'),
      'x'.repeat(200),
      'a text within the bound is kept whole',
    );
    assert.equal(
      baseline.ignoreFile('/ws', 'dir99', 'x'.repeat(200)),
      'x'.repeat(200),
      'one kept by digest, unchanged',
    );
    assert.equal(
      baseline.ignoreFile('/ws', 'dir99', 'changed'),
      NOT_KEPT,
      'one kept by digest that changed cannot be told',
    );
    assert.equal(baseline.ignoreFile('/ws', 'dir120', 'x'), NOT_KEPT, 'one past the bound cannot be told');
    assert.equal(
      baseline.ignoreFile('/ws', 'dir121', undefined),
      undefined,
      'a folder with no ignore file past the bound is taken as it is (not every folder of a large repository kept out)',
    );
    assert.equal(baseline.size.files, 100);
  });

  describe('on disk', () => {
    let ws: string;
    beforeEach(() => {
      ws = mkdtempSync(join(tmpdir(), 'ui-baseline-'));
      mkdirSync(join(ws, 'private'));
      mkdirSync(join(ws, 'notes'));
      writeFileSync(join(ws, '.gitignore'), 'secret.txt\nprivate/\n');
      writeFileSync(join(ws, 'secret.txt'), 'hunter2\n');
      writeFileSync(join(ws, 'private', 'key.txt'), 'k\n');
      writeFileSync(join(ws, 'notes', 'n.txt'), 'n\n');
    });
    afterEach(() => rmSync(ws, { recursive: true, force: true }));
    const open = (baseline?: ExclusionBaseline, fileExcludes: string[] = ['notes/**']): Promise<WorkspaceFiles> =>
      WorkspaceFiles.open({
        folders: [{ name: 'ws', path: ws, excludes: { 'files.exclude': fileExcludes } }],
        ...(baseline ? { baseline } : {}),
      });

    it('keeps a file excluded for the conversation after its .gitignore line is removed (read, list, write)', async () => {
      const baseline = new ExclusionBaseline();
      const before = await (await open(baseline)).resolve('secret.txt');
      assert.ok(!before.ok && before.problem === 'excluded');
      // The model edits the .gitignore (its edit's review reads it first, as here).
      assert.ok((await (await open(baseline)).resolveForWrite('.gitignore')).ok);
      writeFileSync(join(ws, '.gitignore'), '# nothing ignored any more\n');
      const files = await open(baseline);
      const after = await files.resolve('secret.txt');
      assert.ok(!after.ok && after.problem === 'excluded', 'still excluded for this conversation');
      assert.match(after.message, /as it was when this conversation began/);
      const inside = await files.resolve('private/key.txt');
      assert.ok(!inside.ok && inside.problem === 'excluded', 'a folder excluded then is still excluded');
      const listed = (await files.list({ limit: 100 })).files.map((file) => file.path);
      assert.ok(!listed.includes('secret.txt') && !listed.includes('private/key.txt'), listed.join(', '));
      const write = await files.resolveForWrite('private/new.txt');
      assert.ok(!write.ok && write.problem === 'excluded');
      // Another conversation starts from the rules of its day.
      assert.ok((await (await open(new ExclusionBaseline())).resolve('secret.txt')).ok);
      assert.ok((await (await open()).resolve('secret.txt')).ok);
    });

    it('keeps a file excluded when a negation is added in a nested .gitignore', async () => {
      const baseline = new ExclusionBaseline();
      writeFileSync(join(ws, '.gitignore'), 'private/*\n');
      assert.ok(!(await (await open(baseline)).resolve('private/key.txt')).ok);
      writeFileSync(join(ws, 'private', '.gitignore'), '!key.txt\n');
      assert.ok((await (await open()).resolve('private/key.txt')).ok, 'git itself now shares it');
      assert.ok(!(await (await open(baseline)).resolve('private/key.txt')).ok, 'the conversation does not');
    });

    it("keeps an exclude setting's glob for the conversation after it is removed", async () => {
      const baseline = new ExclusionBaseline();
      assert.ok(!(await (await open(baseline)).resolve('notes/n.txt')).ok);
      const after = await (await open(baseline, [])).resolve('notes/n.txt');
      assert.ok(!after.ok && after.problem === 'excluded');
      assert.match(after.message, /files\.exclude \(as it was when this conversation began\)/);
    });

    it('knows a folder by the name the disk gives it: on a case-insensitive disk SUB/ is the sub/ seen first', async () => {
      mkdirSync(join(ws, 'sub'));
      writeFileSync(join(ws, 'sub', '.gitignore'), 'hidden.txt\n');
      writeFileSync(join(ws, 'sub', 'hidden.txt'), 's\n');
      symlinkSync('sub', join(ws, 'SUB')); // what a case-insensitive disk answers for SUB/, on any disk
      const [folder] = await openFolders([{ name: 'ws', path: ws, excludes: {} }], [], true);
      assert.ok(folder);
      const baseline = new ExclusionBaseline();
      assert.equal(
        (await admit(folder, 'sub/hidden.txt', false, new GitignoreCache(true, baseline))).excluded,
        '.gitignore',
      );
      writeFileSync(join(ws, 'sub', '.gitignore'), '# nothing ignored any more\n');
      const typed = await admit(folder, 'SUB/hidden.txt', false, new GitignoreCache(true, baseline));
      assert.equal(typed.excluded, `.gitignore${AS_IT_WAS}`, 'not a first sighting under another case');
    });

    it('keeps the folders of .gitignore files past its bound excluded, saying why', async () => {
      const baseline = new ExclusionBaseline({ maxFiles: 1, maxChars: 1_000 });
      const files = await open(baseline, []);
      assert.ok(!(await files.resolve('secret.txt')).ok, 'the root .gitignore is kept');
      assert.ok(
        (await files.resolve('notes/n.txt')).ok,
        'notes/ has no .gitignore: past the bound it is taken as it is',
      );
      writeFileSync(join(ws, 'notes', '.gitignore'), 'other.txt\n');
      const past = await (await open(baseline, [])).resolve('notes/n.txt');
      assert.ok(
        !past.ok && past.problem === 'excluded',
        'notes/.gitignore is past the bound: what it said cannot be told',
      );
      assert.ok(past.message.includes(NOT_KEPT_NOTE), past.message);
      assert.ok((await (await open(undefined, [])).resolve('notes/n.txt')).ok, 'without a baseline it is shared');
    });
  });
});
