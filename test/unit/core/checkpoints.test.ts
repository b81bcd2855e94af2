// Checkpoints' pure parts (manifest validation, restore planning, pruning rules) and the store on
// a real folder: first pre-image wins, blobs deduplicated, damage told, not trusted, nor spread.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointCorruptError, CheckpointStore, sha256 } from '../../../src/core/checkpoints/checkpointStore';
import { decidePrune, type CheckpointSummary } from '../../../src/core/checkpoints/pruneRules';
import { describeDrift, restoreDrift, type PlannedRestore } from '../../../src/core/checkpoints/restoreDrift';
import {
  fileKey,
  isSafeRelativePath,
  parseManifest,
  type CheckpointManifest,
} from '../../../src/core/checkpoints/checkpointManifest';
import { folderIdentity } from '../../../src/core/workspaceFiles/folderIdentity';
import { planRestore, type CurrentState, type PlanFile } from '../../../src/core/checkpoints/restorePlan';
import { WorkspaceFiles } from '../../../src/core/workspaceFiles/workspaceFiles';

const H = (c: string): string => sha256(new TextEncoder().encode(c));
const file = (hash: string, size = 1) => ({ kind: 'file', hash, size }) as const;
const ABSENT = { kind: 'absent' } as const;
/** The identity of the workspace folder 'ws' of the pure tests. */
const WS = folderIdentity('/ws', false);
const manifest = (seq: number, files: CheckpointManifest['files'], turnId = `a-${seq}`): CheckpointManifest => ({
  version: 1,
  conversationId: 'c-1',
  turnId,
  seq,
  createdAt: seq * 1000,
  files,
});

