import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { inlineChangeViews } from '../../src/core/inlineEdit/inlineDiffLines';
import type { InlineEditSession } from '../../src/extension/inlineEdit/inlineEditSession';
import { requestInlineEdit } from '../../src/extension/inlineEdit/inlineEditRequest';
import type { ReplyRef } from '../../src/extension/checkpoints/checkpointRecorder';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway, RequestRecord } from '../gateway/index';
import { scriptedReplyItem } from '../gateway/scriptedReply';
import {
  activateExtension,
  connectedGateway,
  recordNotifications,
  replace,
  setSetting,
  setSettingAndWait,
  waitFor,
  clearKeyThroughCommand,
} from './extensionHost';
import { MATH_SOURCE } from '../harness/mathSource';

// Inline edit in the real extension host against the local gateway: the model's answer is scripted
// (reply=...), the review is drawn in the file's own editor, and only Accept writes, one undo step
// each, after a checkpoint. The command takes the instruction as an argument (the input is a
// QuickPick a test in the extension host cannot type into; the UI test types into it).
describe('inline edit: the selection rewritten in its editor, reviewed in place', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  const MODEL = 'sim-openai/gpt-sim-mini';
  const root = (): string => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
  const dir = (): string => join(root(), 'inline-edit-tests');

  const FILE = MATH_SOURCE;
  const SUB_COMMENTED =
    'export function sub(a: number, b: number): number {\n  // Subtract b from a.\n  return a - b;\n}\n';

  function write(name: string, text: string): vscode.Uri {
    mkdirSync(dir(), { recursive: true });
    writeFileSync(join(dir(), name), text);
    return vscode.Uri.file(join(dir(), name));
  }

  const chatRequests = (): number =>
    gateway.requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/messages')).length;

  /** Opens `uri`, selects lines [start, end), and runs the command with the model answering `answer`. */
  async function edit(
    uri: vscode.Uri,
    start: number,
    end: number,
    answer: string,
    instruction = 'add a comment',
    spec = '',
  ): Promise<InlineEditSession> {
    await setSettingAndWait('inlineEdit.model', `${MODEL}::${scriptedReplyItem(answer)}${spec}`);
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    editor.selection = new vscode.Selection(start, 0, end, 0);
    // The command edits the active editor: on a busy machine the previous test's file could still
    // be it for a moment, and the edit then started there.
    await waitFor(
      () => vscode.window.activeTextEditor?.document.uri.toString(),
      (active) => active === uri.toString(),
      `${uri.path} to be the active editor`,
    );
    const session = await vscode.commands.executeCommand<InlineEditSession | undefined>(
      'unifiedInference.inlineEdit.start',
      { instruction },
    );
    assert.ok(session, 'an edit started');
    assert.equal(session.init.uri.toString(), uri.toString(), 'the edit is of this file');
    return session;
  }

  /**
   * This test's slow request, after `last`: matched by its fault too, since an earlier test's
   * request (a client retry after a 5xx) may reach the gateway after `last` on a busy machine.
   */
  function slowRequest(last: number): Promise<RequestRecord> {
    return gateway.waitForRequest(
      (r) => r.seq > last && r.path.endsWith('/chat/completions') && (r.fault ?? '').includes('delay-chunks=200'),
    );
  }

  async function reviewed(session: InlineEditSession): Promise<InlineEditSession> {
    await waitFor(
      () => session.state,
      (state) => state !== 'streaming',
      'the answer',
    );
    assert.equal(session.state, 'review', 'a review opened');
    return session;
  }

  async function lensTitles(uri: vscode.Uri): Promise<string[]> {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    return lenses.flatMap((lens) => (lens.command ? [lens.command.title] : []));
  }

  const textOf = (uri: vscode.Uri): string =>
    vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.getText() ?? '';

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
  });

  afterEach(async () => {
    // Every session, not only the active editor's: one left streaming or in review would leak into the next test.
    for (const session of api.inlineEdits.active) session.end('closed');
    await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('inlineEdit.model', undefined);
  });

  after(async () => {
    rmSync(dir(), { recursive: true, force: true });
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('draws the change in place from a fenced answer with prose, writes nothing before Accept (a save included), and Accept All is one undo step', async () => {
    const uri = write('draw.ts', FILE);
    const before = chatRequests();
    const answer = `Sure! Here is the function with a comment:\n\n\`\`\`ts\n${SUB_COMMENTED}\`\`\`\n\nThe comment explains what it returns.`;
    const session = await reviewed(await edit(uri, 4, 7, answer));
    assert.equal(chatRequests(), before + 1, 'one request');
    const request = gateway.requests.at(-1);
    const sent = JSON.stringify(request?.body);
    assert.match(sent, /draw\.ts \(typescript\)/, 'the path and language are sent');
    assert.match(sent, /Instruction: add a comment/);
    // The change is one added line after the signature: drawn as a ghost on line 4, nothing removed.
    const document = await vscode.workspace.openTextDocument(uri);
    const views = inlineChangeViews(session.hunksFor(document.getText()), document.lineCount);
    assert.deepEqual(
      views.map((v) => ({ removed: v.removed, ghosts: v.ghosts })),
      [{ removed: [], ghosts: [{ line: 4, text: '  // Subtract b from a.' }] }],
    );
    assert.doesNotMatch(session.review?.proposal ?? '', /Sure!|explains/, 'only the code is proposed');
    const titles = await lensTitles(uri);
    assert.ok(
      titles.some((t) => t.includes('Accept All')) &&
        titles.some((t) => t.includes('Reject All')) &&
        titles.some((t) => t.includes('Accept Change')),
      titles.join(' | '),
    );
    // Nothing in the buffer or on disk; the user's own typing and a save write only that.
    assert.equal(document.getText(), FILE);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// mine\n'));
    assert.ok(await document.save(), 'saved');
    assert.equal(readFileSync(uri.fsPath, 'utf8'), `// mine\n${FILE}`, 'the save holds the typing, not the proposal');
    const preAccept = document.getText();
    await vscode.commands.executeCommand('unifiedInference.inlineEdit.acceptAll', session.id);
    await waitFor(
      () => session.state,
      (s) => s === 'ended',
      'the review to end',
    );
    assert.equal(
      document.getText(),
      `// mine\n${FILE.replace('  return a - b;\n', '  // Subtract b from a.\n  return a - b;\n')}`,
      'accepted at the right place',
    );
    assert.equal(
      readFileSync(uri.fsPath, 'utf8'),
      `// mine\n${FILE}`,
      'Accept changes the document, the user saves it',
    );
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('undo');
    assert.equal(document.getText(), preAccept, 'one undo step takes the whole accept back');
  });

  it('accepting one change is one undo step; Reject All leaves the text exactly as it is', async () => {
    const uri = write('changes.ts', FILE);
    const answer = '```ts\n' + FILE.replace('a + b', 'b + a').replace('a * b', 'b * a') + '```\n';
    const session = await reviewed(await edit(uri, 0, 12, answer, 'swap the operands'));
    const review = session.review;
    assert.equal(review?.hunks.length, 2, 'two changes');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('unifiedInference.inlineEdit.acceptChange', session.id, review?.revision, 0);
    await waitFor(
      () => document.getText(),
      (t) => t.includes('b + a'),
      'the first change written',
    );
    assert.ok(document.getText().includes('a * b'), 'the second is not written');
    assert.equal(session.review?.hunks.length, 1, 'one change left');
    await vscode.commands.executeCommand('undo');
    assert.equal(document.getText(), FILE, 'one undo step per accepted change');
    // The undo is the user's edit: the review follows it and goes on with the other change.
    await waitFor(
      () => session.state,
      (s) => s === 'review',
      'the review going on',
    );
    assert.equal(session.review?.hunks.length, 1);
    // Alt+N: the change at the cursor (no lens arguments).
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(9, 2, 9, 2);
    await vscode.commands.executeCommand('unifiedInference.inlineEdit.rejectChange');
    await waitFor(
      () => session.state,
      (s) => s === 'ended',
      'the last change rejected',
    );
    assert.equal(document.getText(), FILE);
    // Reject All on a fresh review: exactly the text as it was.
    const again = await reviewed(await edit(uri, 0, 12, answer, 'swap the operands'));
    await vscode.commands.executeCommand('unifiedInference.inlineEdit.rejectAll', again.id);
    await waitFor(
      () => again.state,
      (s) => s === 'ended',
      'the review to end',
    );
    assert.equal(document.getText(), FILE, 'rejected: exactly the text as it was');
    assert.equal(readFileSync(uri.fsPath, 'utf8'), FILE);
  });

  it('keeps typing elsewhere during the review, records a checkpoint before the first write, and ends on typing inside the change', async () => {
    const uri = write('typing.ts', FILE);
    const answer = '```ts\nexport function mul(a: number, b: number): number {\n  return Math.imul(a, b);\n}\n```';
    const session = await reviewed(await edit(uri, 8, 11, answer, 'use imul'));
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// typed above\n'));
    await editor.edit((e) => e.insert(new vscode.Position(document.lineCount - 1, 0), '// typed below\n'));
    const recorded: { reply: ReplyRef; text: string }[] = [];
    const listener = api.checkpoints.onDidRecord((reply) => recorded.push({ reply, text: document.getText() }));
    try {
      const preAccept = document.getText();
      await vscode.commands.executeCommand('unifiedInference.inlineEdit.acceptAll', session.id);
      await waitFor(
        () => session.state,
        (s) => s === 'ended',
        'the review to end',
      );
      assert.equal(
        document.getText(),
        preAccept.replace('  return a * b;', '  return Math.imul(a, b);'),
        'the typing is kept and the change lands at its place',
      );
      assert.ok(recorded.length >= 1, 'a checkpoint was recorded');
      assert.equal(recorded[0]?.reply.conversationId, 'inline-edit');
      assert.equal(recorded[0]?.text, preAccept, 'the checkpoint came before the write');
    } finally {
      listener.dispose();
    }
    // Typing inside a proposed change ends the review without writing.
    const uri2 = write('inside.ts', FILE);
    const second = await reviewed(await edit(uri2, 8, 11, answer, 'use imul'));
    const document2 = await vscode.workspace.openTextDocument(uri2);
    const editor2 = await vscode.window.showTextDocument(document2);
    const notes = recordNotifications();
    try {
      await editor2.edit((e) => e.insert(new vscode.Position(9, 2), 'const x = 1; '));
      await waitFor(
        () => second.state,
        (s) => s === 'ended',
        'the review to end',
      );
      assert.ok(
        notes.shown.some((n) => n.kind === 'warning' && n.message.includes('was edited where the proposed change is')),
        JSON.stringify(notes.shown),
      );
    } finally {
      notes.restore();
    }
    assert.ok(!document2.getText().includes('imul'), 'nothing written');
  });

  it('a refinement sends the original selection, the previous proposal and the new instruction', async () => {
    const uri = write('refine.ts', FILE);
    const first = await reviewed(await edit(uri, 4, 7, '```ts\n' + SUB_COMMENTED + '```'));
    const refined =
      'export function sub(a: number, b: number): number {\n  // Returns a minus b.\n  return a - b;\n}\n';
    const session = await edit(uri, 4, 5, '```ts\n' + refined + '```', 'say it returns a minus b');
    assert.equal(session, first, 'the same edit is refined');
    await reviewed(session);
    const body = JSON.stringify(gateway.requests.at(-1)?.body);
    assert.match(body, /Your previous proposal/);
    assert.ok(body.includes(JSON.stringify('  // Subtract b from a.').slice(1, -1)), 'the previous proposal is sent');
    assert.match(body, /Earlier instructions for this selection: \\"add a comment\\"/);
    assert.match(body, /Refine your previous proposal: say it returns a minus b/);
    assert.ok(session.review?.proposal.includes('// Returns a minus b.'), 'the review shows the refined proposal');
    assert.ok(!session.review?.proposal.includes('Subtract'), 'in place of the first');
  });

  it('Stop closes the request (the gateway sees the connection aborted) and writes nothing', async () => {
    const uri = write('stop.ts', FILE);
    const long = '```ts\n' + Array.from({ length: 80 }, (_, i) => `// line ${i}`).join('\n') + '\n```';
    const last = gateway.requests.at(-1)?.seq ?? 0;
    const session = await edit(uri, 4, 7, long, 'slow', ';delay-chunks=200');
    const record = await slowRequest(last);
    // The answer streams into the editor: the lines that came are drawn before the answer ends.
    const document = await vscode.workspace.openTextDocument(uri);
    await waitFor(
      () => session.hunksFor(document.getText()).length,
      (n) => n > 0,
      'streamed lines drawn',
    );
    assert.equal(session.state, 'streaming');
    assert.ok(
      session.hunksFor(document.getText()).some((h) => h.newLines.some((l) => l.startsWith('// line 0'))),
      'the first streamed line is shown',
    );
    const titles = await lensTitles(uri);
    assert.ok(
      titles.some((t) => t.includes('Stop')),
      titles.join(' | '),
    );
    await vscode.commands.executeCommand('unifiedInference.inlineEdit.stop', session.id);
    assert.equal(await record.closed, 'aborted', 'the connection was closed');
    await waitFor(
      () => session.state,
      (s) => s === 'ended',
      'the edit to end',
    );
    assert.equal(textOf(uri), FILE);
  });

  it('names a file that can run code before Accept, and writes it only after a yes', async () => {
    const pkg = '{\n  "name": "x",\n  "scripts": {\n    "test": "mocha"\n  }\n}\n';
    const uri = write('package.json', pkg);
    const session = await reviewed(
      await edit(uri, 3, 4, '```json\n    "test": "mocha --exit"\n```', 'exit after tests'),
    );
    const titles = await lensTitles(uri);
    assert.ok(
      titles.some((t) => t.includes('can run code')),
      titles.join(' | '),
    );
    const asked: string[] = [];
    const restore = replace(vscode.window, 'showWarningMessage', async (message: string) => {
      asked.push(message);
      return undefined; // dismissed
    });
    try {
      await vscode.commands.executeCommand('unifiedInference.inlineEdit.acceptAll', session.id);
    } finally {
      restore();
    }
    assert.ok(
      asked.some((m) => m.includes('package.json')),
      JSON.stringify(asked),
    );
    assert.equal(textOf(uri), pkg, 'not written without a yes');
    assert.equal(session.state, 'review', 'still under review');
  });

  it('offers itself in the lightbulb on a selection only, shows a change whole in the hover, and asks before sending a sensitive file', async () => {
    const uri = write('offers.ts', FILE);
    await vscode.window.showTextDocument(uri);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      new vscode.Range(4, 0, 7, 0),
      vscode.CodeActionKind.RefactorRewrite.value,
    );
    const ours = actions.find((a) => a.title === 'Edit with Unified Inference');
    assert.ok(ours, actions.map((a) => a.title).join(' | '));
    assert.equal(ours.kind?.value, vscode.CodeActionKind.RefactorRewrite.value);
    assert.equal(ours.command?.command, 'unifiedInference.inlineEdit.start');
    const onCode = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      new vscode.Range(5, 3, 5, 3),
      vscode.CodeActionKind.RefactorRewrite.value,
    );
    assert.ok(!onCode.some((a) => a.title === 'Edit with Unified Inference'), 'not on every cursor move inside code');
    const onBlank = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      new vscode.Range(3, 0, 3, 0),
      vscode.CodeActionKind.RefactorRewrite.value,
    );
    assert.ok(
      !onBlank.some((a) => a.title === 'Edit with Unified Inference'),
      'not on every blank line either (the keys and the context menu work there)',
    );

    const session = await reviewed(
      await edit(
        uri,
        8,
        11,
        '```ts\nexport function mul(a: number, b: number): number {\n  return Math.imul(a, b);\n}\n```',
      ),
    );
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      uri,
      new vscode.Position(9, 4),
    );
    const hoverText = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(hoverText, /return Math\.imul\(a, b\);/);
    await vscode.commands.executeCommand('unifiedInference.inlineEdit.rejectAll', session.id);

    const secret = write('.env.local', 'API_URL=https://example.test\nDEBUG=1\n');
    const requests = chatRequests();
    const asked: string[] = [];
    const restore = replace(vscode.window, 'showWarningMessage', async (message: string) => {
      asked.push(message);
      return undefined;
    });
    try {
      await setSettingAndWait('inlineEdit.model', `${MODEL}::${scriptedReplyItem('```\nDEBUG=0\n```')}`);
      const editor = await vscode.window.showTextDocument(secret);
      editor.selection = new vscode.Selection(1, 0, 2, 0);
      const none = await vscode.commands.executeCommand('unifiedInference.inlineEdit.start', {
        instruction: 'turn debug off',
      });
      assert.equal(none, undefined, 'declined: no edit');
    } finally {
      restore();
    }
    assert.ok(
      asked.some((m) => m.includes('.env.local') && m.includes('sensitive')),
      JSON.stringify(asked),
    );
    assert.equal(chatRequests(), requests, 'nothing sent');
  });

  it('a gateway failure is shown through Failures with its fix, and nothing is written', async () => {
    const uri = write('fails.ts', FILE);
    const shown: string[] = [];
    const buttons: string[][] = [];
    const listener = api.failures.onDidShow((failure) => {
      shown.push(failure.message);
      buttons.push([...failure.buttons]);
    });
    try {
      const session = await edit(uri, 4, 7, 'x', 'fail', ';status=401');
      await waitFor(
        () => session.state,
        (s) => s === 'ended',
        'the edit to end',
      );
      await waitFor(
        () => shown.length,
        (n) => n > 0,
        'the failure shown',
      );
      assert.match(shown[0] ?? '', /Inline edit of inline-edit-tests\/fails\.ts failed/);
      assert.ok(buttons[0]?.includes('Set API Key'), `the action that fixes it: ${JSON.stringify(buttons)}`);
    } finally {
      listener.dispose();
    }
    assert.equal(textOf(uri), FILE);
  });

  it('an already-aborted signal sends nothing', async () => {
    const client = api.connection.setup.client;
    assert.ok(client, 'connected');
    const requests = chatRequests();
    const controller = new AbortController();
    controller.abort();
    const answer = await requestInlineEdit(
      {
        client,
        model: MODEL,
        api: 'chat',
        text: { path: 'a.ts', language: 'typescript', before: '', selection: 'x\n', after: '', instruction: 'y' },
      },
      () => undefined,
      controller.signal,
    );
    assert.equal(answer.kind, 'cancelled');
    assert.equal(chatRequests(), requests, 'no request');
  });

  it('refuses a file too large to diff on every redraw, before anything is sent', async () => {
    const uri = write('huge.ts', 'const x = 1;\n'.repeat(80_000));
    const requests = chatRequests();
    const warned: string[] = [];
    const restore = replace(vscode.window, 'showWarningMessage', async (message: string) => {
      warned.push(message);
      return undefined;
    });
    try {
      await setSettingAndWait('inlineEdit.model', `${MODEL}::${scriptedReplyItem('```ts\nconst y = 2;\n```')}`);
      const editor = await vscode.window.showTextDocument(uri);
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      assert.equal(
        await vscode.commands.executeCommand('unifiedInference.inlineEdit.start', { instruction: 'rename' }),
        undefined,
      );
    } finally {
      restore();
    }
    assert.ok(
      warned.some((m) => m.includes('too large') && m.includes('1,000,000')),
      JSON.stringify(warned),
    );
    assert.equal(chatRequests(), requests, 'nothing sent');
  });

  it('shows hidden characters of a proposal as badges, with a warning lens', async () => {
    const uri = write('hidden.ts', FILE);
    const session = await reviewed(
      await edit(
        uri,
        4,
        7,
        '```ts\nexport function sub(a: number, b: number): number {\n  return a - b; // \u202Eevil\u202C\n}\n```',
      ),
    );
    const titles = await lensTitles(uri);
    assert.ok(
      titles.some((t) => t.includes('hidden characters')),
      titles.join(' | '),
    );
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      uri,
      new vscode.Position(5, 4),
    );
    const hoverText = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(hoverText, /⟨U\+202E⟩evil⟨U\+202C⟩/);
    assert.doesNotMatch(hoverText, /\u202E/, 'the override itself is not in the hover');
    const document = await vscode.workspace.openTextDocument(uri);
    const ghosts = api.inlineEdits.decorations.changesOf(session, document).flatMap((c) => c.added);
    assert.ok(
      ghosts.some((g) => g.includes('⟨U+202E⟩')) && !ghosts.some((g) => g.includes('\u202E')),
      JSON.stringify(ghosts),
    );
  });

  it('a refinement never revives an ended review, and two starts at once make one edit', async () => {
    const uri = write('twice.ts', FILE);
    const session = await reviewed(await edit(uri, 4, 7, '```ts\n' + SUB_COMMENTED + '```'));
    session.review?.rejectAll();
    assert.equal(session.state, 'ended');
    assert.equal(session.restart('again', MODEL), false);
    assert.equal(session.state, 'ended', 'still ended: nothing streams for it');

    const requests = chatRequests();
    const [a, b] = await Promise.all([
      vscode.commands.executeCommand<InlineEditSession | undefined>('unifiedInference.inlineEdit.start', {
        instruction: 'first',
      }),
      vscode.commands.executeCommand<InlineEditSession | undefined>('unifiedInference.inlineEdit.start', {
        instruction: 'second',
      }),
    ]);
    const started = [a, b].filter((s): s is InlineEditSession => s !== undefined);
    assert.ok(started.length >= 1 && started.every((s) => s === started[0]), 'one session');
    await reviewed(started[0] as InlineEditSession);
    assert.equal(chatRequests(), requests + 1, 'one request');
    assert.deepEqual(api.inlineEdits.active, [started[0]]);
  });

  it('a CRLF file: the streamed lines are compared in its line endings (unchanged lines are not shown as changed)', async () => {
    const crlf = FILE.replace(/\n/g, '\r\n');
    const uri = write('crlf.ts', crlf);
    const session = await edit(uri, 4, 7, '```ts\n' + SUB_COMMENTED + '```', 'add a comment', ';delay-chunks=150');
    const document = await vscode.workspace.openTextDocument(uri);
    const hunks = await waitFor(
      () => (session.state === 'streaming' ? session.hunksFor(document.getText()) : undefined),
      (h) => h === undefined || h.some((x) => x.newLines.some((l) => l.includes('Subtract'))),
      'the comment line streamed',
    );
    assert.ok(hunks, 'seen while streaming');
    // The streamed lines stand in for as many original lines (the rest not reached yet): the
    // signature came back the same and is no change; in LF it would be (a CRLF line differs).
    const shown = JSON.stringify(hunks.map((h) => ({ old: h.oldLines, added: h.newLines })));
    assert.ok(!hunks.some((h) => h.oldLines.some((l) => l.startsWith('export function sub'))), shown);
    assert.ok(
      hunks.every((h) => h.newLines.every((l) => l.endsWith('\r\n'))),
      shown,
    );
    await reviewed(session);
    assert.deepEqual(
      session.review?.hunks.map((h) => h.newLines),
      [['  // Subtract b from a.\r\n']],
    );
  });

  it('typing inside the selected lines while the answer streams stops the request', async () => {
    const uri = write('typing-stops.ts', FILE);
    const long = '```ts\n' + Array.from({ length: 80 }, (_, i) => `// line ${i}`).join('\n') + '\n```';
    const last = gateway.requests.at(-1)?.seq ?? 0;
    const session = await edit(uri, 4, 7, long, 'slow', ';delay-chunks=200');
    const record = await slowRequest(last);
    // An edit of the document, as typing makes: an editor's own edit() can be refused (false) when
    // the editor is replaced meanwhile on a busy machine, and then nothing was typed at all.
    const typing = new vscode.WorkspaceEdit();
    typing.insert(uri, new vscode.Position(5, 2), 'const typed = 1; ');
    assert.equal(await vscode.workspace.applyEdit(typing), true, 'the typing was made');
    await waitFor(
      () => session.state,
      (s) => s === 'ended',
      'the edit to end',
    );
    assert.equal(await record.closed, 'aborted', 'the connection was closed');
    assert.match(textOf(uri), /const typed = 1; return a - b;/, 'the typing stays, nothing else written');
  });

  it('a refinement that is stopped or fails gives the previous proposal back', async () => {
    const uri = write('refineback.ts', FILE);
    const session = await reviewed(await edit(uri, 4, 7, '```ts\n' + SUB_COMMENTED + '```'));
    const proposal = session.review?.proposal;
    const long = '```ts\n' + Array.from({ length: 80 }, (_, i) => `// line ${i}`).join('\n') + '\n```';
    const last = gateway.requests.at(-1)?.seq ?? 0;
    const refining = await edit(uri, 4, 7, long, 'make it long', ';delay-chunks=200');
    assert.equal(refining, session, 'the same edit, refined');
    assert.equal(session.state, 'streaming');
    const record = await slowRequest(last);
    await vscode.commands.executeCommand('unifiedInference.inlineEdit.stop', session.id);
    assert.equal(await record.closed, 'aborted');
    await waitFor(
      () => session.state,
      (s) => s !== 'streaming',
      'the refinement to stop',
    );
    assert.equal(session.state, 'review', 'the review is back');
    assert.equal(session.review?.proposal, proposal, 'with the previous proposal');
    assert.deepEqual(session.instructions, ['add a comment']);
    // A failure too (a refused key): the proposal stays under review.
    const failed = await edit(uri, 4, 7, 'x', 'fail', ';status=500');
    assert.equal(failed, session);
    await waitFor(
      () => session.state,
      (s) => s !== 'streaming',
      'the refinement to fail',
    );
    assert.equal(session.review?.proposal, proposal);
    await vscode.commands.executeCommand('unifiedInference.inlineEdit.acceptAll', session.id);
    await waitFor(
      () => textOf(uri),
      (t) => t.includes('// Subtract b from a.'),
      'the previous proposal accepted',
    );
  });

  it('streamed lines that come in a burst are drawn once, after a pause (each draw diffs the scope)', async () => {
    const uri = write('burst.ts', FILE);
    const long = '```ts\n' + Array.from({ length: 80 }, (_, i) => `// line ${i}`).join('\n') + '\n```';
    const session = await edit(uri, 4, 7, long, 'slow', ';delay-chunks=1000');
    const decorations = api.inlineEdits.decorations;
    let draws = 0;
    const restore = replace(decorations, 'draw', (...args: Parameters<typeof decorations.draw>) => {
      draws++;
      Reflect.apply(Object.getPrototypeOf(decorations).draw as typeof decorations.draw, decorations, args);
    });
    try {
      for (let i = 1; i <= 100; i++) session.showStreamed('// burst\n'.repeat(i));
      assert.equal(draws, 0, 'nothing drawn during the burst');
      await waitFor(
        () => draws,
        (n) => n > 0,
        'the burst drawn after the pause',
      );
      assert.ok(draws <= 2, `drawn ${draws} times`);
    } finally {
      restore();
      await vscode.commands.executeCommand('unifiedInference.inlineEdit.stop', session.id);
    }
  });
});
