// What was excluded when a conversation began stays excluded for it: editing a .gitignore (or the
// exclude settings) does not open a file to the model. The pure memory, then the gate on disk.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AS_IT_WAS, ExclusionBaseline, WorkspaceFiles, type ExcludeGlobs } from '../../../src/core/index';

describe('core/workspaceFiles: exclusions kept per conversation', () => {
  it('remembers each ignore file as first seen, and adds back exclude globs that went away', () => {
    const baseline = new ExclusionBaseline();
    assert.deepEqual(baseline.ignoreFile('a', { text: 'secret/\n', parsed: 1 }), { text: 'secret/\n', parsed: 1 });
    assert.deepEqual(baseline.ignoreFile('a', { text: '', parsed: 2 }), { text: 'secret/\n', parsed: 1 }, 'the first sighting wins');
    assert.deepEqual(baseline.ignoreFile('b', { text: undefined, parsed: undefined }), { text: undefined, parsed: undefined });
    const first: ExcludeGlobs = { 'files.exclude': ['**/.git', 'private/**'], 'search.exclude': [] };
    assert.deepEqual(baseline.excludes('/ws', first), first);
    assert.deepEqual(baseline.excludes('/ws', { 'files.exclude': ['**/.git', 'more/**'] }), { 'files.exclude': ['**/.git', 'more/**'], [`files.exclude${AS_IT_WAS}`]: ['private/**'] });
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
      WorkspaceFiles.open({ folders: [{ name: 'ws', path: ws, excludes: { 'files.exclude': fileExcludes } }], ...(baseline ? { baseline } : {}) });

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

    it('keeps an exclude setting\'s glob for the conversation after it is removed', async () => {
      const baseline = new ExclusionBaseline();
      assert.ok(!(await (await open(baseline)).resolve('notes/n.txt')).ok);
      const after = await (await open(baseline, [])).resolve('notes/n.txt');
      assert.ok(!after.ok && after.problem === 'excluded');
      assert.match(after.message, /files\.exclude \(as it was when this conversation began\)/);
    });
  });
});
