// Checkpoints in the real extension host: a writer (the test writer, following the contract)
// changes, creates, deletes and renames files for a reply; "Restore files to before this reply"
// brings every byte back (CRLF, binary), also after the recorder is rebuilt from disk (a window
// reload), to a point in time across replies, and refuses a damaged checkpoint without touching a file.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { sha256, type PlanItem, type RestorePlan } from '../../src/core/index';
import { CheckpointRefusedError, type ReplyRef } from '../../src/extension/checkpoints/checkpointRecorder';
import { CheckpointService, type PreparedRestore } from '../../src/extension/checkpoints/checkpointService';
import { restoreToBefore } from '../../src/extension/checkpoints/createCheckpoints';
import { writeWithCheckpoint } from '../../src/extension/checkpoints/testWriter';
import { Log } from '../../src/extension/log';
import { WorkspaceFilesService } from '../../src/extension/workspaceFiles/workspaceFilesService';
import type { AssistantTurn, UserTurn } from '../../src/shared/chatModel';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import { readdir, readFile } from 'node:fs/promises';
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
  async function restore(ref: ReplyRef, service?: CheckpointService): Promise<{ outcome: string; plan?: RestorePlan; later?: number }> {
    let shown: PreparedRestore | undefined;
    let later: number | undefined;
    const confirm = async (prepared: PreparedRestore, laterReplies: number): Promise<boolean> => {
      shown = prepared;
      later = laterReplies;
      return true;
    };
    const outcome = service ? await restoreToBefore(service, ref, new Log('Checkpoint test'), confirm) : await api.checkpoints.restore(ref, confirm);
    return { outcome, ...(shown ? { plan: shown.plan } : {}), ...(later !== undefined ? { later } : {}) };
  }
  const action = (plan: RestorePlan | undefined, name: string): PlanItem | undefined => plan?.items.find((item) => item.path.endsWith(`/${name}`));

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
    assert.ok(existsSync(path('created.txt')) && !existsSync(path('deleted.txt')) && existsSync(path('renamed-to.txt')));

    const { outcome, plan, later } = await restore(ref);
    assert.equal(outcome, 'restored');
    assert.equal(later, 0);
    assert.equal(action(plan, 'changed.txt')?.action, 'rewrite');
    assert.equal(action(plan, 'image.bin')?.action, 'rewrite');
    assert.equal(action(plan, 'created.txt')?.action, 'delete');
    assert.equal(action(plan, 'deleted.txt')?.action, 'recreate');
    assert.equal(action(plan, 'renamed-from.txt')?.action, 'moveBack');
    assert.equal(action(plan, 'renamed-from.txt')?.from?.path, 'checkpoint-files/renamed-to.txt');
    assert.ok(plan?.items.every((item) => !item.changedSince), 'nothing changed after the reply');

    assert.ok(readFileSync(path('changed.txt')).equals(Buffer.from(CRLF_TEXT)), 'CRLF and the missing last newline kept');
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

  it('restores after the recorder is rebuilt from disk (a window reload)', async () => {
    const ref = reply('a-1');
    await writeWithCheckpoint(api.checkpoints.service, ref, [{ kind: 'write', uri: uri('changed.txt'), bytes: bytes('after the reply') }, { kind: 'write', uri: uri('created.txt'), bytes: bytes('x') }]);
    const reloaded = new CheckpointService(api.checkpoints.service.store.root, new WorkspaceFilesService(), new Log('Checkpoint test'), async () => undefined);
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
    await writeWithCheckpoint(api.checkpoints.service, reply('a-1'), [{ kind: 'write', uri: uri('changed.txt'), bytes: bytes('v2') }]);
    await writeWithCheckpoint(api.checkpoints.service, reply('a-2'), [{ kind: 'write', uri: uri('changed.txt'), bytes: bytes('v3') }, { kind: 'write', uri: uri('later.txt'), bytes: bytes('later') }]);
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
    await writeWithCheckpoint(api.checkpoints.service, ref, [{ kind: 'write', uri: uri('changed.txt'), bytes: bytes('changed') }, { kind: 'delete', uri: uri('deleted.txt') }]);
    writeFileSync(join(api.checkpoints.service.store.root, 'conversations', ref.conversationId, ref.turnId, 'manifest.json'), '{"version":1,"files":[{"path":"../../outside"');
    const notes = recordNotifications();
    let asked = false;
    try {
      const outcome = await api.checkpoints.restore(ref, async () => (asked = true));
      assert.equal(outcome, 'failed');
      assert.equal(asked, false, 'no preview of a damaged checkpoint');
      assert.match(notes.shown.find((n) => n.kind === 'error')?.message ?? '', /damaged \(manifest\.json: it is not valid JSON\)\. Nothing was changed\./);
    } finally {
      notes.restore();
    }
    assert.equal(readFileSync(path('changed.txt'), 'utf8'), 'changed');
    assert.equal(existsSync(path('deleted.txt')), false);
  });

  it('a manifest path leading out of the workspace is skipped and named; the rest is restored', async () => {
    const ref = reply('a-1');
    await writeWithCheckpoint(api.checkpoints.service, ref, [{ kind: 'write', uri: uri('changed.txt'), bytes: bytes('changed') }]);
    const manifestPath = join(api.checkpoints.service.store.root, 'conversations', ref.conversationId, ref.turnId, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: Array<Record<string, unknown>> };
    manifest.files.push({ folder: 'no-such-folder', path: 'etc/passwd', before: { kind: 'absent' } });
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const { outcome, plan } = await restore(ref, new CheckpointService(api.checkpoints.service.store.root, new WorkspaceFilesService(), new Log('Checkpoint test'), async () => undefined));
    assert.equal(outcome, 'restored');
    assert.deepEqual(plan?.skipped.map((s) => [s.path, s.reason]), [['etc/passwd', 'the workspace folder "no-such-folder" is not open']]);
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
    await assert.rejects(api.checkpoints.service.beforeChange(ref, [uri('huge.bin')]), (error: unknown) => error instanceof Error && error.name === 'CheckpointRefusedError' && (error as CheckpointRefusedError).reason === 'tooLarge' && /checkpoints keep files up to 5\.0 MB/.test(error.message));
    const outside = mkdtempSync(join(tmpdir(), 'ui-outside-'));
    try {
      await assert.rejects(api.checkpoints.service.beforeChange(ref, [vscode.Uri.file(join(outside, 'x.txt'))]), (error: unknown) => (error as CheckpointRefusedError).reason === 'outside');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    await assert.rejects(api.checkpoints.service.beforeChange(ref, [vscode.Uri.parse('untitled:Untitled-1')]), (error: unknown) => (error as CheckpointRefusedError).reason === 'notAFile');
  });

  it('the chat tells the webview which replies have a checkpoint, when one is made and when the conversation reopens', async () => {
    const posted: HostToChatMessage[] = [];
    api.chat.attach((message) => posted.push(message));
    const id = api.chat.current.id;
    const now = Date.now();
    // A reply of the open conversation (no gateway needed: the writer only needs its ids).
    const turn: AssistantTurn = { role: 'assistant', id: `a-chat-${run}`, model: 'm', content: 'changed a file', reasoning: '', toolSteps: [], status: 'done', wire: [], createdAt: now };
    const userTurn: UserTurn = { role: 'user', id: `u-chat-${run}`, text: 'change it', attachments: [], createdAt: now };
    api.chat.current.turns.push(userTurn, turn);
    await writeWithCheckpoint(api.checkpoints.service, { conversationId: id, turnId: turn.id }, [{ kind: 'write', uri: uri('changed.txt'), bytes: bytes('x') }]);
    const told = await waitFor(() => posted.filter((m): m is Extract<HostToChatMessage, { type: 'checkpoints' }> => m.type === 'checkpoints').at(-1), (m) => m?.turnIds.includes(turn.id) === true, 'the checkpoints message');
    assert.deepEqual(told?.turnIds, [turn.id]);
    posted.length = 0;
    await api.chat.handle({ type: 'ready' });
    assert.deepEqual(posted.find((m) => m.type === 'checkpoints'), { type: 'checkpoints', turnIds: [turn.id] }, 'a reloaded webview is told again');
    await api.chat.newConversation();
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
      const left = await waitFor(() => service.turnsWithCheckpoints(reply('a-1').conversationId), (turns) => !turns.includes('a-1'), 'the oldest checkpoint pruned');
      assert.ok(left.includes('a-3'), 'the newest stays');
      await waitFor(logText, (text) => /Checkpoints: removed \d+ of deleted conversations and \d+ over the 10 MB budget \(oldest first\)/.test(text), 'the prune in the log');
    } finally {
      await setSettingAndWait('checkpoints.maxStorageMB', undefined);
    }
  });
});
