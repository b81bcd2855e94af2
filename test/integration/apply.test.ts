import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, linkSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ApplyOutcome } from '../../src/extension/apply/codeApplier';
import { ApplyReview, type ReviewEnd } from '../../src/extension/apply/applyReview';
import { mergeThroughGateway } from '../../src/extension/apply/mergeRequest';
import type { CheckpointRecorder } from '../../src/extension/checkpoints/checkpointRecorder';
import { Log } from '../../src/extension/log';
import type { AssistantTurn, Conversation } from '../../src/shared/chatModel';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway } from '../gateway/index';
import { scriptedReplyItem } from '../gateway/scriptedReply';
import {
  activateExtension,
  clearKeyThroughCommand,
  connectedGateway,
  recordNotifications,
  replace,
  setSetting,
  setSettingAndWait,
  waitFor,
} from './extensionHost';
import { MATH_SOURCE } from '../harness/mathSource';

// Apply on a chat code block in the real extension host: the block is taken from a reply the host
// holds, the review opens in VS Code's diff editor, and only Accept writes (one undoable edit).
// Partial blocks are merged by the local gateway answering a scripted file (reply=...).
describe('apply: code blocks from the chat into files, reviewed as a diff', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let notes: ReturnType<typeof recordNotifications>;
  const root = (): string => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
  const dir = (): string => join(root(), 'apply-tests');

  const FILE = MATH_SOURCE;

  function write(name: string, text: string): vscode.Uri {
    mkdirSync(dir(), { recursive: true });
    writeFileSync(join(dir(), name), text);
    return vscode.Uri.file(join(dir(), name));
  }

  function conversationWith(
    content: string,
    model = 'sim-openai/gpt-sim-mini',
  ): { conversation: Conversation; turnId: string } {
    const turn: AssistantTurn = {
      role: 'assistant',
      id: `a-${Math.random().toString(36).slice(2)}`,
      model,
      content,
      reasoning: '',
      toolSteps: [],
      status: 'done',
      wire: [],
      createdAt: Date.now(),
    };
    const conversation: Conversation = {
      id: `c-${Math.random().toString(36).slice(2)}`,
      title: 'Apply test',
      model,
      parameters: {},
      turns: [turn],
      createdAt: Date.now(),
      updatedAt: Date.now(),
    };
    return { conversation, turnId: turn.id };
  }

  async function applyReply(content: string, index = 0): Promise<ApplyOutcome> {
    const { conversation, turnId } = conversationWith(content);
    return api.codeApplier.applyFromReply(conversation, turnId, index);
  }

  function reviewOf(outcome: ApplyOutcome): ApplyReview {
    assert.equal(outcome.kind, 'review', `a review opened (got ${JSON.stringify(outcome)})`);
    return (outcome as { review: ApplyReview }).review;
  }

  function ended(review: ApplyReview): Promise<void> {
    return waitFor(
      () => review.isEnded,
      (done) => done,
      'the review to end',
    ).then(() => undefined);
  }

  async function textOf(uri: vscode.Uri): Promise<string> {
    return (await vscode.workspace.openTextDocument(uri)).getText();
  }

  /** The CodeLens commands VS Code shows on the proposal: [title, command, args] per lens. */
  async function lenses(review: ApplyReview): Promise<vscode.Command[]> {
    const found = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      review.proposalUri,
    );
    return found.flatMap((lens) => (lens.command ? [lens.command] : []));
  }

  const merged = FILE.replace('  return a - b;', '  // Subtract b from a.\n  return a - b;').replace(
    '  return a * b;',
    '  return Math.imul(a, b);',
  );
  const partialBlock = 'export function mul(a: number, b: number): number {\n  return Math.imul(a, b);\n}';

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
    notes = recordNotifications();
  });

  afterEach(async () => {
    for (const review of api.codeApplier.reviews.active) review.rejectAll();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('apply.model', undefined);
  });

  after(async () => {
    notes?.restore();
    rmSync(dir(), { recursive: true, force: true });
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('applies a whole-file block: a diff first, nothing written before Accept, and Accept is one undoable edit', async () => {
    const uri = write('whole.ts', FILE);
    const whole = FILE.replace('a + b', 'a + b + 0').replace('a * b', 'b * a');
    const merges = (): number =>
      gateway.requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/messages')).length;
    const mergesBefore = merges();
    const review = reviewOf(await applyReply(`Here it is:\n\n\`\`\`ts apply-tests/whole.ts\n${whole}\`\`\`\n`));
    assert.equal(merges(), mergesBefore, 'a whole file needs no merge request');
    assert.equal(review.hunks.length, 2);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'the diff editor shows the review');
    assert.equal(tab.input.original.toString(), uri.toString());
    assert.equal(await textOf(review.proposalUri), whole, 'the right side is the proposal');
    assert.equal(await textOf(uri), FILE, 'nothing written before Accept');
    assert.equal(readFileSync(uri.fsPath, 'utf8'), FILE);

    await vscode.commands.executeCommand('unifiedInference.apply.acceptAll', review.proposalUri);
    await ended(review);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.getText(), whole);
    await waitFor(
      () => vscode.window.activeTextEditor?.document.uri.toString(),
      (active) => active === uri.toString(),
      'the file shown after Accept',
    );
    await vscode.commands.executeCommand('undo');
    assert.equal(document.getText(), FILE, 'one undo takes the whole change back');
  });

  it('merges a partial block through the gateway, and per-change Accept writes exactly that change', async () => {
    const uri = write('partial.ts', FILE);
    await setSettingAndWait(
      'apply.model',
      `sim-openai/gpt-sim-mini::${scriptedReplyItem(`Here is the updated file:\n\n\`\`\`\`ts\n${merged}\`\`\`\`\n`)}`,
    );
    gateway.clearRequests();
    const block = `\`apply-tests/partial.ts\`:\n\n\`\`\`ts\n// ... existing code ...\n${partialBlock}\n\`\`\`\n`;
    const review = reviewOf(await applyReply(block));
    const request = gateway.requests.find((r) => r.path.endsWith('/chat/completions'));
    assert.ok(request, "the merge went to the gateway's chat endpoint");
    const sent = JSON.stringify(request.body);
    assert.ok(
      sent.includes(JSON.stringify(FILE.slice(0, 40)).slice(1, -1)) && sent.includes('Math.imul(a, b)'),
      'the request carries the file and the block',
    );
    assert.equal((request.body as { stream?: boolean }).stream, true, 'streamed');
    assert.equal(review.proposal, merged, 'the proposal is the merged file, its wrapping fence stripped');
    assert.equal(review.hunks.length, 2);

    const commands = await lenses(review);
    assert.deepEqual(
      commands.map((c) => c.title),
      ['$(check) Accept Change', '$(discard) Reject Change', '$(check) Accept Change', '$(discard) Reject Change'],
    );
    const secondAccept = commands[2] as vscode.Command;
    await vscode.commands.executeCommand(secondAccept.command, ...(secondAccept.arguments ?? []));
    const onlySecond = FILE.replace('  return a * b;', '  return Math.imul(a, b);');
    await waitFor(
      () => textOf(uri),
      (text) => text === onlySecond,
      'the accepted change in the document',
    );
    assert.equal(review.isEnded, false, 'the other change is still proposed');
    assert.equal(review.hunks.length, 1);
    assert.equal(await textOf(review.proposalUri), merged, 'the proposal shown is unchanged');
    assert.equal((await lenses(review)).length, 2, 'the lenses follow: one change left');

    await vscode.commands.executeCommand('unifiedInference.apply.rejectAll', review.proposalUri);
    await ended(review);
    assert.equal(await textOf(uri), onlySecond, 'exactly the accepted change');
  });

  it("keeps the proposal's diagnostics out of the Problems panel: the language services never check the proposal", async () => {
    const typescript = vscode.extensions.getExtension('vscode.typescript-language-features');
    assert.ok(typescript, 'the built-in TypeScript extension is in the test host');
    write('diagnosed.ts', FILE);
    // A syntax error and a type error: the TypeScript service reports both for a file of its own.
    const broken = `${FILE.replace('  return a * b;', '  return a * * b;')}export const wrong: number = 'text';\n`;
    const review = reviewOf(await applyReply(`\`\`\`ts apply-tests/diagnosed.ts\n${broken}\`\`\`\n`));
    await typescript.activate();
    assert.ok(typescript.isActive, 'the TypeScript extension is active');
    // The control: the same text in a real file, shown after the proposal (the TypeScript service
    // checks the documents open in editor tabs, in the order they opened), so once the control's
    // errors are reported, the proposal's would have been too.
    const control = write('diagnosed-control.ts', broken);
    await vscode.window.showTextDocument(control, {
      viewColumn: vscode.ViewColumn.Beside,
      preview: false,
      preserveFocus: true,
    });
    const reported = await waitFor(
      () => vscode.languages.getDiagnostics(control),
      (found) => found.some((d) => d.severity === vscode.DiagnosticSeverity.Error),
      "the TypeScript service's errors for the control file",
      60_000,
    );
    assert.ok(reported.length >= 1);
    const ours = vscode.languages
      .getDiagnostics()
      .filter(([uri, found]) => uri.scheme === review.proposalUri.scheme && found.length > 0)
      .map(([uri, found]) => `${uri.toString()}: ${found.map((d) => d.message).join('; ')}`);
    assert.deepEqual(ours, [], 'no diagnostics for the proposal (or any document of ours)');
    assert.deepEqual(vscode.languages.getDiagnostics(review.proposalUri), []);
  });

  it('a merge answer of prose and two fences proposes the code of the fence that is the file, no prose, no fence lines', async () => {
    write('two-fences.ts', FILE);
    const check = "import { mul } from './two-fences';\nconsole.log(mul(2, 3));\n";
    const answer = `Here is the change:\n\`\`\`ts\n${merged}\`\`\`\nAnd a quick check:\n\`\`\`ts\n${check}\`\`\`\n`;
    await setSettingAndWait('apply.model', `sim-openai/gpt-sim-mini::${scriptedReplyItem(answer)}`);
    const block = `\`\`\`ts apply-tests/two-fences.ts\n// ... existing code ...\n${partialBlock}\n\`\`\`\n`;
    const review = reviewOf(await applyReply(block));
    assert.equal(review.proposal, merged, 'the proposal is the file in the answer');
    assert.equal(await textOf(review.proposalUri), merged);
    assert.equal(review.hunks.length, 2);
  });

  it('a merge answer that is not the file (prose and two snippets, prose only) is refused with what it was: nothing written, nothing proposed', async () => {
    const uri = write('snippets.ts', FILE);
    const cases: [answer: string, what: string][] = [
      [
        `Here is the change:\n\`\`\`ts\n${partialBlock}\n\`\`\`\n` +
          'And also:\n```ts\nexport function sub(a: number, b: number): number {\n  // Subtract b from a.\n  return a - b;\n}\n```\n',
        'prose and 2 code snippets',
      ],
      [
        "I can't merge this edit: mul in the edit does not match the file.\nPlease share the whole function.\n",
        'prose with no code',
      ],
    ];
    for (const [answer, what] of cases) {
      await setSettingAndWait('apply.model', `sim-openai/gpt-sim-mini::${scriptedReplyItem(answer)}`);
      notes.shown.length = 0;
      const outcome = await applyReply(
        `\`\`\`ts apply-tests/snippets.ts\n// ... existing code ...\n${partialBlock}\n\`\`\`\n`,
      );
      assert.equal(outcome.kind, 'failed', JSON.stringify(outcome));
      const said = `Could not merge the code block into apply-tests/snippets.ts: The model's answer was not the whole file (${what}). Try Apply again, or choose a stronger model in unifiedInference.apply.model. Nothing was written.`;
      assert.equal((outcome as { message?: string }).message, said);
      assert.ok(
        notes.shown.some((n) => n.kind === 'error' && n.message === said),
        `the user is told: ${JSON.stringify(notes.shown)}`,
      );
      assert.equal(api.codeApplier.reviews.active.length, 0, 'no review opened');
      const diffs = vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .filter((tab) => tab.input instanceof vscode.TabInputTextDiff);
      assert.equal(diffs.length, 0, 'no diff shown');
      assert.equal(await textOf(uri), FILE, 'the document is unchanged');
      assert.equal(readFileSync(uri.fsPath, 'utf8'), FILE, 'the file on disk is unchanged');
    }
  });

  it('Reject leaves the file byte-identical (CRLF, no final newline, a rejected change on the way)', async () => {
    const crlf = FILE.replace(/\n/g, '\r\n').replace(/\r\n$/, '');
    const uri = write('reject.ts', crlf);
    const review = reviewOf(
      await applyReply(
        `\`\`\`ts apply-tests/reject.ts\n${FILE.replace('a + b', 'b + a').replace('a - b', '-(b - a)')}\`\`\`\n`,
      ),
    );
    assert.equal(review.hunks.length, 2, 'line endings and the missing final newline are not changes');
    const [firstReject] = (await lenses(review)).filter((c) => c.title.includes('Reject'));
    await vscode.commands.executeCommand(firstReject!.command, ...(firstReject!.arguments ?? []));
    await waitFor(
      () => review.hunks.length,
      (n) => n === 1,
      'one change left after rejecting one',
    );
    await vscode.commands.executeCommand('unifiedInference.apply.rejectAll', review.proposalUri);
    await ended(review);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.getText(), crlf);
    assert.equal(document.isDirty, false);
    assert.deepEqual(readFileSync(uri.fsPath), Buffer.from(crlf, 'utf8'));
  });

  it('creates a new file only on Accept, shown as a diff against empty', async () => {
    const path = join(dir(), 'created', 'new.ts');
    const review = reviewOf(
      await applyReply('File: apply-tests/created/new.ts\n```ts\nexport const created = true;\n```\n'),
    );
    assert.equal(existsSync(path), false, 'not created before Accept');
    assert.equal(await textOf(review.originalUri), '');
    await vscode.commands.executeCommand('unifiedInference.apply.acceptAll', review.proposalUri);
    await ended(review);
    assert.equal(existsSync(path), true);
    assert.equal(await textOf(vscode.Uri.file(path)), 'export const created = true;\n');
  });

  it('names a file that can run code (package.json) like the edit tools do, and writes it only after an explicit yes', async () => {
    const original =
      '{\n  "name": "apply-guarded",\n  "version": "1.0.0",\n  "scripts": {\n    "test": "node test.js"\n  },\n  "license": "MIT"\n}\n';
    const changed = original.replace('"node test.js"', '"node test.js",\n    "postinstall": "node evil.js"');
    const uri = write('package.json', original);
    notes.shown.length = 0;
    const review = reviewOf(await applyReply(`\`\`\`json apply-tests/package.json\n${changed}\`\`\`\n`));
    assert.ok(
      notes.shown.some((n) => n.kind === 'warning' && /apply-tests\/package\.json can run code/.test(n.message)),
      `the notice: ${JSON.stringify(notes.shown)}`,
    );
    assert.match(review.title, /can run code/, "the review's title says so");
    const asked: { message: string; modal: boolean; detail: string }[] = [];
    const answering = (answer: boolean): (() => void) =>
      replace(vscode.window, 'showWarningMessage', async (message: string, ...rest: unknown[]) => {
        const options = rest[0] as vscode.MessageOptions | undefined;
        asked.push({ message, modal: options?.modal === true, detail: options?.detail ?? '' });
        return answer ? rest.find((item): item is string => typeof item === 'string') : undefined;
      });
    let restore = answering(false);
    try {
      await vscode.commands.executeCommand('unifiedInference.apply.acceptAll', review.proposalUri);
    } finally {
      restore();
    }
    assert.equal(asked.length, 1, 'Accept asked first');
    assert.ok(
      asked[0]?.modal && /package\.json/.test(asked[0].message) && /can run code/.test(asked[0].detail),
      JSON.stringify(asked[0]),
    );
    assert.equal(review.isEnded, false, 'declined: the review stays open');
    assert.equal(readFileSync(uri.fsPath, 'utf8'), original, 'declined: nothing written');
    restore = answering(true);
    try {
      await vscode.commands.executeCommand('unifiedInference.apply.acceptAll', review.proposalUri);
    } finally {
      restore();
    }
    await ended(review);
    assert.equal(await textOf(uri), changed, 'written after the yes');
  });

  it("judges the open editor's file as a write: a hard link (another name for a hook or script) is named and asked", async () => {
    const original = 'first line\nsecond line\nlast line\n';
    const uri = write('hooked.txt', original);
    const otherName = join(dir(), 'other-name.txt');
    rmSync(otherName, { force: true });
    linkSync(uri.fsPath, otherName);
    try {
      await vscode.window.showTextDocument(uri);
      notes.shown.length = 0;
      const review = reviewOf(await applyReply('```text\nfirst line\nchanged line\nlast line\n```\n'));
      assert.ok(
        notes.shown.some((n) => n.kind === 'warning' && /hooked\.txt may run code under another name/.test(n.message)),
        `the notice: ${JSON.stringify(notes.shown)}`,
      );
      assert.match(review.title, /can run code/, "the review's title says so");
      await vscode.commands.executeCommand('unifiedInference.apply.rejectAll', review.proposalUri);
      await ended(review);
    } finally {
      rmSync(otherName, { force: true });
    }
  });

  it('refuses a path outside the workspace (by .., absolute, or a folder link) and writes nothing', async () => {
    notes.shown.length = 0;
    const outside = join(root(), '..', 'apply-outside.ts');
    const outsideFolder = join(root(), '..', 'apply-outside-folder');
    mkdirSync(outsideFolder, { recursive: true });
    mkdirSync(dir(), { recursive: true });
    symlinkSync(outsideFolder, join(dir(), 'link-out'));
    for (const path of ['../apply-outside.ts', outside, 'apply-tests/link-out/apply-outside.ts']) {
      const outcome = await applyReply(`\`\`\`ts ${path}\nexport const x = 1;\n\`\`\`\n`);
      assert.equal(outcome.kind, 'refused', path);
      assert.match((outcome as { message?: string }).message ?? '', /outside the workspace/);
    }
    assert.equal(existsSync(outside), false);
    assert.equal(existsSync(join(outsideFolder, 'apply-outside.ts')), false);
    rmSync(outsideFolder, { recursive: true, force: true });
    assert.ok(
      notes.shown.some(
        (n) => n.kind === 'warning' && /apply-outside\.ts.*outside the workspace.*Nothing was written/.test(n.message),
      ),
      'the user is told, with what happened',
    );
    assert.equal(api.codeApplier.reviews.active.length, 0);
  });

  it("carries the user's typing elsewhere into the proposal, and ends the review on typing inside a change", async () => {
    const uri = write('typing.ts', FILE);
    const review = reviewOf(
      await applyReply(`\`\`\`ts apply-tests/typing.ts\n${FILE.replace('a * b', 'b * a')}\`\`\`\n`),
    );
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), '// typed by the user\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(
      () => review.proposal,
      (p) => p.startsWith('// typed by the user\n'),
      'the typing carried into the proposal',
    );
    assert.equal(review.hunks.length, 1, 'the typing is not a proposed change');
    const inside = new vscode.WorkspaceEdit();
    const line = (await vscode.workspace.openTextDocument(uri))
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('a * b'));
    inside.insert(uri, new vscode.Position(line, 0), '  // typed inside the change\n');
    assert.ok(await vscode.workspace.applyEdit(inside));
    await ended(review);
    const text = await textOf(uri);
    assert.ok(
      text.includes('typed inside the change') && text.includes('a * b') && !text.includes('b * a'),
      'the typing stays, nothing of the proposal was written',
    );
  });

  it('a failed merge (401, a cut stream, an error mid-stream) says so with a next step and writes nothing', async () => {
    const uri = write('failing.ts', FILE);
    const cases: [string, RegExp][] = [
      ['status=401', /API key/i],
      ['cut-after=300', /./],
      ['error-event', /./],
    ];
    for (const [fault, says] of cases) {
      notes.shown.length = 0;
      await setSettingAndWait('apply.model', `sim-openai/gpt-sim-mini::${fault}`);
      const outcome = await applyReply(
        `\`\`\`ts apply-tests/failing.ts\n// ... existing code ...\n${partialBlock}\n\`\`\`\n`,
      );
      assert.equal(outcome.kind, 'failed', fault);
      const error = notes.shown.find((n) => n.kind === 'error');
      assert.match(
        error?.message ?? '',
        /^Could not merge the code block into apply-tests\/failing\.ts: .+ Nothing was written\.$/s,
        fault,
      );
      assert.match(error?.message ?? '', says, fault);
      assert.equal(await textOf(uri), FILE, fault);
      assert.equal(api.codeApplier.reviews.active.length, 0, fault);
    }
  });

  it('Try Again on a failed merge that fails in turn is told to the user, never left as an unhandled rejection', async () => {
    const log = new Log('Unified Inference (apply test)');
    const errors: string[] = [];
    const buttons: unknown[][] = [];
    // The first error offers Try Again, which the "user" clicks; the retry itself then fails.
    const restore = replace(vscode.window, 'showErrorMessage', async (message: string, ...offered: unknown[]) => {
      errors.push(message);
      buttons.push(offered);
      return errors.length === 1 ? 'Try Again' : undefined;
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      if (reason instanceof Error && reason.message === 'the retry broke') unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const job = {
        display: 'apply-tests/retry.ts',
        current: FILE,
        block: partialBlock,
        model: 'sim-openai/gpt-sim-mini::status=401',
      };
      const outcome = await mergeThroughGateway(api.connection, api.failures, log, job, async () =>
        Promise.reject(new Error('the retry broke')),
      );
      assert.equal(outcome.ok, false);
      assert.match(errors[0] ?? '', /^Could not merge the code block into apply-tests\/retry\.ts: .*API key/s);
      // The fix is the first button (VS Code's primary one), Try Again after it.
      assert.deepEqual(buttons[0], ['Set API Key', 'Try Again']);
      const told = await waitFor(
        () => errors[1],
        (message) => message !== undefined,
        'the failed retry to be told',
      );
      assert.equal(
        told,
        'Trying the merge into apply-tests/retry.ts again failed: the retry broke. Nothing was written.',
      );
    } finally {
      restore();
      log.dispose();
    }
    // An unhandled rejection is reported after the microtasks of its turn: one more turn first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', onUnhandled);
    assert.deepEqual(unhandled, []);
  });

  /** A review of its own (no chat, no lenses) whose checkpoint is `recorder`: the test acts while it is taken. */
  function reviewWith(
    uri: vscode.Uri,
    proposal: string,
    recorder: CheckpointRecorder,
  ): { review: ApplyReview; how: () => ReviewEnd | undefined } {
    const review = new ApplyReview(
      {
        id: `t${Math.random().toString(36).slice(2)}`,
        target: uri,
        display: `apply-tests/${uri.path.split('/').pop() ?? ''}`,
        exists: true,
        sensitive: [],
        base: FILE,
        proposal,
        reply: { conversationId: 'c-test', turnId: 'a-test' },
      },
      recorder,
    );
    let how: ReviewEnd | undefined;
    review.onDidEnd((end) => (how = end));
    return { review, how: () => how };
  }

  /** Inserts `text` at the start of line `line` of the file's document, as typing would. */
  async function typeAt(uri: vscode.Uri, line: number, text: string): Promise<void> {
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(line, 0), text);
    assert.ok(await vscode.workspace.applyEdit(edit), 'the typing went in');
  }

  it('typing while the checkpoint is taken: Accept writes against the text as it is then, keeping the typing', async () => {
    const uri = write('raced-all.ts', FILE);
    const proposal = FILE.replace('a + b', 'b + a').replace('a * b', 'b * a');
    const { review, how } = reviewWith(uri, proposal, {
      beforeChange: () => typeAt(uri, 0, '// typed during the checkpoint\n'),
    });
    await review.acceptAll();
    assert.equal(
      await textOf(uri),
      `// typed during the checkpoint\n${proposal}`,
      'both changes where they belong, and the typing',
    );
    assert.equal(how(), 'accepted');
  });

  it('typing while the checkpoint is taken: Accept Change writes that change only, where it now is', async () => {
    const uri = write('raced-one.ts', FILE);
    const proposal = FILE.replace('a + b', 'b + a').replace('a * b', 'b * a');
    const { review, how } = reviewWith(uri, proposal, {
      beforeChange: () => typeAt(uri, 4, '// typed between the changes\n'),
    });
    assert.equal(review.hunks.length, 2);
    await review.acceptHunk(1);
    const typed = FILE.replace('export function sub', '// typed between the changes\nexport function sub');
    assert.equal(await textOf(uri), typed.replace('a * b', 'b * a'), 'the second change only, below the typing');
    assert.equal(how(), undefined, 'the first change is still proposed');
    assert.equal(review.hunks.length, 1);
    assert.equal(review.hunks[0]?.oldStart, 1, 'the change left is against the text now');
  });

  it('two quick Accept Change clicks write one after the other, never with offsets from before the first', async () => {
    const uri = write('double-click.ts', FILE);
    const proposal = FILE.replace('  return a + b;', '  // Adds.\n  // Two lines more.\n  return a + b;').replace(
      'a * b',
      'b * a',
    );
    const { review, how } = reviewWith(uri, proposal, { beforeChange: async () => undefined });
    assert.equal(review.hunks.length, 2);
    await Promise.all([review.acceptHunk(0), review.acceptHunk(1)]);
    const first = FILE.replace('  return a + b;', '  // Adds.\n  // Two lines more.\n  return a + b;');
    assert.equal(
      await textOf(uri),
      first,
      'the first change; the second, re-diffed by it, waits for a click on the new list',
    );
    assert.equal(how(), undefined);
    assert.deepEqual(
      review.hunks.map((h) => h.oldStart),
      [11],
      'the change left is placed against the text now',
    );
    await review.acceptHunk(0);
    assert.equal(await textOf(uri), proposal);
    assert.equal(how(), 'accepted');
  });

  it('typing inside the change while the checkpoint is taken ends the review and writes nothing', async () => {
    const uri = write('raced-inside.ts', FILE);
    const proposal = FILE.replace('a * b', 'b * a');
    const line = FILE.split('\n').indexOf('  return a * b;');
    const { review, how } = reviewWith(uri, proposal, {
      beforeChange: () => typeAt(uri, line, '  // typed inside the change\n'),
    });
    await review.acceptAll();
    assert.equal(how(), 'conflict');
    const text = await textOf(uri);
    assert.ok(text.includes('  // typed inside the change\n  return a * b;') && !text.includes('b * a'), text);

    const closed = write('closed-meanwhile.ts', FILE);
    const late = reviewWith(closed, proposal, { beforeChange: async () => late.review.close() });
    await late.review.acceptAll();
    assert.equal(late.how(), 'closed');
    assert.equal(await textOf(closed), FILE, 'a review closed while the checkpoint was taken writes nothing');
  });

  it('a checkpoint that cannot note the written state: the change stays, the review follows it, and the failure is told as such', async () => {
    const uri = write('after-fails.ts', FILE);
    const proposal = FILE.replace('a + b', 'b + a').replace('a * b', 'b * a');
    const { review, how } = reviewWith(uri, proposal, {
      beforeChange: async () => undefined,
      afterChange: async () => Promise.reject(new Error('disk full')),
    });
    await assert.rejects(
      review.acceptHunk(0),
      (error: Error) =>
        error.name === 'AfterChangeError' &&
        /change to apply-tests\/after-fails\.ts was written.*disk full/.test(error.message),
    );
    assert.equal(await textOf(uri), FILE.replace('a + b', 'b + a'));
    assert.equal(review.hunks.length, 1, 'the accepted change is no longer proposed');
    assert.equal(how(), undefined);
    await assert.rejects(review.acceptAll(), /was written/);
    assert.equal(await textOf(uri), proposal);
    assert.equal(how(), 'accepted');
  });

  it("the chat's applyCode message applies block n of the reply the chat holds, and the accepted change can be restored from the reply's checkpoint", async () => {
    const uri = write('fromChat.ts', FILE);
    const whole = FILE.replace('a - b', 'a - b - 0');
    const reply = `First block:\n\n\`\`\`sh\necho other\n\`\`\`\n\n\`\`\`ts apply-tests/fromChat.ts\n${whole}\`\`\`\n`;
    api.chat.attach(() => undefined);
    await setSettingAndWait('defaultModels.chat', `sim-openai/gpt-sim-mini::${scriptedReplyItem(reply)}`);
    try {
      await api.chat.handle({ type: 'newConversation' });
      await api.chat.handle({ type: 'send', text: 'Change fromChat.ts' });
      const turn = api.chat.current.turns.at(-1) as AssistantTurn;
      assert.equal(turn.content, reply);
      await api.chat.handle({ type: 'applyCode', turnId: turn.id, blockIndex: 1 });
      const [review] = api.codeApplier.reviews.active;
      assert.ok(review, 'a review opened');
      assert.equal(review.init.target.toString(), uri.toString());
      assert.equal(review.proposal, whole);
      // The accepted change is kept in the reply's checkpoint: the chat offers Restore, and it
      // brings the file back byte for byte.
      await review.acceptAll();
      await ended(review);
      assert.equal(await textOf(uri), whole);
      const ref = { conversationId: api.chat.current.id, turnId: turn.id };
      assert.deepEqual(await api.checkpoints.service.turnsWithCheckpoints(ref.conversationId), [turn.id]);
      assert.equal(await api.checkpoints.restore(ref, async () => true), 'restored');
      assert.equal(readFileSync(uri.fsPath, 'utf8'), FILE);
      // The editor that held the accepted change unsaved shows the restored file, saved.
      const document = await vscode.workspace.openTextDocument(uri);
      await waitFor(
        () => ({ text: document.getText(), dirty: document.isDirty }),
        (state) => state.text === FILE && !state.dirty,
        'the editor to show the restored file',
      );
    } finally {
      await setSetting('defaultModels.chat', undefined);
    }
  });
});