describe('core/checkpoints: manifest validation', () => {
  const good = {
    version: 1,
    conversationId: 'c-1',
    turnId: 'a-1',
    seq: 1,
    createdAt: 5,
    files: [
      { folder: 'ws', folderId: WS, path: 'src/a.ts', before: { kind: 'file', hash: H('x'), size: 1 } },
      {
        folder: 'ws',
        folderId: WS,
        path: 'new.ts',
        before: { kind: 'absent' },
        after: { kind: 'file', hash: H('y'), size: 1 },
      },
    ],
  };

  it('accepts a well-formed manifest and keeps exactly its fields', () => {
    const parsed = parseManifest(JSON.parse(JSON.stringify({ ...good, extra: 'ignored' })), {
      conversationId: 'c-1',
      turnId: 'a-1',
    });
    assert.ok(parsed.ok);
    assert.equal(parsed.manifest.files.length, 2);
    assert.deepEqual(parsed.manifest.files[1]?.after, { kind: 'file', hash: H('y'), size: 1 });
    assert.equal('extra' in parsed.manifest, false);
  });

  it('refuses damaged or hand-edited manifests, saying why', () => {
    const bad = (value: unknown, why: RegExp, expected?: { conversationId: string; turnId: string }): void => {
      const parsed = parseManifest(value, expected);
      assert.equal(parsed.ok, false, JSON.stringify(value));
      if (!parsed.ok) assert.match(parsed.problem, why);
    };
    bad(null, /not a JSON object/);
    bad([], /not a JSON object/);
    bad({ ...good, version: 2 }, /unknown version/);
    bad({ ...good, turnId: '../x' }, /malformed/);
    bad(good, /do not match/, { conversationId: 'c-1', turnId: 'a-2' });
    bad({ ...good, seq: -1 }, /sequence/);
    bad({ ...good, createdAt: 'now' }, /creation time/);
    bad({ ...good, files: 'all' }, /no file list/);
    bad(
      { ...good, files: [{ folder: 'ws', folderId: WS, path: '../../etc/passwd', before: { kind: 'absent' } }] },
      /unsafe path/,
    );
    bad(
      {
        ...good,
        files: [{ folder: 'ws', folderId: WS, path: 'a.ts', before: { kind: 'file', hash: 'abc', size: 1 } }],
      },
      /malformed "before"/,
    );
    bad(
      {
        ...good,
        files: [{ folder: 'ws', folderId: WS, path: 'a.ts', before: { kind: 'absent' }, after: { kind: 'gone' } }],
      },
      /malformed "after"/,
    );
    bad({ ...good, files: [good.files[0], good.files[0]] }, /listed twice/);
    bad({ ...good, files: [{ path: 'a.ts', before: { kind: 'absent' } }] }, /no folder name/);
  });

  it("keeps a file's folder identity, and refuses a missing or malformed one", () => {
    const A = folderIdentity('/one/app', false);
    const B = folderIdentity('/two/app', false);
    assert.notEqual(A, B, 'two folders named alike are two identities');
    const twoApps = {
      ...good,
      files: [
        { folder: 'app', folderId: A, path: 'src/a.ts', before: ABSENT },
        { folder: 'app', folderId: B, path: 'src/a.ts', before: ABSENT },
      ],
    };
    const parsed = parseManifest(twoApps);
    assert.ok(parsed.ok, 'the same path in two same-named folders is two files');
    assert.deepEqual(
      parsed.manifest.files.map((f) => f.folderId),
      [A, B],
    );
    assert.notEqual(fileKey(parsed.manifest.files[0]!), fileKey(parsed.manifest.files[1]!));
    const nameOnly = parseManifest({ ...good, files: [{ folder: 'app', path: 'a.ts', before: ABSENT }] });
    assert.ok(!nameOnly.ok && /no folder identity/.test(nameOnly.problem));
    const bad = parseManifest({ ...good, files: [{ folder: 'app', folderId: '../x', path: 'a.ts', before: ABSENT }] });
    assert.ok(!bad.ok && /no folder identity/.test(bad.problem));
    const dup = parseManifest({ ...good, files: [twoApps.files[0], twoApps.files[0]] });
    assert.ok(!dup.ok && /listed twice/.test(dup.problem));
  });

  it('lets only plain folder-relative paths through', () => {
    for (const path of ['a.ts', 'src/deep/a b.ts', '.env', 'a..b/c']) assert.ok(isSafeRelativePath(path), path);
    for (const path of ['', '/etc/passwd', '../a', 'a/../../b', 'a//b', './a', 'a\\..\\b', 'C:/x', 'c:x', 'a\0b'])
      assert.ok(!isSafeRelativePath(path), path);
  });
});

