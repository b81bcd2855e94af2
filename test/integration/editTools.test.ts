// The chat's edit tools in the real extension host against the local gateway, whose `tool-args`
// mode lets the test script the model's call exactly ("<tool> <JSON>"). Each tool asks first and
// shows its diff; after Allow the file on disk and its open document are right, and undo reverts
// it; Deny writes nothing; a search that does not match goes back to the model as a tool error
// without a question; a sensitive path asks even with autoApproveEdits on; a path leading out of
// the workspace is refused; a file changed between the review and the Allow is not written.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EditTools } from '../../src/extension/edits/editTools';
import { WorkspaceFilesService } from '../../src/extension/workspaceFiles/workspaceFilesService';
import type { CheckpointRecorder, ReplyRef } from '../../src/extension/checkpoints/checkpointRecorder';
import type { AssistantTurn, ToolStep } from '../../src/shared/chatModel';
import type { ApprovalDecision, HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  connectedGateway,
  recordNotifications,
  setSetting,
  waitFor,
} from './extensionHost';
import { callScriptedTool, lastToolResult as lastToolResultOf } from './chatDriver';

type FunctionStep = Extract<ToolStep, { kind: 'function' }>;
const MODEL = 'sim-openai/gpt-sim-mini::tool-args';
const SOURCE = 'export function area(width: number, height: number): number {\n  return width * height;\n}\n';

