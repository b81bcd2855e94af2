// Checkpoints in the real extension host: a writer (the test writer, following the contract)
// changes, creates, deletes and renames files for a reply; "Restore files to before this reply"
// brings every byte back (CRLF, binary), also after the recorder is rebuilt from disk (a window
// reload), to a point in time across replies, and refuses a damaged checkpoint without touching a file.
import * as assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  mkdtempSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { sha256 } from '../../src/core/checkpoints/checkpointStore';
import { WorkspaceFiles } from '../../src/core/workspaceFiles/workspaceFiles';
import type { PlanItem, RestorePlan } from '../../src/core/checkpoints/restorePlan';
import { CheckpointRefusedError, type ReplyRef } from '../../src/extension/checkpoints/checkpointRecorder';
import { CheckpointService, type PreparedRestore } from '../../src/extension/checkpoints/checkpointService';
import { restoreToBefore } from '../../src/extension/checkpoints/createCheckpoints';
import { showRestoreDiff } from '../../src/extension/checkpoints/restorePreview';
import { EditTools } from '../../src/extension/edits/editTools';
import { writeWithCheckpoint } from '../../src/extension/checkpoints/testWriter';
import { Log } from '../../src/extension/log';
import { WorkspaceFilesService } from '../../src/extension/workspaceFiles/workspaceFilesService';
import type { AssistantTurn, UserTurn } from '../../src/shared/chatModel';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import { readdir, readFile } from 'node:fs/promises';
import { readSettings } from '../../src/extension/config';
import { activateExtension, recordNotifications, setSettingAndWait, waitFor } from './extensionHost';

const CRLF_TEXT = 'first line\r\nsecond line\r\n\r\nno newline at the end';
const BINARY = Uint8Array.from({ length: 600 }, (_, i) => (i * 37 + (i >> 3)) % 256);