describe('core/checkpoints: restore plan', () => {
  const states =
    (map: Record<string, CurrentState | string>) =>
    (f: PlanFile): CurrentState | string =>
      map[f.path] ?? { kind: 'absent' };

  it('rewrites a changed file, deletes a created one, recreates a deleted one, moves a renamed one back', () => {
    const plan = planRestore(
      [
        manifest(1, [
          { folder: 'ws', folderId: WS, path: 'changed.ts', before: file(H('old')) },
          { folder: 'ws', folderId: WS, path: 'created.ts', before: ABSENT },
          { folder: 'ws', folderId: WS, path: 'deleted.ts', before: file(H('gone')) },
          { folder: 'ws', folderId: WS, path: 'old-name.ts', before: file(H('moved')) },
          { folder: 'ws', folderId: WS, path: 'new-name.ts', before: ABSENT },
          { folder: 'ws', folderId: WS, path: 'same.ts', before: file(H('same')) },
        ]),
      ],
      states({
        'changed.ts': { kind: 'file', hash: H('new') },
        'created.ts': { kind: 'file', hash: H('c') },
        'new-name.ts': { kind: 'file', hash: H('moved') },
        'same.ts': { kind: 'file', hash: H('same') },
      }),
    );
    const byPath = Object.fromEntries(plan.items.map((i) => [i.path, i]));
    assert.equal(byPath['changed.ts']?.action, 'rewrite');
    assert.equal(byPath['created.ts']?.action, 'delete');
    assert.equal(byPath['deleted.ts']?.action, 'recreate');
    assert.equal(byPath['old-name.ts']?.action, 'moveBack');
    assert.deepEqual(byPath['old-name.ts']?.from, { folder: 'ws', folderId: WS, path: 'new-name.ts' });
    assert.equal(byPath['new-name.ts'], undefined, 'the new name is folded into the move back');
    assert.equal(byPath['same.ts']?.action, 'unchanged', 'restoring twice is harmless');
    assert.equal(plan.checkpoints, 1);
  });

  it('a renamed file that was also edited is recreated and its new name deleted', () => {
    const plan = planRestore(
      [
        manifest(1, [
          { folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('a')) },
          { folder: 'ws', folderId: WS, path: 'b.ts', before: ABSENT },
        ]),
      ],
      states({ 'b.ts': { kind: 'file', hash: H('a edited') } }),
    );
    assert.deepEqual(
      plan.items.map((i) => [i.path, i.action]),
      [
        ['a.ts', 'recreate'],
        ['b.ts', 'delete'],
      ],
    );
  });

  it('to a point in time: the earliest pre-image among this and later checkpoints wins, whatever their order', () => {
    const later = manifest(2, [
      { folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('v2')) },
      { folder: 'ws', folderId: WS, path: 'b.ts', before: file(H('b1')) },
    ]);
    const first = manifest(1, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('v1')) }]);
    const plan = planRestore(
      [later, first],
      states({ 'a.ts': { kind: 'file', hash: H('v3') }, 'b.ts': { kind: 'file', hash: H('b2') } }),
    );
    assert.equal(plan.checkpoints, 2);
    assert.deepEqual(
      plan.items.map((i) => [i.path, i.before.kind === 'file' ? i.before.hash : 'absent']),
      [
        ['a.ts', H('v1')],
        ['b.ts', H('b1')],
      ],
    );
  });

  it('flags a file changed since the reply (known after-state differs) and skips paths that no longer resolve', () => {
    const plan = planRestore(
      [
        manifest(1, [
          { folder: 'ws', folderId: WS, path: 'edited-later.ts', before: file(H('a')), after: file(H('b')) },
          { folder: 'ws', folderId: WS, path: 'as-left.ts', before: file(H('a')), after: file(H('b')) },
          { folder: 'ws', folderId: WS, path: 'unknown-after.ts', before: file(H('a')) },
          { folder: 'ws', folderId: WS, path: 'escaped.ts', before: file(H('a')) },
        ]),
      ],
      states({
        'edited-later.ts': { kind: 'file', hash: H('c') },
        'as-left.ts': { kind: 'file', hash: H('b') },
        'unknown-after.ts': { kind: 'file', hash: H('z') },
        'escaped.ts': 'it leads outside the workspace folder (through a link)',
      }),
    );
    const byPath = Object.fromEntries(plan.items.map((i) => [i.path, i]));
    assert.equal(byPath['edited-later.ts']?.changedSince, true);
    assert.equal(byPath['as-left.ts']?.changedSince, false);
    assert.equal(byPath['unknown-after.ts']?.changedSince, false);
    assert.deepEqual(plan.skipped, [
      {
        folder: 'ws',
        folderId: WS,
        path: 'escaped.ts',
        reason: 'it leads outside the workspace folder (through a link)',
      },
    ]);
  });
});