describe('edit tools: create, replace, delete and rename files, each reviewed as a diff', function () {
  this.timeout(120_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let root: string;
  let dir: string;
  let outside: string;
  let posted: HostToChatMessage[];
  let notes: ReturnType<typeof recordNotifications>;

  const abs = (path: string): string => join(root, path);
  const lastReply = (): AssistantTurn => api.chat.current.turns.at(-1) as AssistantTurn;

  /** Sends the scripted call; answers the approval with `decision` when asked (or waits on `whileAsked` first). */
  async function callEdit(
    tool: string,
    args: Record<string, unknown>,
    decision: ApprovalDecision = 'once',
    whileAsked?: (asked: FunctionStep) => Promise<void>,
  ): Promise<{ step: FunctionStep; asked: FunctionStep | undefined }> {
    const called = await callScriptedTool(api, posted, { tool, args, decision, ...(whileAsked ? { whileAsked } : {}) });
    assert.equal(lastReply().status, 'done', 'the reply went on after the tool');
    return called;
  }

  /** The tool result the model got back in the request after the call. */
  const lastToolResult = (): string => lastToolResultOf(gateway);

  async function openEditor(path: string): Promise<vscode.TextEditor> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(abs(path)));
    return vscode.window.showTextDocument(document, { preview: false });
  }

  /** Undo in the editor of `path` (focused first), as a person would press Ctrl+Z there. */
  async function undoIn(path: string): Promise<void> {
    await openEditor(path);
    await vscode.commands.executeCommand('undo');
  }

  before(async () => {
    api = await activateExtension();
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('the suite opens a folder');
    dir = 'edits';
    mkdirSync(abs(dir), { recursive: true });
    gateway = await connectedGateway(api);
    await setSetting('defaultModels.chat', MODEL);
    await waitFor(
      () => vscode.workspace.getConfiguration('unifiedInference').get<string>('defaultModels.chat'),
      (seen) => seen === MODEL,
      'the model setting',
    );
    outside = mkdtempSync(join(tmpdir(), 'edit-outside-'));
    symlinkSync(outside, abs('edits/escape'));
    posted = [];
    notes = recordNotifications();
  });

  beforeEach(async () => {
    api.chat.attach((message) => posted.push(message));
    await api.chat.handle({ type: 'newConversation' });
  });

  after(async () => {
    notes?.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(abs(dir), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
    await setSetting('chat.autoApproveEdits', undefined);
    await setSetting('defaultModels.chat', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('create_file asks with the new file as a diff, writes it on Allow, and undo takes it back', async () => {
    const path = 'edits/new/area.ts';
    const { step, asked } = await callEdit('create_file', { path, content: SOURCE });
    assert.ok(asked, 'it asked');
    assert.deepEqual(asked.change?.files, [{ action: 'create', path }]);
    assert.match(
      asked.change?.diff ?? '',
      /^new file\n--- \/dev\/null\n\+\+\+ b\/edits\/new\/area\.ts\n@@ -0,0 \+1,3 @@\n\+export function area/,
    );
    assert.equal(step.status, 'done', step.result);
    assert.equal(readFileSync(abs(path), 'utf8'), SOURCE, 'on disk, with its new folder');
    assert.equal((await vscode.workspace.openTextDocument(vscode.Uri.file(abs(path)))).getText(), SOURCE);
    assert.match(lastToolResult(), /Created edits\/new\/area\.ts \(3 lines\)/);
    await undoIn(path);
    await waitFor(
      () => existsSync(abs(path)),
      (there) => !there,
      'undo to remove the created file',
    );
  });

  it('replace_in_file with search/replace: diff first, then the disk and the open editor change; undo reverts', async () => {
    const path = 'edits/replace.ts';
    writeFileSync(abs(path), SOURCE);
    const editor = await openEditor(path);
    const { step, asked } = await callEdit('replace_in_file', {
      path,
      edits: [{ search: '  return width * height;', replace: '  return Math.abs(width * height);' }],
    });
    assert.ok(asked);
    assert.match(asked.change?.diff ?? '', /-  return width \* height;\n\+  return Math\.abs\(width \* height\);/);
    assert.deepEqual([asked.change?.added, asked.change?.removed], [1, 1]);
    assert.equal(step.status, 'done', step.result);
    const expected = SOURCE.replace('width * height;', 'Math.abs(width * height);');
    assert.equal(readFileSync(abs(path), 'utf8'), expected, 'saved to disk');
    assert.equal(editor.document.getText(), expected, 'the open editor shows it');
    // The saved state reaches the extension host as its own event, which can come after the tool's result.
    await waitFor(
      () => editor.document.isDirty,
      (dirty) => !dirty,
      'the editor to show the file saved',
    );
    // The reply's checkpoint kept the file before the write: the turn offers Restore.
    const replyId = lastReply().id;
    await waitFor(
      () => posted.some((m) => m.type === 'checkpoints' && m.turnIds.includes(replyId)),
      (seen) => seen,
      "the reply's checkpoint",
    );
    await undoIn(path);
    assert.equal(editor.document.getText(), SOURCE, 'undo in the editor reverts the edit');
  });

  it("replace_in_file with a unified diff, keeping the file's CRLF line endings", async () => {
    const path = 'edits/diffed.ts';
    const crlf = SOURCE.replace(/\n/g, '\r\n');
    writeFileSync(abs(path), crlf);
    const editor = await openEditor(path);
    const diff =
      '@@ -1,3 +1,4 @@\n export function area(width: number, height: number): number {\n+  // width and height in metres\n   return width * height;\n }\n';
    const { step, asked } = await callEdit('replace_in_file', { path, diff });
    assert.ok(asked);
    assert.match(asked.change?.diff ?? '', /\+ {2}\/\/ width and height in metres/);
    assert.ok(!(asked.change?.diff ?? '').includes('\r'), 'the review shows no carriage returns');
    assert.equal(step.status, 'done', step.result);
    const expected = crlf.replace('number {\r\n', 'number {\r\n  // width and height in metres\r\n');
    assert.equal(readFileSync(abs(path), 'utf8'), expected);
    assert.equal(editor.document.getText(), expected);
    await undoIn(path);
    assert.equal(editor.document.getText(), crlf);
  });

  it('delete_file shows what goes, and deletes on Allow; its editor closes', async () => {
    const path = 'edits/delete-me.txt';
    writeFileSync(abs(path), 'old notes\n');
    await openEditor(path);
    const { step, asked } = await callEdit('delete_file', { path });
    assert.ok(asked);
    assert.match(
      asked.change?.diff ?? '',
      /^deleted file\n--- a\/edits\/delete-me\.txt\n\+\+\+ \/dev\/null\n@@ -1,1 \+0,0 @@\n-old notes$/,
    );
    assert.equal(step.status, 'done', step.result);
    assert.ok(!existsSync(abs(path)));
    assert.match(lastToolResult(), /Deleted edits\/delete-me\.txt\./);
    // VS Code closes the editor of a file a WorkspaceEdit deleted, so its undo is not reachable
    // from an editor (as after a refactoring's delete): the reply's checkpoint is the way back.
    await waitFor(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.label === 'delete-me.txt'),
      (open) => !open,
      'the editor to close',
    );
  });

  it('rename_file moves the file, its open editor follows, and undo moves it back', async () => {
    const [from, to] = ['edits/before.ts', 'edits/moved/after.ts'];
    writeFileSync(abs(from), SOURCE);
    await openEditor(from);
    const { step, asked } = await callEdit('rename_file', { path: from, newPath: to });
    assert.ok(asked);
    assert.equal(asked.change?.diff, `rename from ${from}\nrename to ${to}`);
    assert.equal(step.status, 'done', step.result);
    assert.ok(!existsSync(abs(from)) && readFileSync(abs(to), 'utf8') === SOURCE);
    await waitFor(
      () => vscode.window.activeTextEditor?.document.uri.fsPath,
      (path) => path === abs(to),
      'the editor to follow the rename',
    );
    await vscode.commands.executeCommand('undo');
    await waitFor(
      () => existsSync(abs(from)),
      (there) => there,
      'undo to move it back',
    );
    assert.ok(!existsSync(abs(to)));
  });

  it('Deny writes nothing and tells the model', async () => {
    const path = 'edits/denied.ts';
    writeFileSync(abs(path), SOURCE);
    const created = await callEdit('create_file', { path: 'edits/denied-new.ts', content: 'x\n' }, 'deny');
    assert.equal(created.step.status, 'denied');
    assert.ok(!existsSync(abs('edits/denied-new.ts')));
    const replaced = await callEdit(
      'replace_in_file',
      { path, edits: [{ search: 'width * height', replace: '0' }] },
      'deny',
    );
    assert.equal(replaced.step.status, 'denied');
    assert.equal(readFileSync(abs(path), 'utf8'), SOURCE);
    assert.match(lastToolResult(), /did not allow this tool call/);
  });

  it('a search that does not match is a tool error the model reads, without a question, and nothing is written', async () => {
    const path = 'edits/nomatch.ts';
    writeFileSync(abs(path), SOURCE);
    const { step, asked } = await callEdit('replace_in_file', {
      path,
      edits: [{ search: '  return width*height;', replace: '  return 0;' }],
    });
    assert.equal(asked, undefined, 'nobody was asked');
    assert.equal(step.status, 'failed');
    const result = lastToolResult();
    assert.match(result, /edits\/nomatch\.ts: The search text was not found/);
    assert.match(result, /2\| {3}return width \* height;/, 'the closest line is quoted');
    assert.equal(readFileSync(abs(path), 'utf8'), SOURCE);
    const twice = await callEdit('replace_in_file', { path, edits: [{ search: 'number', replace: 'bigint' }] });
    assert.equal(twice.step.status, 'failed');
    assert.match(lastToolResult(), /matches 3 places/);
    const hunk = await callEdit('replace_in_file', {
      path,
      diff: '@@ -2,1 +2,1 @@\n-  return width + height;\n+  return 0;\n',
    });
    assert.equal(hunk.step.status, 'failed');
    assert.match(lastToolResult(), /removed lines of the hunk .* was not found/);
    assert.equal(readFileSync(abs(path), 'utf8'), SOURCE);
  });

  it('refuses paths outside the workspace, through a link too, and writes nothing there', async () => {
    for (const path of ['../outside-edit.txt', 'edits/escape/inside-link.txt', join(outside, 'absolute.txt')]) {
      const { step, asked } = await callEdit('create_file', { path, content: 'x\n' });
      assert.equal(asked, undefined, path);
      assert.equal(step.status, 'failed', path);
      assert.match(lastToolResult(), /outside the workspace folders/, path);
      if (path.includes('escape')) assert.ok(!lastToolResult().includes(outside), 'where the link leads is not told');
    }
    assert.ok(
      !existsSync(join(root, '..', 'outside-edit.txt')) &&
        !existsSync(join(outside, 'inside-link.txt')) &&
        !existsSync(join(outside, 'absolute.txt')),
    );
  });

  it('autoApproveEdits (user settings only) runs plain edits without asking, but a sensitive path asks every time', async () => {
    // A workspace cannot turn it on for itself (and readSettings reads the user's value only).
    await assert.rejects(
      Promise.resolve(
        vscode.workspace
          .getConfiguration('unifiedInference')
          .update('chat.autoApproveEdits', true, vscode.ConfigurationTarget.Workspace),
      ),
      /can be written only into User settings/,
    );
    const off = await callEdit('create_file', { path: 'edits/auto-ws.ts', content: 'x\n' }, 'deny');
    assert.ok(off.asked, 'off by default: it asks');

    await setSetting('chat.autoApproveEdits', true);
    await waitFor(
      () => vscode.workspace.getConfiguration('unifiedInference').inspect('chat.autoApproveEdits')?.globalValue,
      (on) => on === true,
      'the setting',
    );
    const plain = await callEdit('create_file', { path: 'edits/auto.ts', content: 'x\n' });
    assert.equal(plain.asked, undefined, 'no question');
    assert.equal(plain.step.status, 'done');
    assert.deepEqual(
      plain.step.change?.files,
      [{ action: 'create', path: 'edits/auto.ts' }],
      'the change is still shown in the reply',
    );
    assert.equal(readFileSync(abs('edits/auto.ts'), 'utf8'), 'x\n');

    const secret = await callEdit('create_file', { path: 'edits/.env.local', content: 'TOKEN=1\n' }, 'always');
    assert.ok(secret.asked, 'a sensitive file asks');
    assert.deepEqual(secret.asked.sensitive, ['edits/.env.local']);
    assert.equal(secret.step.status, 'done', '"always" allowed this one call');
    const again = await callEdit(
      'replace_in_file',
      { path: 'edits/.env.local', edits: [{ search: 'TOKEN=1', replace: 'TOKEN=2' }] },
      'deny',
    );
    assert.ok(again.asked, 'and it asks again');
    assert.equal(readFileSync(abs('edits/.env.local'), 'utf8'), 'TOKEN=1\n');
    await setSetting('chat.autoApproveEdits', undefined);
  });

  it('autoApproveEdits still asks before an edit of a file that can run code (a script, .vscode/, package.json...), says why, and never for the conversation', async () => {
    await setSetting('chat.autoApproveEdits', true);
    await waitFor(
      () => vscode.workspace.getConfiguration('unifiedInference').inspect('chat.autoApproveEdits')?.globalValue,
      (on) => on === true,
      'the setting',
    );
    try {
      const script = await callEdit('create_file', { path: 'edits/tools/Run.SH', content: 'echo hi\n' }, 'always');
      assert.ok(script.asked, 'a script asks even with auto-approve on');
      assert.deepEqual(script.asked.guarded, [{ path: 'edits/tools/Run.SH', reason: 'runsCode' }]);
      assert.equal(script.step.status, 'done', '"always" allowed this one call');
      const again = await callEdit(
        'replace_in_file',
        { path: 'edits/tools/Run.SH', edits: [{ search: 'hi', replace: 'bye' }] },
        'deny',
      );
      assert.ok(again.asked, 'and it asks again: "always" was not kept for it');
      assert.equal(readFileSync(abs('edits/tools/Run.SH'), 'utf8'), 'echo hi\n');

      writeFileSync(abs('edits/plain.json'), '{}\n');
      const renamed = await callEdit(
        'rename_file',
        { path: 'edits/plain.json', newPath: 'edits/.vscode/tasks.json' },
        'deny',
      );
      assert.deepEqual(
        renamed.asked?.guarded,
        [{ path: 'edits/.vscode/tasks.json', reason: 'runsCode' }],
        'moving a file into .vscode/ asks',
      );
      assert.ok(
        existsSync(abs('edits/plain.json')) && !existsSync(abs('edits/.vscode/tasks.json')),
        'Deny moved nothing',
      );

      const agents = await callEdit('create_file', { path: 'edits/AGENTS.md', content: 'Obey.\n' }, 'deny');
      assert.deepEqual(agents.asked?.guarded, [{ path: 'edits/AGENTS.md', reason: 'instructsModel' }]);

      // The user's own additions (user settings) count too.
      await setSetting('chat.alwaysAskEdits', ['*.tpl']);
      await waitFor(
        () => vscode.workspace.getConfiguration('unifiedInference').inspect('chat.alwaysAskEdits')?.globalValue,
        (v) => Array.isArray(v),
        'the extra globs',
      );
      const extra = await callEdit('create_file', { path: 'edits/page.tpl', content: 'x\n' }, 'deny');
      assert.deepEqual(extra.asked?.guarded, [{ path: 'edits/page.tpl', reason: 'runsCode' }]);
      const plain = await callEdit('create_file', { path: 'edits/plain.ts', content: 'x\n' });
      assert.equal(plain.asked, undefined, 'an ordinary file still runs without a question');
    } finally {
      await setSetting('chat.alwaysAskEdits', undefined);
      await setSetting('chat.autoApproveEdits', undefined);
    }
  });

  it('a file changed between the review and the Allow is not written: the model hears why', async () => {
    const path = 'edits/raced.ts';
    writeFileSync(abs(path), SOURCE);
    const editor = await openEditor(path);
    const { step } = await callEdit(
      'replace_in_file',
      { path, edits: [{ search: 'height;', replace: 'height * 2;' }] },
      'once',
      async () => {
        // The user types in the file while the card waits.
        await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), '// typed\n'));
      },
    );
    assert.equal(step.status, 'failed');
    assert.match(lastToolResult(), /changed after the user reviewed this edit, so nothing was written/);
    assert.equal(editor.document.getText(), `// typed\n${SOURCE}`, "only the user's change is there");
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('keeps the checkpoint before the first write, with every path the call touches', async () => {
    const kept: Array<{ reply: ReplyRef; paths: string[]; existed: boolean[] }> = [];
    const recorder: CheckpointRecorder = {
      beforeChange: async (reply, uris) => {
        kept.push({ reply, paths: uris.map((uri) => uri.fsPath), existed: uris.map((uri) => existsSync(uri.fsPath)) });
      },
    };
    const tools = new EditTools(new WorkspaceFilesService(), recorder);
    const reply = { conversationId: 'c-test', turnId: 'a-test' };
    writeFileSync(abs('edits/cp-from.ts'), SOURCE);
    const call = {
      id: 'call-cp',
      name: 'rename_file',
      input: { path: 'edits/cp-from.ts', newPath: 'edits/cp-to.ts' },
      arguments: '',
    };
    const review = await tools.review(call);
    assert.equal(review.refusal, undefined);
    const outcome = await tools.run(call, review, reply);
    assert.equal(outcome.isError, undefined, outcome.content);
    assert.deepEqual(kept, [
      { reply, paths: [abs('edits/cp-from.ts'), abs('edits/cp-to.ts')], existed: [true, false] },
    ]);
    assert.ok(existsSync(abs('edits/cp-to.ts')));
  });

  it('a file changed while the checkpoint is taken is not written: the model is told to read it again', async () => {
    const path = 'edits/cp-raced.ts';
    writeFileSync(abs(path), SOURCE);
    const editor = await openEditor(path);
    // The user types in the file after Allow, while the checkpoint keeps its pre-image.
    const recorder: CheckpointRecorder = {
      beforeChange: async () =>
        void (await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), '// typed\n'))),
    };
    const tools = new EditTools(new WorkspaceFilesService(), recorder);
    const call = {
      id: 'call-cp-raced',
      name: 'replace_in_file',
      input: { path, edits: [{ search: '  return width * height;', replace: '  return Math.abs(width * height);' }] },
      arguments: '',
    };
    const review = await tools.review(call);
    assert.equal(review.refusal, undefined);
    const outcome = await tools.run(call, review, { conversationId: 'c-test', turnId: 'a-raced' });
    assert.equal(outcome.isError, true, outcome.content);
    assert.match(
      outcome.content,
      /^edits\/cp-raced\.ts changed after the user reviewed this edit, so nothing was written\. Read it again/,
    );
    assert.equal(editor.document.getText(), `// typed\n${SOURCE}`, "only the user's change is there");
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});