describe('checkpoints: restore files to before a reply (real extension host)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let folder: vscode.Uri;
  let dir: string;
  let run = 0;
  const uri = (name: string): vscode.Uri => vscode.Uri.joinPath(folder, name);
  const path = (name: string): string => join(dir, name);
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
  const reply = (turn: string): ReplyRef => ({ conversationId: `c-cptest-${run}`, turnId: turn });
  /** Restores through the extension's own restore, answering the preview; returns the plan it showed. */
  async function restore(
    ref: ReplyRef,
    service?: CheckpointService,
  ): Promise<{ outcome: string; plan?: RestorePlan; later?: number }> {
    let shown: PreparedRestore | undefined;
    let later: number | undefined;
    const confirm = async (prepared: PreparedRestore, laterReplies: number): Promise<boolean> => {
      shown = prepared;
      later = laterReplies;
      return true;
    };
    const outcome = service
      ? await restoreToBefore(service, ref, new Log('Checkpoint test'), confirm)
      : await api.checkpoints.restore(ref, confirm);
    return { outcome, ...(shown ? { plan: shown.plan } : {}), ...(later !== undefined ? { later } : {}) };
  }
  const action = (plan: RestorePlan | undefined, name: string): PlanItem | undefined =>
    plan?.items.find((item) => item.path.endsWith(`/${name}`));
  /** The model's edit tools (the real writer), their call reviewed and run for `ref`. */
  async function editToolCall(
    tools: EditTools,
    ref: ReplyRef,
    id: string,
    name: string,
    input: Record<string, unknown>,
  ): Promise<void> {
    const call = { id, name, input, arguments: JSON.stringify(input) };
    const review = await tools.review(call);
    assert.equal(review.refusal, undefined);
    const outcome = await tools.run(call, review, ref);
    assert.equal(outcome.isError, undefined, outcome.content);
  }
  /** The open diff tabs, each as its two sides' URIs. */
  const diffTabs = (): Array<{ original: vscode.Uri; modified: vscode.Uri }> =>
    vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .flatMap((tab) =>
        tab.input instanceof vscode.TabInputTextDiff
          ? [{ original: tab.input.original, modified: tab.input.modified }]
          : [],
      );

  before(async () => {
    api = await activateExtension();
    const first = vscode.workspace.workspaceFolders?.[0];
    assert.ok(first, 'the suite opens a folder');
    folder = vscode.Uri.joinPath(first.uri, 'checkpoint-files');
    dir = folder.fsPath;
  });

  beforeEach(() => {
    run++;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path('changed.txt'), CRLF_TEXT);
    writeFileSync(path('image.bin'), BINARY);
    writeFileSync(path('deleted.txt'), 'to be deleted\n');
    writeFileSync(path('renamed-from.txt'), 'moved around\n');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('undoes a change, a creation, a deletion and a rename byte for byte, and a second restore changes nothing', async () => {
    const ref = reply('a-1');
    await writeWithCheckpoint(api.checkpoints.service, ref, [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('rewritten\n') },
      { kind: 'write', uri: uri('image.bin'), bytes: Uint8Array.of(1, 2, 3) },
      { kind: 'write', uri: uri('created.txt'), bytes: bytes('new file\n') },
      { kind: 'delete', uri: uri('deleted.txt') },
      { kind: 'rename', from: uri('renamed-from.txt'), to: uri('renamed-to.txt') },
    ]);
    assert.equal(readFileSync(path('changed.txt'), 'utf8'), 'rewritten\n');
    assert.ok(
      existsSync(path('created.txt')) && !existsSync(path('deleted.txt')) && existsSync(path('renamed-to.txt')),
    );

    const { outcome, plan, later } = await restore(ref);
    assert.equal(outcome, 'restored');
    assert.equal(later, 0);
    assert.equal(action(plan, 'changed.txt')?.action, 'rewrite');
    assert.equal(action(plan, 'image.bin')?.action, 'rewrite');
    assert.equal(action(plan, 'created.txt')?.action, 'delete');
    assert.equal(action(plan, 'deleted.txt')?.action, 'recreate');
    assert.equal(action(plan, 'renamed-from.txt')?.action, 'moveBack');
    assert.equal(action(plan, 'renamed-from.txt')?.from?.path, 'checkpoint-files/renamed-to.txt');
    assert.ok(
      plan?.items.every((item) => !item.changedSince),
      'nothing changed after the reply',
    );

    assert.ok(
      readFileSync(path('changed.txt')).equals(Buffer.from(CRLF_TEXT)),
      'CRLF and the missing last newline kept',
    );
    assert.ok(readFileSync(path('image.bin')).equals(Buffer.from(BINARY)), 'binary bytes kept');
    assert.equal(existsSync(path('created.txt')), false);
    assert.equal(readFileSync(path('deleted.txt'), 'utf8'), 'to be deleted\n');
    assert.equal(readFileSync(path('renamed-from.txt'), 'utf8'), 'moved around\n');
    assert.equal(existsSync(path('renamed-to.txt')), false);

    const notes = recordNotifications();
    try {
      const again = await restore(ref);
      assert.equal(again.outcome, 'nothingToDo', 'the checkpoint stays; restoring twice is harmless');
      assert.match(notes.shown.at(-1)?.message ?? '', /already as they were/);
    } finally {
      notes.restore();
    }
  });

  it('removes the folders the reply created once the restore left them empty, innermost first, and no folder that existed before', async () => {
    mkdirSync(path('empty-before'));
    const ref = reply('a-1');
    const tools = new EditTools(new WorkspaceFilesService(), api.checkpoints.service);
    await editToolCall(tools, ref, `call-dirs-${run}`, 'create_file', {
      path: 'checkpoint-files/newdir/sub/file.ts',
      content: 'export const created = true;\n',
    });
    await writeWithCheckpoint(api.checkpoints.service, ref, [
      { kind: 'write', uri: uri('empty-before/deep/file.ts'), bytes: bytes('x') },
    ]);
    assert.ok(existsSync(path('newdir/sub/file.ts')) && existsSync(path('empty-before/deep/file.ts')));

    const { outcome } = await restore(ref);
    assert.equal(outcome, 'restored');
    assert.equal(existsSync(path('newdir')), false, 'newdir/sub and newdir, both made by the reply, are gone');
    assert.equal(existsSync(path('empty-before/deep')), false);
    assert.ok(lstatSync(path('empty-before')).isDirectory(), 'a folder that existed before the reply stays, empty');
  });

  it('keeps a folder the reply created when it holds a file the user added, and what is in it', async () => {
    const ref = reply('a-1');
    const tools = new EditTools(new WorkspaceFilesService(), api.checkpoints.service);
    await editToolCall(tools, ref, `call-user-file-${run}`, 'create_file', {
      path: 'checkpoint-files/newdir/sub/file.ts',
      content: 'export const created = true;\n',
    });
    writeFileSync(path('newdir/mine.txt'), 'the user wrote this');

    const { outcome } = await restore(ref);
    assert.equal(outcome, 'restored');
    assert.equal(existsSync(path('newdir/sub')), false, 'the empty folder of the reply is gone');
    assert.equal(readFileSync(path('newdir/mine.txt'), 'utf8'), 'the user wrote this', "the user's file stays");
  });

  it('never follows or removes a link the user put where the reply created a folder', async () => {
    const ref = reply('a-1');
    await writeWithCheckpoint(api.checkpoints.service, ref, [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('by the reply') },
      { kind: 'write', uri: uri('newdir/sub/file.ts'), bytes: bytes('x') },
    ]);
    // The user replaces the folder by a link to an empty folder of their own.
    rmSync(path('newdir/sub'), { recursive: true });
    mkdirSync(path('elsewhere'));
    symlinkSync(path('elsewhere'), path('newdir/sub'), 'dir');

    const { outcome } = await restore(ref);
    assert.equal(outcome, 'restored');
    assert.ok(lstatSync(path('newdir/sub')).isSymbolicLink(), 'the link stays');
    assert.ok(lstatSync(path('elsewhere')).isDirectory(), 'the folder it leads to stays');
    assert.ok(existsSync(path('newdir')), 'so does the folder holding the link');
  });

  it("closes the diff tabs of the restored files (the preview's and the edit tools' reviews), and no other", async () => {
    const ref = reply('a-1');
    const tools = new EditTools(new WorkspaceFilesService(), api.checkpoints.service);
    const callId = `call-diff-${run}`;
    await editToolCall(tools, ref, callId, 'replace_in_file', {
      path: 'checkpoint-files/changed.txt',
      edits: [{ search: 'second line', replace: 'SECOND LINE' }],
    });
    assert.ok(await tools.openDiff(callId), 'the "(proposed edit)" diff of the edit');
    await vscode.commands.executeCommand('workbench.action.keepEditor'); // not replaced by the next preview
    // A review of a file the restore does not touch (reviewed, never run).
    const otherId = `call-other-${run}`;
    const other = await tools.review({
      id: otherId,
      name: 'create_file',
      input: { path: 'checkpoint-files/not-restored.txt', content: 'x' },
      arguments: '',
    });
    assert.equal(other.refusal, undefined);
    assert.ok(await tools.openDiff(otherId));
    await vscode.commands.executeCommand('workbench.action.keepEditor');
    const reviewOf = (name: string) => (tab: { original: vscode.Uri; modified: vscode.Uri }) =>
      tab.modified.scheme === 'unified-inference-review' && tab.modified.query === uri(name).toString();
    const previewOf = (tab: { original: vscode.Uri; modified: vscode.Uri }) =>
      tab.modified.scheme === 'unified-inference-checkpoint';

    assert.ok(diffTabs().some(reviewOf('changed.txt')), 'open before the restore');
    // The preview's "now ↔ before the reply" diff, opened as its Show Diff does, before Restore is chosen.
    const outcome = await api.checkpoints.restore(ref, async (prepared) => {
      const item = action(prepared.plan, 'changed.txt');
      assert.ok(item);
      await showRestoreDiff(prepared, item);
      assert.ok(diffTabs().some(previewOf), 'the preview diff is open');
      return true;
    });
    assert.equal(outcome, 'restored');
    await waitFor(
      () => diffTabs(),
      (tabs) => !tabs.some(reviewOf('changed.txt')) && !tabs.some(previewOf),
      'the stale diff tabs to close',
    );
    assert.ok(diffTabs().some(reviewOf('not-restored.txt')), "another file's review stays open");
    assert.ok(readFileSync(path('changed.txt')).equals(Buffer.from(CRLF_TEXT)));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('restores after the recorder is rebuilt from disk (a window reload)', async () => {
    const ref = reply('a-1');
    await writeWithCheckpoint(api.checkpoints.service, ref, [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('after the reply') },
      { kind: 'write', uri: uri('created.txt'), bytes: bytes('x') },
    ]);
    const reloaded = new CheckpointService(
      api.checkpoints.service.store.root,
      new WorkspaceFilesService(),
      new Log('Checkpoint test'),
      async () => undefined,
    );
    try {
      assert.deepEqual(await reloaded.turnsWithCheckpoints(ref.conversationId), ['a-1']);
      const { outcome } = await restore(ref, reloaded);
      assert.equal(outcome, 'restored');
      assert.ok(readFileSync(path('changed.txt')).equals(Buffer.from(CRLF_TEXT)));
      assert.equal(existsSync(path('created.txt')), false);
    } finally {
      reloaded.dispose();
    }
  });

  it('restoring to an earlier reply undoes the later ones too, and flags a file changed since', async () => {
    await writeWithCheckpoint(api.checkpoints.service, reply('a-1'), [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('v2') },
    ]);
    await writeWithCheckpoint(api.checkpoints.service, reply('a-2'), [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('v3') },
      { kind: 'write', uri: uri('later.txt'), bytes: bytes('later') },
    ]);
    writeFileSync(path('changed.txt'), 'the user edited it afterwards');
    const { outcome, plan, later } = await restore(reply('a-1'));
    assert.equal(outcome, 'restored');
    assert.equal(later, 1, 'the preview says one later reply is undone too');
    assert.equal(plan?.checkpoints, 2);
    assert.equal(action(plan, 'changed.txt')?.changedSince, true);
    assert.equal(action(plan, 'later.txt')?.action, 'delete');
    assert.ok(readFileSync(path('changed.txt')).equals(Buffer.from(CRLF_TEXT)), 'back to before the first reply');
    assert.equal(existsSync(path('later.txt')), false);
  });

  it('a damaged manifest fails clearly and touches nothing', async () => {
    const ref = reply('a-1');
    await writeWithCheckpoint(api.checkpoints.service, ref, [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('changed') },
      { kind: 'delete', uri: uri('deleted.txt') },
    ]);
    writeFileSync(
      join(api.checkpoints.service.store.root, 'conversations', ref.conversationId, ref.turnId, 'manifest.json'),
      '{"version":1,"files":[{"path":"../../outside"',
    );
    const notes = recordNotifications();
    let asked = false;
    try {
      const outcome = await api.checkpoints.restore(ref, async () => (asked = true));
      assert.equal(outcome, 'failed');
      assert.equal(asked, false, 'no preview of a damaged checkpoint');
      assert.match(
        notes.shown.find((n) => n.kind === 'error')?.message ?? '',
        /damaged \(manifest\.json: it is not valid JSON\)\. Nothing was changed\./,
      );
    } finally {
      notes.restore();
    }
    assert.equal(readFileSync(path('changed.txt'), 'utf8'), 'changed');
    assert.equal(existsSync(path('deleted.txt')), false);
  });

  it('a manifest path leading out of the workspace is skipped and named; the rest is restored', async () => {
    const ref = reply('a-1');
    await writeWithCheckpoint(api.checkpoints.service, ref, [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('changed') },
    ]);
    const manifestPath = join(
      api.checkpoints.service.store.root,
      'conversations',
      ref.conversationId,
      ref.turnId,
      'manifest.json',
    );
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: Array<Record<string, unknown>> };
    manifest.files.push({
      folder: 'no-such-folder',
      folderId: '0'.repeat(32),
      path: 'etc/passwd',
      before: { kind: 'absent' },
    });
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const { outcome, plan } = await restore(
      ref,
      new CheckpointService(
        api.checkpoints.service.store.root,
        new WorkspaceFilesService(),
        new Log('Checkpoint test'),
        async () => undefined,
      ),
    );
    assert.equal(outcome, 'restored');
    assert.deepEqual(
      plan?.skipped.map((s) => [s.path, s.reason]),
      [['etc/passwd', 'the workspace folder "no-such-folder" is not open']],
    );
    assert.ok(
      plan?.items.every((item) => typeof item.folderId === 'string'),
      'a file of the open folder is keyed by its identity',
    );
    assert.ok(readFileSync(path('changed.txt')).equals(Buffer.from(CRLF_TEXT)));
  });

  it('keeps what the user sees (unsaved editor text) and refuses what it could not undo', async () => {
    const document = await vscode.workspace.openTextDocument(uri('deleted.txt'));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(0, 0), 'UNSAVED ');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(document.isDirty);
    const ref = reply('a-1');
    await api.checkpoints.service.beforeChange(ref, [uri('deleted.txt')]);
    const loaded = await api.checkpoints.service.store.load(ref);
    assert.ok(loaded?.ok);
    const kept = loaded.manifest.files[0]?.before;
    assert.equal(kept?.kind === 'file' ? kept.hash : undefined, sha256(bytes('UNSAVED to be deleted\n')));
    await vscode.commands.executeCommand('workbench.action.files.revert', document.uri);

    writeFileSync(path('huge.bin'), Buffer.alloc(6 * 1024 * 1024, 1));
    await assert.rejects(
      api.checkpoints.service.beforeChange(ref, [uri('huge.bin')]),
      (error: unknown) =>
        error instanceof Error &&
        error.name === 'CheckpointRefusedError' &&
        (error as CheckpointRefusedError).reason === 'tooLarge' &&
        /checkpoints keep files up to 5\.0 MB/.test(error.message),
    );
    const outside = mkdtempSync(join(tmpdir(), 'ui-outside-'));
    try {
      await assert.rejects(
        api.checkpoints.service.beforeChange(ref, [vscode.Uri.file(join(outside, 'x.txt'))]),
        (error: unknown) => (error as CheckpointRefusedError).reason === 'outside',
      );
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    await assert.rejects(
      api.checkpoints.service.beforeChange(ref, [vscode.Uri.parse('untitled:Untitled-1')]),
      (error: unknown) => (error as CheckpointRefusedError).reason === 'notAFile',
    );
  });

  it('the chat tells the webview which replies have a checkpoint, when one is made and when the conversation reopens', async () => {
    await api.chat.newConversation(); // not one an earlier suite left open with replies of its own
    const posted: HostToChatMessage[] = [];
    api.chat.attach((message) => posted.push(message));
    const id = api.chat.current.id;
    const now = Date.now();
    // A reply of the open conversation (no gateway needed: the writer only needs its ids).
    const turn: AssistantTurn = {
      role: 'assistant',
      id: `a-chat-${run}`,
      model: 'm',
      content: 'changed a file',
      reasoning: '',
      toolSteps: [],
      status: 'done',
      wire: [],
      createdAt: now,
    };
    const userTurn: UserTurn = {
      role: 'user',
      id: `u-chat-${run}`,
      text: 'change it',
      attachments: [],
      createdAt: now,
    };
    api.chat.current.turns.push(userTurn, turn);
    await writeWithCheckpoint(api.checkpoints.service, { conversationId: id, turnId: turn.id }, [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('x') },
    ]);
    const told = await waitFor(
      () =>
        posted.filter((m): m is Extract<HostToChatMessage, { type: 'checkpoints' }> => m.type === 'checkpoints').at(-1),
      (m) => m?.turnIds.includes(turn.id) === true,
      'the checkpoints message',
    );
    assert.deepEqual(told?.turnIds, [turn.id]);
    posted.length = 0;
    await api.chat.handle({ type: 'ready' });
    assert.deepEqual(
      posted.find((m) => m.type === 'checkpoints'),
      { type: 'checkpoints', turnIds: [turn.id], restored: [] },
      'a reloaded webview is told again',
    );
    await api.chat.newConversation();
  });

  it('files changed while the preview is open are never overwritten: the preview shows again, naming them, until it is confirmed as it stands', async () => {
    const ref = reply('a-1');
    await writeWithCheckpoint(api.checkpoints.service, ref, [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('by the reply') },
      { kind: 'write', uri: uri('created.txt'), bytes: bytes('new') },
    ]);
    const shown: PreparedRestore[] = [];
    const cancelled = await api.checkpoints.restore(ref, async (prepared) => {
      shown.push(prepared);
      if (shown.length === 1) writeFileSync(path('changed.txt'), 'typed on disk while the preview was open');
      return shown.length === 1; // confirms the first preview, closes the second
    });
    assert.equal(cancelled, 'cancelled');
    assert.equal(shown.length, 2, 'the preview showed again instead of writing');
    assert.equal(shown[0]?.drift, undefined);
    assert.deepEqual(
      shown[1]?.drift?.files.map((note) => [note.path, note.kind]),
      [['checkpoint-files/changed.txt', 'edited']],
    );
    assert.equal(action(shown[1]?.plan, 'changed.txt')?.changedSince, true, 'now flagged: the edit would be lost');
    assert.equal(
      readFileSync(path('changed.txt'), 'utf8'),
      'typed on disk while the preview was open',
      'the edit was not overwritten',
    );
    assert.equal(existsSync(path('created.txt')), true, 'nothing at all was written');

    // Unsaved text typed in an editor while the preview is open counts too; confirming the preview as it stands restores.
    const document = await vscode.workspace.openTextDocument(uri('created.txt'));
    const again: PreparedRestore[] = [];
    const restored = await api.checkpoints.restore(ref, async (prepared) => {
      again.push(prepared);
      if (again.length === 1) {
        const edit = new vscode.WorkspaceEdit();
        edit.insert(document.uri, new vscode.Position(0, 0), 'UNSAVED ');
        assert.ok(await vscode.workspace.applyEdit(edit));
      }
      return true;
    });
    assert.equal(restored, 'restored');
    assert.equal(again.length, 2);
    assert.deepEqual(
      again[1]?.drift?.files.map((note) => [note.path, note.kind]),
      [['checkpoint-files/created.txt', 'edited']],
    );
    assert.ok(readFileSync(path('changed.txt')).equals(Buffer.from(CRLF_TEXT)));
    assert.equal(existsSync(path('created.txt')), false);
  });

  it('flags a file the user edited between two undone replies, though the last reply left it as it is now', async () => {
    await writeWithCheckpoint(api.checkpoints.service, reply('a-1'), [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('v2') },
    ]);
    writeFileSync(path('changed.txt'), 'the user edited it between the replies');
    await writeWithCheckpoint(api.checkpoints.service, reply('a-2'), [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('v3') },
    ]);
    const { outcome, plan } = await restore(reply('a-1'));
    assert.equal(outcome, 'restored');
    assert.equal(action(plan, 'changed.txt')?.changedSince, true);
    const second = reply('a-3');
    await writeWithCheckpoint(api.checkpoints.service, second, [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('v4') },
    ]);
    assert.equal(
      action((await restore(second)).plan, 'changed.txt')?.changedSince,
      false,
      "a reply's own change is not flagged",
    );
  });

  it('one restore at a time in the window, from any chat, and none while a reply of any chat is writing', async () => {
    const ref = reply('a-1');
    await writeWithCheckpoint(api.checkpoints.service, ref, [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('changed') },
    ]);
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    let answer!: (value: boolean) => void;
    const first = api.checkpoints.restore(ref, () => {
      opened();
      return new Promise<boolean>((resolve) => (answer = resolve));
    });
    await isOpen;
    const notes = recordNotifications();
    let asked = false;
    try {
      assert.equal(await api.checkpoints.restore(ref, async () => (asked = true)), 'busy');
      // A chat's Restore button (the sidebar's or a panel's) goes through the same claim.
      await api.chat.handle({ type: 'restoreCheckpoint', turnId: 'a-1' });
      assert.equal(asked, false, 'no second preview');
      assert.deepEqual(
        notes.shown.map((n) => /^Another restore of files is under way/.test(n.message)),
        [true, true],
        JSON.stringify(notes.shown),
      );
    } finally {
      notes.restore();
    }
    answer(true);
    assert.equal(await first, 'restored');
    assert.ok(readFileSync(path('changed.txt')).equals(Buffer.from(CRLF_TEXT)));

    await writeWithCheckpoint(api.checkpoints.service, reply('a-2'), [
      { kind: 'write', uri: uri('changed.txt'), bytes: bytes('again') },
    ]);
    let finish!: () => void;
    const writing = new Promise<void>((resolve) => (finish = resolve));
    api.checkpoints.trackReply(writing); // a reply running in another chat panel
    const busy = recordNotifications();
    try {
      assert.equal(await api.checkpoints.restore(reply('a-2'), async () => true), 'busy');
      assert.match(busy.shown[0]?.message ?? '', /Wait for the reply to finish/);
    } finally {
      busy.restore();
    }
    finish();
    await writing;
    assert.equal((await restore(reply('a-2'))).outcome, 'restored', 'free again once the reply ended');
  });

  it('two workspace folders with the same name: each file goes back into its own folder', async () => {
    for (const parent of ['one', 'two']) mkdirSync(path(`${parent}/app`), { recursive: true });
    writeFileSync(path('one/app/a.txt'), 'one before');
    writeFileSync(path('two/app/a.txt'), 'two before');
    // The window opens one folder: this view of the files opens two, named alike (as two `app` folders from different parents would be).
    class TwoApps extends WorkspaceFilesService {
      override open(): Promise<WorkspaceFiles> {
        return WorkspaceFiles.open({
          folders: ['one', 'two'].map((parent) => ({
            name: 'app',
            path: path(`${parent}/app`),
            excludes: { 'files.exclude': [], 'search.exclude': [] },
          })),
        });
      }
    }
    const twoApps = new TwoApps();
    const service = new CheckpointService(
      join(dir, '.store'),
      twoApps,
      new Log('Checkpoint test'),
      async () => undefined,
    );
    try {
      const ref = reply('a-1');
      await writeWithCheckpoint(service, ref, [
        { kind: 'write', uri: uri('one/app/a.txt'), bytes: bytes('one by the reply') },
        { kind: 'write', uri: uri('two/app/a.txt'), bytes: bytes('two by the reply') },
      ]);
      const { outcome, plan } = await restore(ref, service);
      assert.equal(outcome, 'restored');
      assert.equal(plan?.items.length, 2, 'two files, not one');
      assert.equal(readFileSync(path('one/app/a.txt'), 'utf8'), 'one before');
      assert.equal(readFileSync(path('two/app/a.txt'), 'utf8'), 'two before');
    } finally {
      service.dispose();
      twoApps.dispose();
    }
  });

  it('a workspace cannot set unifiedInference.checkpoints.maxStorageMB (its .vscode/settings.json is ignored for it)', async () => {
    const settingsDir = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode');
    const settingsFile = join(settingsDir, 'settings.json');
    const before = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    const current = before?.trim() ? (JSON.parse(before) as Record<string, unknown>) : {};
    mkdirSync(settingsDir, { recursive: true });
    // A harmless setting in the same file: once VS Code shows it, it has read the file.
    writeFileSync(
      settingsFile,
      JSON.stringify({
        ...current,
        'unifiedInference.checkpoints.maxStorageMB': 10,
        'unifiedInference.credits.warningThreshold': 6.5,
      }),
    );
    try {
      await waitFor(
        () => vscode.workspace.getConfiguration('unifiedInference').get('credits.warningThreshold'),
        (value) => value === 6.5,
        'VS Code reading the workspace settings file',
      );
      assert.equal(readSettings().checkpoints.maxStorageMB, 500, "the user's budget (the default) stands");
      const service = api.checkpoints.service;
      for (const turn of ['a-1', 'a-2', 'a-3']) {
        // Content of its own (not the budget test's): kept content is shared by hash across checkpoints.
        writeFileSync(path('big.bin'), Buffer.alloc(4 * 1024 * 1024, `workspace budget ${turn}`));
        await service.beforeChange(reply(turn), [uri('big.bin')]);
      }
      const report = await service.prune();
      assert.deepEqual(
        report?.remove.filter((r) => r.reason === 'budget').map((r) => r.checkpoint.turnId),
        [],
        "nothing pruned for a workspace's budget",
      );
      assert.deepEqual((await service.turnsWithCheckpoints(reply('a-1').conversationId)).sort(), ['a-1', 'a-2', 'a-3']);
    } finally {
      writeFileSync(settingsFile, before ?? '{}');
      await waitFor(
        () => vscode.workspace.getConfiguration('unifiedInference').get('credits.warningThreshold'),
        (value) => value !== 6.5,
        'the workspace settings restored',
      );
    }
  });

  it('keeps the storage under unifiedInference.checkpoints.maxStorageMB, oldest first, and says so in the log', async () => {
    const service = api.checkpoints.service;
    const logText = async (): Promise<string> => {
      const files: string[] = [];
      const walk = async (at: string): Promise<void> => {
        for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
          if (entry.isDirectory()) await walk(join(at, entry.name));
          else files.push(join(at, entry.name));
        }
      };
      await walk(api.logUri.fsPath);
      return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
    };
    await setSettingAndWait('checkpoints.maxStorageMB', 10);
    try {
      await service.prune(); // learns the storage's size: later checkpoints are counted from it
      for (const turn of ['a-1', 'a-2', 'a-3']) {
        writeFileSync(path('big.bin'), Buffer.alloc(4 * 1024 * 1024, turn));
        await service.beforeChange(reply(turn), [uri('big.bin')]);
      }
      const left = await waitFor(
        () => service.turnsWithCheckpoints(reply('a-1').conversationId),
        (turns) => !turns.includes('a-1'),
        'the oldest checkpoint pruned',
      );
      assert.ok(left.includes('a-3'), 'the newest stays');
      await waitFor(
        logText,
        (text) =>
          /Checkpoints: removed \d+ of deleted conversations and \d+ over the 10 MB budget \(oldest first\)/.test(text),
        'the prune in the log',
      );
    } finally {
      await setSettingAndWait('checkpoints.maxStorageMB', undefined);
    }
  });
});