describe('core/checkpoints: "changed since the reply"', () => {
  const now =
    (hash: string): ((f: PlanFile) => CurrentState) =>
    () => ({ kind: 'file', hash });
  const one = (plan: ReturnType<typeof planRestore>) => plan.items[0];

  it('flags an edit made between two undone replies, though the last reply left the file as it is now', () => {
    // Reply 1 wrote v2; the user edited it to "mine"; reply 2 found "mine" and wrote v3; it is v3 now.
    const plan = planRestore(
      [
        manifest(1, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('v1')), after: file(H('v2')) }]),
        manifest(2, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('mine')), after: file(H('v3')) }]),
      ],
      now(H('v3')),
    );
    assert.equal(one(plan)?.changedSince, true, "restoring to reply 1 loses the user's edit between the replies");
  });

  it("does not flag the replies' own chain, and flags an edit after the last one", () => {
    const chain = [
      manifest(1, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('v1')), after: file(H('v2')) }]),
      manifest(2, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('v2')), after: file(H('v3')) }]),
    ];
    assert.equal(one(planRestore(chain, now(H('v3'))))?.changedSince, false);
    assert.equal(one(planRestore(chain, now(H('edited after'))))?.changedSince, true);
  });

  it("when the last reply's writer did not tell its after-state, an earlier gap is still judged, the last one is not", () => {
    const unknownLast = [
      manifest(1, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('v1')), after: file(H('v2')) }]),
      manifest(2, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('v2')) }]),
    ];
    assert.equal(
      one(planRestore(unknownLast, now(H('anything'))))?.changedSince,
      false,
      'nothing known to compare with',
    );
    const editedBetween = [
      unknownLast[0]!,
      manifest(2, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('mine')) }]),
    ];
    assert.equal(one(planRestore(editedBetween, now(H('anything'))))?.changedSince, true);
    // A later reply's checkpoint without the file does not hide an edit after the reply that touched it.
    const skipping = [
      manifest(1, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('v1')), after: file(H('v2')) }]),
      manifest(2, [{ folder: 'ws', folderId: WS, path: 'b.ts', before: ABSENT, after: file(H('b')) }]),
    ];
    assert.equal(
      planRestore(skipping, (f) =>
        f.path === 'a.ts' ? { kind: 'file', hash: H('mine') } : { kind: 'file', hash: H('b') },
      ).items.find((i) => i.path === 'a.ts')?.changedSince,
      true,
    );
  });

  it('a file the user deleted between replies, and one the next reply recreated, are flagged', () => {
    const plan = planRestore(
      [
        manifest(1, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: file(H('v1')), after: file(H('v2')) }]),
        manifest(2, [{ folder: 'ws', folderId: WS, path: 'a.ts', before: ABSENT, after: file(H('v3')) }]),
      ],
      now(H('v3')),
    );
    assert.equal(one(plan)?.changedSince, true);
  });

  it("two same-named folders' files are planned apart", () => {
    const A = folderIdentity('/one/app', false);
    const B = folderIdentity('/two/app', false);
    const plan = planRestore(
      [
        manifest(1, [
          { folder: 'app', folderId: A, path: 'a.ts', before: file(H('one')) },
          { folder: 'app', folderId: B, path: 'a.ts', before: file(H('two')) },
        ]),
      ],
      () => ({ kind: 'file', hash: H('x') }),
    );
    assert.deepEqual(
      plan.items.map((i) => [i.folderId, i.before.kind === 'file' ? i.before.hash : '']),
      [
        [A, H('one')],
        [B, H('two')],
      ],
    );
  });
});