describe('edit tools: run_command (chat.terminalTool)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let root: string;
  let posted: HostToChatMessage[];

  const toolSteps = (): FunctionStep[] =>
    posted.flatMap((m) => (m.type === 'toolStep' && m.step.kind === 'function' ? [m.step] : []));
  const lastToolResult = (): string => lastToolResultOf(gateway);
  async function call(
    args: Record<string, unknown>,
    decision: ApprovalDecision,
  ): Promise<{ step: FunctionStep; asked: FunctionStep | undefined }> {
    posted.length = 0;
    const sending = api.chat.handle({ type: 'send', text: `run_command ${JSON.stringify(args)}` });
    const first = await waitFor(
      () => toolSteps()[0],
      (step) => step !== undefined,
      'the run_command call',
    );
    const asked = first?.status === 'awaitingApproval' ? first : undefined;
    if (asked) await api.chat.handle({ type: 'approveTool', callId: asked.id, decision });
    await sending;
    return { step: (api.chat.current.turns.at(-1) as AssistantTurn).toolSteps[0] as FunctionStep, asked };
  }

  before(async () => {
    api = await activateExtension();
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('the suite opens a folder');
    gateway = await connectedGateway(api);
    await setSetting('defaultModels.chat', MODEL);
    posted = [];
  });

  beforeEach(async () => {
    api.chat.attach((message) => posted.push(message));
    await api.chat.handle({ type: 'newConversation' });
  });

  after(async () => {
    await setSetting('chat.terminalTool', undefined);
    await setSetting('defaultModels.chat', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('is not offered while the setting is off', async () => {
    gateway.clearRequests();
    posted.length = 0;
    const sending = api.chat.handle({ type: 'send', text: 'read_file {"path": "README.md"}' });
    const first = await waitFor(
      () => toolSteps()[0],
      (step) => step !== undefined,
      'a call',
    );
    if (first?.status === 'awaitingApproval')
      await api.chat.handle({ type: 'approveTool', callId: first.id, decision: 'deny' });
    await sending;
    const tools =
      (
        gateway.requests.find((r) => r.path === '/api/v1/chat/completions')?.body as {
          tools?: Array<{ function: { name: string } }>;
        }
      ).tools ?? [];
    assert.ok(
      tools.some((t) => t.function.name === 'replace_in_file'),
      'the edit tools are offered',
    );
    assert.ok(!tools.some((t) => t.function.name === 'run_command'), 'the terminal tool is not');
  });

  it('always asks, showing the command and folder; runs it in the workspace with output and exit code; asks again after "always"; Deny runs nothing', async () => {
    await setSetting('chat.terminalTool', true);
    await waitFor(
      () => vscode.workspace.getConfiguration('unifiedInference').inspect('chat.terminalTool')?.globalValue,
      (on) => on === true,
      'the setting',
    );
    const line = 'echo "out $((6*7))"; echo err 1>&2; pwd; exit 3';
    const { step, asked } = await call({ command: line }, 'always');
    assert.deepEqual(asked?.command, { command: line, cwd: '.' });
    assert.equal(step.status, 'failed', 'a non-zero exit is an error result');
    const result = lastToolResult();
    assert.match(result, /out 42\n/);
    assert.match(result, /err\n/);
    assert.ok(
      result.includes(`\n${root}\n`) || result.includes(`\n${vscode.Uri.file(root).fsPath}\n`),
      `ran in the workspace folder: ${result}`,
    );
    assert.match(result, /\[exit code 3\]$/);

    const marker = join(root, 'ran-marker.txt');
    const denied = await call({ command: `touch ${JSON.stringify(marker)}` }, 'deny');
    assert.ok(denied.asked, '"always" did not stick: it asks again');
    assert.equal(denied.step.status, 'denied');
    assert.ok(!existsSync(marker), 'nothing ran');
  });
});
