// The folders a reply created: counted when a file is kept as absent, kept in the manifest, listed
// innermost first for a restore, and removed only when they are empty real folders at their place.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../../../../src/core/checkpoints/checkpointStore';
import { parseManifest, type CheckpointManifest } from '../../../../src/core/checkpoints/checkpointManifest';
import {
  countAbsentFolders,
  createdFolders,
  removeEmptyFolders,
} from '../../../../src/core/checkpoints/createdFolders';
import { folderIdentity } from '../../../../src/core/workspaceFiles/folderIdentity';

const WS = folderIdentity('/ws', false);
const OTHER = folderIdentity('/other', false);
const ABSENT = { kind: 'absent' } as const;
const manifest = (seq: number, files: CheckpointManifest['files']): CheckpointManifest => ({
  version: 1,
  conversationId: 'c-1',
  turnId: `a-${seq}`,
  seq,
  createdAt: seq,
  files,
});

describe('core/checkpoints: folders a reply created', () => {
  it('counts the absent folders holding a path, innermost first, up to the first that exists', async () => {
    const existing = new Set(['a', 'a/b']);
    const exists = async (folder: string): Promise<boolean> => existing.has(folder);
    assert.equal(await countAbsentFolders('a/b/c/d/file.ts', exists), 2);
    assert.equal(await countAbsentFolders('a/b/file.ts', exists), 0);
    assert.equal(await countAbsentFolders('new/file.ts', exists), 1);
    assert.equal(await countAbsentFolders('file.ts', exists), 0, 'the workspace folder itself is never counted');
    // A folder whose absence cannot be told counts as existing: nothing above it is counted.
    assert.equal(await countAbsentFolders('x/y/file.ts', async (folder) => folder === 'x'), 1);
  });

  it('lists the created folders of every manifest once, innermost first, per workspace folder', () => {
    const folders = createdFolders([
      manifest(1, [
        { folder: 'ws', folderId: WS, path: 'newdir/sub/a.ts', before: ABSENT, absentFolders: 2 },
        { folder: 'ws', folderId: WS, path: 'newdir/sub/b.ts', before: ABSENT, absentFolders: 2 },
        { folder: 'ws', folderId: WS, path: 'old/new.ts', before: ABSENT },
      ]),
      manifest(2, [
        { folder: 'ws', folderId: WS, path: 'kept/deep/er/c.ts', before: ABSENT, absentFolders: 1 },
        { folder: 'other', folderId: OTHER, path: 'newdir/x.ts', before: ABSENT, absentFolders: 1 },
      ]),
    ]);
    assert.deepEqual(
      folders.map((f) => `${f.folder}:${f.path}`),
      ['ws:kept/deep/er', 'ws:newdir/sub', 'ws:newdir', 'other:newdir'],
    );
  });

  it('the manifest keeps absentFolders for an absent file only, within its path', () => {
    const base = { version: 1, conversationId: 'c-1', turnId: 'a-1', seq: 1, createdAt: 1 };
    const parsed = parseManifest({
      ...base,
      files: [{ folder: 'ws', folderId: WS, path: 'n/s/f.ts', before: ABSENT, absentFolders: 2 }],
    });
    assert.ok(parsed.ok);
    assert.equal(parsed.manifest.files[0]?.absentFolders, 2);
    for (const [path, before, absentFolders] of [
      ['n/s/f.ts', ABSENT, 3], // more folders than the path has
      ['f.ts', ABSENT, 1], // the workspace folder itself
      ['n/f.ts', ABSENT, 0],
      ['n/f.ts', ABSENT, 1.5],
      ['n/f.ts', ABSENT, '1'],
      ['n/f.ts', { kind: 'file', hash: 'a'.repeat(64), size: 1 }, 1], // a file that existed
    ] as const) {
      const bad = parseManifest({ ...base, files: [{ folder: 'ws', folderId: WS, path, before, absentFolders }] });
      assert.ok(!bad.ok && /malformed "absentFolders"/.test(bad.problem), JSON.stringify([path, absentFolders]));
    }
  });

  describe('on disk', () => {
    let root: string;
    beforeEach(() => (root = realpathSync(mkdtempSync(join(tmpdir(), 'ui-created-folders-')))));
    afterEach(() => rmSync(root, { recursive: true, force: true }));
    const at = (path: string) => ({ path, absolute: join(root, 'ws', path), real: join(root, 'ws', path) });

    it('the store notes the absent folders of a file kept as absent', async () => {
      const store = new CheckpointStore(join(root, 'store'));
      const reply = { conversationId: 'c-1', turnId: 'a-1' };
      await store.record(reply, [
        { folder: 'ws', folderId: WS, path: 'n/s/f.ts', read: async () => 'absent', absentFolders: async () => 2 },
        { folder: 'ws', folderId: WS, path: 'g.ts', read: async () => 'absent', absentFolders: async () => 0 },
        {
          folder: 'ws',
          folderId: WS,
          path: 'h/x.ts',
          read: async () => new Uint8Array([1]),
          absentFolders: async () => assert.fail('not asked for a file that exists'),
        },
      ]);
      const loaded = await new CheckpointStore(join(root, 'store')).load(reply);
      assert.ok(loaded?.ok);
      assert.deepEqual(
        loaded.manifest.files.map((f) => f.absentFolders),
        [2, undefined, undefined],
      );
    });

    it('removes empty folders innermost first, and keeps one holding anything, a link, or one reached through a link', async () => {
      mkdirSync(join(root, 'ws', 'newdir', 'sub'), { recursive: true });
      mkdirSync(join(root, 'ws', 'full', 'empty'), { recursive: true });
      writeFileSync(join(root, 'ws', 'full', '.hidden'), 'the user wrote this');
      mkdirSync(join(root, 'target', 'inner'), { recursive: true });
      symlinkSync(join(root, 'target'), join(root, 'ws', 'link'), 'dir');
      const removed = await removeEmptyFolders([
        at('newdir/sub'),
        at('full/empty'),
        at('link/inner'), // reached through a link: not where the reply made it
        at('gone/away'),
        at('newdir'),
        at('full'),
        at('link'),
      ]);
      assert.deepEqual(removed, ['newdir/sub', 'full/empty', 'newdir']);
      assert.ok(existsSync(join(root, 'ws', 'full', '.hidden')));
      assert.ok(existsSync(join(root, 'target', 'inner')), "the link's target is untouched");
      assert.ok(existsSync(join(root, 'ws', 'link')), 'the link stays');
    });
  });
});