describe('core/checkpoints: what changed while the preview was open', () => {
  const A = folderIdentity('/one/app', false);
  const planned = (states: Record<string, CurrentState | string>, checkpoints = 1): PlannedRestore => {
    const files = Object.keys(states).map((path) => ({
      folder: 'app',
      folderId: A,
      path,
      before: file(H(`${path} before`)),
    }));
    const current = new Map(files.map((f) => [fileKey(f), states[f.path]!]));
    const manifests = [manifest(1, files), ...Array.from({ length: checkpoints - 1 }, (_, i) => manifest(i + 2, []))];
    return { plan: planRestore(manifests, (f) => current.get(fileKey(f)) ?? 'not found'), current };
  };
  const F = (c: string): CurrentState => ({ kind: 'file', hash: H(c) });

  it('nothing changed: no drift (the restore is applied as shown)', () => {
    const shown = planned({
      'a.ts': F('now'),
      'b.ts': { kind: 'absent' },
      'c.ts': 'it leads outside the workspace folder',
    });
    assert.equal(
      restoreDrift(
        shown,
        planned({ 'a.ts': F('now'), 'b.ts': { kind: 'absent' }, 'c.ts': 'it leads outside the workspace folder' }),
      ),
      undefined,
    );
  });

  it('names each file edited, created, deleted or no longer readable, and a change in the checkpoints to undo', () => {
    const shown = planned({ 'a.ts': F('now'), 'b.ts': { kind: 'absent' }, 'c.ts': F('c'), 'd.ts': F('d') });
    const drift = restoreDrift(
      shown,
      planned({ 'a.ts': F('typed meanwhile'), 'b.ts': F('made'), 'c.ts': { kind: 'absent' }, 'd.ts': 'locked' }, 2),
    );
    assert.deepEqual(
      drift?.files.map((n) => [n.path, n.kind]),
      [
        ['a.ts', 'edited'],
        ['b.ts', 'created'],
        ['c.ts', 'deleted'],
        ['d.ts', 'unreadable'],
      ],
    );
    assert.deepEqual(drift?.checkpoints, { shown: 1, now: 2 });
    assert.match(
      describeDrift(drift),
      /^a\.ts \(edited\), b\.ts \(created\), c\.ts \(deleted\), d\.ts \(no longer readable\), a newer reply/,
    );
  });

  it('a file that joined the restore (a reply recorded it meanwhile) is named', () => {
    const drift = restoreDrift(planned({ 'a.ts': F('now') }), planned({ 'a.ts': F('now'), 'new.ts': F('new') }));
    assert.deepEqual(
      drift?.files.map((n) => [n.path, n.kind]),
      [['new.ts', 'newlyPlanned']],
    );
  });
});

describe('core/checkpoints: pruning rules', () => {
  const summary = (
    conversationId: string,
    turnId: string,
    createdAt: number,
    blobs: Array<[string, number]>,
  ): CheckpointSummary => ({ conversationId, turnId, createdAt, manifestBytes: 100, blobs: new Map(blobs) });

  it('drops checkpoints of deleted conversations, but not young ones (a new conversation may not be saved yet)', () => {
    const decision = decidePrune({
      checkpoints: [
        summary('gone', 'a', 0, [['h1', 1000]]),
        summary('gone', 'b', 9_500, [['h2', 10]]),
        summary('live', 'c', 0, []),
      ],
      liveConversations: new Set(['live']),
      maxBytes: 1e9,
      now: 10_000,
      graceMs: 1000,
    });
    assert.deepEqual(
      decision.remove.map((r) => [r.checkpoint.turnId, r.reason]),
      [['a', 'deletedConversation']],
    );
    assert.equal(decision.bytesBefore, 1000 + 10 + 300);
    assert.equal(decision.bytesAfter, 10 + 200);
  });

  it('keeps the storage under the budget, oldest first, counting a shared blob once and freeing it with its last user', () => {
    const checkpoints = [
      summary('c', 'new', 30, [['shared', 1000]]),
      summary('c', 'old', 10, [
        ['shared', 1000],
        ['big', 5000],
      ]),
      summary('c', 'mid', 20, [['mid', 2000]]),
    ];
    const decision = decidePrune({ checkpoints, maxBytes: 3500, now: 100, graceMs: 0 });
    assert.equal(decision.bytesBefore, 1000 + 5000 + 2000 + 300);
    assert.deepEqual(
      decision.remove.map((r) => [r.checkpoint.turnId, r.reason]),
      [['old', 'budget']],
    );
    assert.equal(decision.bytesAfter, 1000 + 2000 + 200, 'the shared blob stays: "new" still uses it');
    const tighter = decidePrune({ checkpoints, maxBytes: 1000, now: 100, graceMs: 0, keep: (c) => c.turnId === 'new' });
    assert.deepEqual(
      tighter.remove.map((r) => r.checkpoint.turnId),
      ['old', 'mid'],
      'the kept one stays even over budget',
    );
  });

  it('drops nothing for unknown conversations when the list of live ones is not known', () => {
    assert.equal(
      decidePrune({ checkpoints: [summary('x', 'a', 0, [])], maxBytes: 1e9, now: 1e12, graceMs: 0 }).remove.length,
      0,
    );
  });
});

describe('core/checkpoints: the store on disk', () => {
  let root: string;
  let store: CheckpointStore;
  const reply = { conversationId: 'c-1', turnId: 'a-1' };
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
  const source = (path: string, content: Uint8Array | 'absent', reads?: string[]) => ({
    folder: 'ws',
    folderId: WS,
    path,
    read: async () => {
      reads?.push(path);
      return content;
    },
  });
  const blobCount = (): number =>
    readdirSync(join(root, 'blobs'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .reduce((n, d) => n + readdirSync(join(root, 'blobs', d.name)).length, 0);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ui-checkpoints-'));
    store = new CheckpointStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('keeps the first pre-image per reply and file, reads a kept file no more, keeps a missing one as absent', async () => {
    const reads: string[] = [];
    const first = await store.record(reply, [source('a.ts', bytes('v1'), reads), source('new.ts', 'absent', reads)]);
    assert.equal(first.added, 2);
    const again = await store.record(reply, [source('a.ts', bytes('v2'), reads), source('b.ts', bytes('b'), reads)]);
    assert.equal(again.added, 1);
    assert.deepEqual(reads, ['a.ts', 'new.ts', 'b.ts'], 'a.ts was not read a second time');
    const loaded = await new CheckpointStore(root).load(reply);
    assert.ok(loaded?.ok);
    assert.deepEqual(
      loaded.manifest.files.map((f) => [f.path, f.before.kind === 'file' ? f.before.hash : 'absent']),
      [
        ['a.ts', H('v1')],
        ['new.ts', 'absent'],
        ['b.ts', H('b')],
      ],
    );
    assert.deepEqual(await store.readBlob(H('v1')), bytes('v1'));
  });

  it('deduplicates content across checkpoints, numbers checkpoints in order, and writes bytes for the change only', async () => {
    const big = new Uint8Array(100_000).fill(7);
    const one = await store.record(reply, [source('a.bin', big)]);
    const two = await store.record({ conversationId: 'c-1', turnId: 'a-2' }, [source('copy.bin', big)]);
    assert.ok(one.bytesWritten >= 100_000 && one.bytesWritten < 101_000, String(one.bytesWritten));
    assert.ok(two.bytesWritten < 1000, `the same content is not written twice (${two.bytesWritten})`);
    assert.equal(blobCount(), 1);
    const list = await store.listConversation('c-1');
    assert.deepEqual(list.map((c) => (c.parse.ok ? [c.turnId, c.parse.manifest.seq] : [])).sort(), [
      ['a-1', 1],
      ['a-2', 2],
    ]);
  });

  it('a damaged manifest is told, never overwritten; altered or missing content is told', async () => {
    await store.record(reply, [source('a.ts', bytes('v1'))]);
    const path = join(root, 'conversations', 'c-1', 'a-1', 'manifest.json');
    writeFileSync(path, '{"version":1,');
    const fresh = new CheckpointStore(root);
    const loaded = await fresh.load(reply);
    assert.deepEqual(loaded, { ok: false, problem: 'it is not valid JSON' });
    await assert.rejects(fresh.record(reply, [source('b.ts', bytes('b'))]), CheckpointCorruptError);
    assert.equal((await import('node:fs')).readFileSync(path, 'utf8'), '{"version":1,', 'left as it was');
    writeFileSync(join(root, 'blobs', H('v1').slice(0, 2), H('v1')), 'tampered');
    await assert.rejects(store.readBlob(H('v1')), /altered/);
    await assert.rejects(store.readBlob(H('nothing')), /missing/);
    await assert.rejects(store.readBlob('../../etc/passwd'), /malformed/);
  });

  it('keeps the same path of two same-named folders apart, by folder identity', async () => {
    const A = folderIdentity('/one/app', false);
    const B = folderIdentity('/two/app', false);
    const result = await store.record(reply, [
      { folder: 'app', folderId: A, path: 'a.ts', read: async () => bytes('one') },
      { folder: 'app', folderId: B, path: 'a.ts', read: async () => bytes('two') },
    ]);
    assert.equal(result.added, 2, 'the second is not taken for the first');
    await store.recordAfter(reply, [{ folder: 'app', folderId: B, path: 'a.ts', after: file(H('two after')) }]);
    const loaded = await new CheckpointStore(root).load(reply);
    assert.ok(loaded?.ok);
    assert.deepEqual(
      loaded.manifest.files.map((f) => [
        f.folderId,
        f.before.kind === 'file' ? f.before.hash : '',
        f.after?.kind === 'file' ? f.after.hash : undefined,
      ]),
      [
        [A, H('one'), undefined],
        [B, H('two'), H('two after')],
      ],
    );
  });

  it('refuses reply ids that are not plain names (they become folder names)', async () => {
    await assert.rejects(
      store.record({ conversationId: '../x', turnId: 'a' }, [source('a.ts', bytes('v'))]),
      /Malformed/,
    );
    assert.equal(await store.load({ conversationId: 'c', turnId: '..' }), undefined);
  });

  it("prune removes deleted conversations' checkpoints and content no checkpoint names, and keeps the rest", async () => {
    await store.record({ conversationId: 'c-gone', turnId: 'a-1' }, [source('gone.ts', bytes('gone'))]);
    await store.record({ conversationId: 'c-live', turnId: 'a-1' }, [source('live.ts', bytes('live'))]);
    const report = await store.prune({
      liveConversations: new Set(['c-live']),
      maxBytes: 1e9,
      graceMs: 0,
      now: Date.now() + 1000,
    });
    assert.deepEqual(
      report.remove.map((r) => r.checkpoint.conversationId),
      ['c-gone'],
    );
    assert.equal(report.blobsSwept, 1);
    assert.equal(await store.load({ conversationId: 'c-gone', turnId: 'a-1' }), undefined);
    assert.deepEqual(await store.readBlob(H('live')), bytes('live'));
    await assert.rejects(store.readBlob(H('gone')), /missing/);
  });

  it('prune under the budget drops the oldest checkpoint first; a young orphan blob is left (another window may be writing)', async () => {
    await store.record({ conversationId: 'c-1', turnId: 'a-old' }, [source('a.bin', new Uint8Array(3000).fill(1))]);
    const manifestPath = join(root, 'conversations', 'c-1', 'a-old', 'manifest.json');
    const m = JSON.parse((await import('node:fs')).readFileSync(manifestPath, 'utf8')) as { createdAt: number };
    writeFileSync(manifestPath, JSON.stringify({ ...m, createdAt: m.createdAt - 60_000 }));
    await store.record({ conversationId: 'c-1', turnId: 'a-new' }, [source('b.bin', new Uint8Array(3000).fill(2))]);
    const report = await new CheckpointStore(root).prune({ maxBytes: 4000, graceMs: 60_000 });
    assert.deepEqual(
      report.remove.map((r) => [r.checkpoint.turnId, r.reason]),
      [['a-old', 'budget']],
    );
    assert.equal(report.blobsSwept, 0, 'the freed blob is younger than the grace period');
    const blob = join(
      root,
      'blobs',
      sha256(new Uint8Array(3000).fill(1)).slice(0, 2),
      sha256(new Uint8Array(3000).fill(1)),
    );
    utimesSync(blob, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    assert.equal((await store.prune({ maxBytes: 4000, graceMs: 60_000 })).blobsSwept, 1);
  });
});

describe('core/workspaceFiles: placing paths that may not exist yet', () => {
  let base: string;
  let files: WorkspaceFiles;
  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'ui-place-'));
    mkdirSync(join(base, 'ws', 'src'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    symlinkSync(join(base, 'outside'), join(base, 'ws', 'escape'));
    files = await WorkspaceFiles.open({
      folders: [{ name: 'ws', path: join(base, 'ws'), excludes: { 'files.exclude': [], 'search.exclude': [] } }],
    });
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('places a new file inside, refuses one outside or behind a link out, and resolves a kept path back', async () => {
    const inside = await files.place(join(base, 'ws', 'src', 'deep', 'new.ts'));
    assert.ok(inside.ok && inside.path === 'src/deep/new.ts' && inside.folder.name === 'ws');
    const outside = await files.place(join(base, 'outside', 'x.ts'));
    assert.ok(!outside.ok && /outside the workspace/.test(outside.message));
    const linked = await files.place(join(base, 'ws', 'escape', 'x.ts'));
    assert.ok(!linked.ok && /through a link/.test(linked.message));
    const back = await files.placed({ name: 'ws', id: inside.folderId }, 'src/deep/new.ts');
    assert.ok(back.ok && back.absolute === join(base, 'ws', 'src', 'deep', 'new.ts'));
    const viaLink = await files.placed({ name: 'ws', id: inside.folderId }, 'escape/x.ts');
    assert.ok(!viaLink.ok && /outside/.test(viaLink.message));
    const unknown = await files.placed({ name: 'other', id: folderIdentity(join(base, 'other'), false) }, 'a.ts');
    assert.ok(!unknown.ok && /not open/.test(unknown.message));
    assert.ok(!(await files.placed({ name: 'ws', id: inside.folderId }, '../outside/x.ts')).ok);
  });

  it('two open folders with the same name: each file is placed and resolved back in its own folder', async () => {
    for (const parent of ['one', 'two']) mkdirSync(join(base, parent, 'app', 'src'), { recursive: true });
    const config = (parent: string) => ({
      name: 'app',
      path: join(base, parent, 'app'),
      excludes: { 'files.exclude': [], 'search.exclude': [] },
    });
    const twoApps = await WorkspaceFiles.open({ folders: [config('one'), config('two')] });
    const first = await twoApps.place(join(base, 'one', 'app', 'src', 'a.ts'));
    const second = await twoApps.place(join(base, 'two', 'app', 'src', 'a.ts'));
    assert.ok(first.ok && second.ok);
    assert.equal(first.folder.name, second.folder.name);
    assert.equal(first.path, second.path);
    assert.notEqual(first.folderId, second.folderId, 'told apart by identity, not name');
    const backFirst = await twoApps.placed({ name: 'app', id: first.folderId }, 'src/a.ts');
    const backSecond = await twoApps.placed({ name: 'app', id: second.folderId }, 'src/a.ts');
    assert.ok(backFirst.ok && backFirst.absolute === join(base, 'one', 'app', 'src', 'a.ts'));
    assert.ok(backSecond.ok && backSecond.absolute === join(base, 'two', 'app', 'src', 'a.ts'));
    // Reordered folders (indexes swap) keep their identities.
    const reordered = await WorkspaceFiles.open({ folders: [config('two'), config('one')] });
    const again = await reordered.placed({ name: 'app', id: first.folderId }, 'src/a.ts');
    assert.ok(again.ok && again.absolute === join(base, 'one', 'app', 'src', 'a.ts'));
    const single = await WorkspaceFiles.open({ folders: [config('two')] });
    // An identity no open folder has is not resolved by name instead.
    const closed = await single.placed({ name: 'app', id: first.folderId }, 'src/a.ts');
    assert.ok(!closed.ok && /not open/.test(closed.message));
  });
});
