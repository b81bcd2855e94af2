// Inline completions in the real extension host against the local gateway, whose completion model
// answers the REAL continuation of the files the test gives it (wrapped the ways real models wrap
// it), so the suggestion is checked exactly: the provider as VS Code calls it, VS Code's own inline
// suggestion path once, early stop and supersede (the gateway sees the connection close), cache and
// typing-through (no request), the workspace gate, and every switch that keeps requests away.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway, RequestRecord } from '../gateway/index';
import { scriptedReplyItem } from '../gateway/scriptedReply';
import {
  activateExtension,
  connectedGateway,
  recordNotifications,
  setKeyThroughCommand,
  setSetting,
  setSettingAndWait,
  waitFor,
} from './extensionHost';

const MODEL = 'sim-openai/gpt-sim-complete';

// The "real" files the gateway's completion model continues; the workspace gets them with holes.
const CALC = [
  "import { strict } from 'node:assert';",
  '',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export function greet(name: string): string {',
  '  const greeting = `Hello, ${name}!`;',
  '  strict.ok(greeting.length > 0);',
  '  return greeting;',
  '}',
  '',
  'export const answer = add(40, 2);',
  '',
].join('\n');

describe('inline completions: the provider against the local gateway', function () {
  this.timeout(120_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let root: string;
  let filesDir: string;
  let offByDefault: Record<string, unknown> | undefined;
  const abs = (path: string): string => join(root, path);
  const chatRequests = (): RequestRecord[] =>
    gateway.requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/messages'));

  /** Writes `text` to a workspace file and opens it (not shown: VS Code asks no provider on its own). */
  async function open(path: string, text: string): Promise<vscode.TextDocument> {
    mkdirSync(join(abs(path), '..'), { recursive: true });
    writeFileSync(abs(path), text);
    return vscode.workspace.openTextDocument(vscode.Uri.file(abs(path)));
  }

  /** A document that is CALC with the text between `from` and `to` (offsets) taken out; the cursor there. */
  async function holed(
    path: string,
    from: number,
    to = from,
  ): Promise<{ document: vscode.TextDocument; position: vscode.Position }> {
    const document = await open(path, CALC.slice(0, from) + CALC.slice(to));
    return { document, position: document.positionAt(from) };
  }

  /** Calls the provider as VS Code does; the suggestion's text, or undefined. */
  async function provide(
    document: vscode.TextDocument,
    position: vscode.Position,
    token = new vscode.CancellationTokenSource().token,
  ): Promise<string | undefined> {
    const items = await api.completions.provider.provideInlineCompletionItems(
      document,
      position,
      { triggerKind: vscode.InlineCompletionTriggerKind.Invoke, selectedCompletionInfo: undefined },
      token,
    );
    const text = (items as vscode.InlineCompletionItem[] | undefined)?.[0]?.insertText;
    return typeof text === 'string' ? text : text?.value;
  }

  const at = (text: string): number => {
    const index = CALC.indexOf(text);
    assert.ok(index >= 0, text);
    return index + text.length;
  };

  before(async () => {
    api = await activateExtension();
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('the suite opens a folder');
    filesDir = mkdtempSync(join(tmpdir(), 'uiv-completion-files-'));
    writeFileSync(join(filesDir, 'calc.ts'), CALC);
    gateway = await connectedGateway(api, { completionFiles: filesDir });
    await setSettingAndWait('completions.debounceMs', 50);
    // What happens before the user turns completions on (checked by the first test), then on.
    const { document, position } = await holed('comp/off.ts', at('  return a'));
    const before = chatRequests().length;
    const shown = await provide(document, position);
    offByDefault = {
      enabled: api.settings().completions.enabled,
      shown,
      requests: chatRequests().length - before,
      status: api.completions.statusItem.view?.text,
    };
    await setSettingAndWait('completions.model', MODEL);
    await setSettingAndWait('completions.enabled', true);
  });

  it('is off by default: no request until the user turns it on; the status item shows it', async () => {
    assert.deepEqual(offByDefault, { enabled: false, shown: undefined, requests: 0, status: '$(circle-slash)' });
    assert.equal(api.completions.statusItem.view?.text, '$(sparkle)');
  });

  beforeEach(() => {
    api.completions.controller.scheduler.cache.clear();
    api.completions.controller.scheduler.stop();
  });

  after(async () => {
    for (const key of [
      'completions.enabled',
      'completions.model',
      'completions.debounceMs',
      'completions.languages',
      'sensitiveFiles',
    ])
      await setSetting(key, undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(abs('comp'), { recursive: true, force: true });
    rmSync(filesDir, { recursive: true, force: true });
    await gateway?.stop();
  });

  it('a workspace cannot turn completions on or change them: its .vscode/settings.json is ignored for every completions setting', async () => {
    const settingsDir = join(root, '.vscode');
    const settingsFile = join(settingsDir, 'settings.json');
    const before = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    const current = before?.trim() ? (JSON.parse(before) as Record<string, unknown>) : {};
    const user = api.settings().completions;
    mkdirSync(settingsDir, { recursive: true });
    // A harmless setting in the same file: once VS Code shows it, it has read the file.
    writeFileSync(
      settingsFile,
      JSON.stringify({
        ...current,
        'unifiedInference.completions.enabled': false,
        'unifiedInference.completions.model': 'sim-openai/gpt-sim-expensive',
        'unifiedInference.completions.debounceMs': 60_000,
        'unifiedInference.completions.languages': { typescript: false },
        'unifiedInference.credits.warningThreshold': 6.5,
      }),
    );
    try {
      await waitFor(
        () => vscode.workspace.getConfiguration('unifiedInference').get('credits.warningThreshold'),
        (value) => value === 6.5,
        'VS Code reading the workspace settings file',
      );
      assert.deepEqual(api.settings().completions, user, "the user's completions settings stand");
      const { document, position } = await holed('comp/workspace.ts', at('  return a'), at('  return a + b;'));
      assert.equal(await provide(document, position), ' + b;', "on, with the user's model and pace");
    } finally {
      writeFileSync(settingsFile, before ?? '{}');
      await waitFor(
        () => vscode.workspace.getConfiguration('unifiedInference').get('credits.warningThreshold'),
        (value) => value !== 6.5,
        'the workspace settings restored',
      );
    }
  });

  it('a line: exactly the rest of the real line; the stream is stopped (the gateway sees the connection close before it sent everything)', async () => {
    const { document, position } = await holed('comp/line.ts', at('  return a'), at('  return a + b;'));
    const before = chatRequests().length;
    assert.equal(await provide(document, position), ' + b;');
    const records = chatRequests().slice(before);
    assert.equal(records.length, 1);
    const body = records[0]?.body as Record<string, unknown> | undefined;
    assert.equal(body?.temperature, 0.1);
    assert.equal(body?.tools, undefined);
    assert.equal(await records[0]?.closed, 'aborted', 'stopped as soon as the line was complete');
  });

  it('a block at an empty line after a signature: the real body, bracket-balanced, without the closing line the suffix has', async () => {
    // The user pressed Enter after the brace: an empty line, the closing brace below it.
    const start = at('export function greet(name: string): string {\n');
    const { document, position } = await holed('comp/block.ts', start, at('  return greeting;'));
    assert.equal(
      await provide(document, position),
      '  const greeting = `Hello, ${name}!`;\n  strict.ok(greeting.length > 0);\n  return greeting;',
    );
  });

  it('a CRLF document: the model sees LF (the real continuation is found), the suggestion comes in CRLF, typing through goes past a line break', async () => {
    const start = at('export function greet(name: string): string {\n');
    const crlf = (text: string): string => text.replace(/\n/g, '\r\n');
    const document = await open(
      'comp/crlf.ts',
      crlf(CALC.slice(0, start)) + crlf(CALC.slice(at('  return greeting;'))),
    );
    assert.equal(document.eol, vscode.EndOfLine.CRLF);
    const position = document.positionAt(crlf(CALC.slice(0, start)).length);
    const before = chatRequests().length;
    assert.equal(
      await provide(document, position),
      '  const greeting = `Hello, ${name}!`;\r\n  strict.ok(greeting.length > 0);\r\n  return greeting;',
    );
    assert.ok(!JSON.stringify(chatRequests().slice(before)[0]?.body).includes('\\r\\n'), 'no CRLF in the prompt');
    const typed = '  const greeting = `Hello, ${name}!`;\r\n  str';
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, position, typed);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const through = api.completions.controller.figures().typedThrough;
    assert.equal(
      await provide(document, document.positionAt(document.offsetAt(position) + typed.length)),
      'ict.ok(greeting.length > 0);\r\n  return greeting;',
    );
    assert.equal(api.completions.controller.figures().typedThrough, through + 1);
    assert.equal(chatRequests().length, before + 1, 'typing through sent nothing');
  });

  for (const wrap of ['fence', 'prefix', 'overlap', 'explain', 'fence+explain+prefix']) {
    it(`the model wraps its answer (${wrap}): exactly the real continuation is shown`, async () => {
      await setSettingAndWait('completions.model', `${MODEL}::wrap=${wrap}`);
      try {
        const { document, position } = await holed(
          `comp/wrap-${wrap.replace(/\+/g, '-')}.ts`,
          at('  return a'),
          at('  return a + b;'),
        );
        assert.equal(await provide(document, position), ' + b;');
      } finally {
        await setSettingAndWait('completions.model', MODEL);
      }
    });
  }

  it('asking at the same place again, and typing through the suggestion, send no request', async () => {
    const { document, position } = await holed('comp/reuse.ts', at('  return a'), at('  return a + b;'));
    assert.equal(await provide(document, position), ' + b;');
    const before = chatRequests().length;
    const hitsBefore = api.completions.controller.figures().cacheHits;
    api.completions.controller.scheduler.forgetShown(); // the cache must answer, not typing-through
    assert.equal(await provide(document, position), ' + b;');
    assert.equal(api.completions.controller.figures().cacheHits, hitsBefore + 1);
    // Type " +" (what the suggestion says): the rest shows, from the suggestion itself.
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, position, ' +');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const throughBefore = api.completions.controller.figures().typedThrough;
    assert.equal(await provide(document, position.translate(0, 2)), ' b;');
    assert.equal(api.completions.controller.figures().typedThrough, throughBefore + 1);
    assert.equal(chatRequests().length, before, 'no request for either');
  });

  it('a newer place supersedes the request in flight: its connection closes', async () => {
    // The first place's request waits for its headers; the model is back to normal for the next one.
    await setSettingAndWait('completions.model', `${MODEL}::delay-headers=30000`);
    try {
      const slow = await open('comp/slow.js', 'export function add(a, b) {\n  return slowmark');
      const first = provide(slow, slow.positionAt(slow.getText().length));
      const record = await gateway.waitForRequest((r) => JSON.stringify(r.body ?? '').includes('slowmark'), 20_000);
      await setSettingAndWait('completions.model', MODEL);
      const { document, position } = await holed('comp/fast.ts', at('  return a'), at('  return a + b;'));
      const second = provide(document, position);
      assert.equal(await record.closed, 'aborted', 'the superseded request was aborted');
      assert.equal(await first, undefined);
      assert.equal(
        await second,
        ' + b;',
        JSON.stringify({
          figures: api.completions.controller.figures(),
          requests: chatRequests()
            .slice(-3)
            .map((r) => [r.status, r.fault, JSON.stringify(r.body).slice(-300)]),
        }),
      );
      assert.ok(api.completions.controller.figures().aborted >= 1);
    } finally {
      await setSettingAndWait('completions.model', MODEL);
    }
  });

  it('a cancelled ask (VS Code no longer wants it) stops its request', async () => {
    await setSettingAndWait('completions.model', `${MODEL}::delay-headers=30000`);
    try {
      const document = await open('comp/cancel.ts', '// cancelmark\nexport const x = ');
      const source = new vscode.CancellationTokenSource();
      const asked = provide(document, document.positionAt(document.getText().length), source.token);
      const record = await gateway.waitForRequest((r) => JSON.stringify(r.body ?? '').includes('cancelmark'), 20_000);
      source.cancel();
      assert.equal(await record.closed, 'aborted');
      assert.equal(await asked, undefined);
    } finally {
      await setSettingAndWait('completions.model', MODEL);
    }
  });

  it('the gate: sensitive and ignored neighbours never appear in a request, a good one does; untrusted: no neighbour', async () => {
    await setSettingAndWait('sensitiveFiles', ['**/secret-*.ts']);
    try {
      writeFileSync(abs('comp/.gitignore'), 'ignored.ts\n');
      const neighbours = [
        await open('comp/.env.ts', 'export const TOKEN = "NEEDLE-ENV-1";\n'),
        await open('comp/secret-keys.ts', 'export const KEY = "NEEDLE-SECRET-2";\n'),
        await open('comp/ignored.ts', 'export const IGNORED = "NEEDLE-IGNORED-3";\n'),
        await open('comp/helper.ts', 'export const HELPER = "OKMARK-HELPER";\n'),
      ];
      // Edited lately: each is a candidate for a snippet.
      for (const neighbour of neighbours) {
        const edit = new vscode.WorkspaceEdit();
        edit.insert(neighbour.uri, new vscode.Position(0, 0), '// edited\n');
        assert.ok(await vscode.workspace.applyEdit(edit));
      }
      const { document, position } = await holed('comp/gate.ts', at('  return a'), at('  return a + b;'));
      const before = chatRequests().length;
      assert.equal(await provide(document, position), ' + b;');
      const sent = chatRequests()
        .slice(before)
        .map((r) => JSON.stringify(r.body));
      assert.equal(sent.length, 1);
      assert.match(sent[0] ?? '', /OKMARK-HELPER/, 'a neighbour the gate admits is sent');
      assert.doesNotMatch(sent[0] ?? '', /NEEDLE-/);

      // Restricted Mode: the document's own text only.
      const trusted = Object.getOwnPropertyDescriptor(vscode.workspace, 'isTrusted');
      Object.defineProperty(vscode.workspace, 'isTrusted', { get: () => false, configurable: true });
      try {
        api.completions.controller.scheduler.cache.clear();
        api.completions.controller.scheduler.forgetShown();
        const untrustedBefore = chatRequests().length;
        assert.equal(await provide(document, position), ' + b;');
        const body = JSON.stringify(chatRequests().slice(untrustedBefore)[0]?.body);
        assert.doesNotMatch(body, /OKMARK-HELPER/);
        assert.match(body, /return a/);
      } finally {
        if (trusted) Object.defineProperty(vscode.workspace, 'isTrusted', trusted);
      }
    } finally {
      await setSettingAndWait('sensitiveFiles', undefined);
    }
  });

  it('a hostile answer (an endless line, one giant line) shows nothing and does not pause completions', async () => {
    const hostile = [
      `${MODEL}::endless-line`,
      `sim-openai/gpt-sim-mini::${scriptedReplyItem('xxxxxxx '.repeat(6_000))}`,
    ];
    for (const [index, model] of hostile.entries()) {
      await setSettingAndWait('completions.model', model);
      try {
        const { document, position } = await holed(
          `comp/hostile-${index}.ts`,
          at('export function greet(name: string): string {\n'),
          at('  return greeting;'),
        );
        const before = chatRequests().length;
        assert.equal(await provide(document, position), undefined, model.slice(0, 60));
        assert.equal(chatRequests().length, before + 1);
        // The endless line is cut by the client (the connection closes); one giant line is no code (max_tokens
        // ends it at the gateway; the completion's own bound, MAX_COMPLETION_RAW_CHARS, is unit-tested).
        if (index === 0) assert.equal(await chatRequests().at(-1)?.closed, 'aborted');
        assert.equal(api.completions.controller.state.kind, 'on');
      } finally {
        await setSettingAndWait('completions.model', MODEL);
      }
    }
  });

  it('a sensitive or ignored document gets no completion at all: no request', async () => {
    writeFileSync(abs('comp/.gitignore'), 'ignored-doc.ts\n');
    const before = chatRequests().length;
    for (const path of ['comp/.env.local.ts', 'comp/ignored-doc.ts']) {
      const { document, position } = await holed(path, at('  return a'), at('  return a + b;'));
      assert.equal(await provide(document, position), undefined, path);
    }
    assert.equal(chatRequests().length, before);
  });

  it('no request for documents that are not files, with a selection, for a language turned off, or while snoozed', async () => {
    const before = chatRequests().length;
    // A virtual document (as output, git and settings views are).
    const provider = vscode.workspace.registerTextDocumentContentProvider('uiv-virtual', {
      provideTextDocumentContent: () => CALC.slice(0, at('  return a')),
    });
    try {
      const virtual = await vscode.workspace.openTextDocument(vscode.Uri.parse('uiv-virtual:/calc.ts'));
      await vscode.languages.setTextDocumentLanguage(virtual, 'typescript');
      const reopened = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'uiv-virtual') ?? virtual;
      assert.equal(await provide(reopened, reopened.positionAt(reopened.getText().length)), undefined);
      assert.equal(
        vscode.languages.match(
          [
            { scheme: 'file', pattern: '**' },
            { scheme: 'untitled', pattern: '**' },
          ],
          reopened,
        ),
        0,
      );
    } finally {
      provider.dispose();
    }
    // A selection.
    const { document, position } = await holed('comp/selection.ts', at('  return a'), at('  return a + b;'));
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(position.translate(0, -1), position);
    assert.equal(await provide(document, position), undefined);
    editor.selection = new vscode.Selection(position, position);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // The language turned off.
    await vscode.commands.executeCommand('unifiedInference.completions.toggleLanguage', 'typescript', false);
    await waitFor(
      () => api.settings().completions.languages.typescript,
      (on) => on === false,
      'the language setting',
    );
    assert.equal(await provide(document, position), undefined);
    await vscode.commands.executeCommand('unifiedInference.completions.toggleLanguage', 'typescript', true);
    await waitFor(
      () => api.settings().completions.languages.typescript,
      (on) => on === true,
      'the language setting',
    );
    // Snoozed.
    await vscode.commands.executeCommand('unifiedInference.completions.snooze', 5);
    assert.equal(api.completions.controller.state.kind, 'snoozed');
    assert.equal(api.completions.statusItem.view?.text, '$(clock)');
    assert.equal(await provide(document, position), undefined);
    await vscode.commands.executeCommand('unifiedInference.completions.snooze', 0);
    assert.equal(chatRequests().length, before, 'not one request');
    // And with all that undone, the same place asks.
    assert.equal(await provide(document, position), ' + b;');
    assert.equal(chatRequests().length, before + 1);
  });

  it('a refused key pauses completions (one notice, the status item says why); no request while paused; a new key resumes', async () => {
    const notices = recordNotifications();
    await setSettingAndWait('completions.model', `${MODEL}::status=401`);
    try {
      const { document, position } = await holed('comp/pause.ts', at('  return a'), at('  return a + b;'));
      assert.equal(await provide(document, position), undefined);
      assert.equal(api.completions.controller.state.kind, 'paused');
      assert.equal(api.completions.statusItem.view?.text, '$(debug-pause)');
      assert.match(api.completions.statusItem.view?.label ?? '', /refused the API key/);
      await waitFor(
        () => notices.shown.length,
        (n) => n >= 1,
        'the notice',
      );
      const before = chatRequests().length;
      const moved = await holed(
        'comp/pause2.ts',
        at('  return a + b;\n}\n\nexport function greet(name: string): string {\n  const greeting'),
      );
      assert.equal(await provide(moved.document, moved.position), undefined);
      assert.equal(chatRequests().length, before, 'no request while paused');
      assert.equal(
        notices.shown.filter((n) => /inline completions are paused/i.test(n.message)).length,
        1,
        'one notice',
      );
      await setSettingAndWait('completions.model', MODEL);
      await setKeyThroughCommand(gateway.apiKey);
      await waitFor(
        () => api.completions.controller.state.kind,
        (kind) => kind === 'on',
        'resumed by the new key',
      );
      assert.equal(await provide(document, position), ' + b;');
    } finally {
      notices.restore();
      await setSettingAndWait('completions.model', MODEL);
    }
  });

  it('a rate limit pauses too, without a notice: one request per 429 (no retry), the pause honours a long Retry-After', async () => {
    const notices = recordNotifications();
    // A short Retry-After is one the client would otherwise sleep through and retry (twice).
    await setSettingAndWait('completions.model', `${MODEL}::status=429;retry-after=1`);
    try {
      const { document, position } = await holed('comp/rate.ts', at('  return a'), at('  return a + b;'));
      let before = chatRequests().length;
      assert.equal(await provide(document, position), undefined);
      assert.equal(chatRequests().length, before + 1, 'exactly one request: a completion is never retried');
      api.completions.controller.scheduler.resume();
      await setSettingAndWait('completions.model', `${MODEL}::status=429;retry-after=120`);
      before = chatRequests().length;
      const asked = Date.now();
      assert.equal(await provide(document, position), undefined);
      assert.equal(chatRequests().length, before + 1);
      const state = api.completions.controller.state;
      assert.equal(state.kind === 'paused' ? state.pause.reason : state.kind, 'rateLimited');
      assert.ok(state.kind === 'paused' && state.pause.until >= asked + 120_000, 'paused for the whole Retry-After');
      const moved = await holed(
        'comp/rate2.ts',
        at('  return a + b;\n}\n\nexport function greet(name: string): string {\n  const greeting'),
      );
      assert.equal(await provide(moved.document, moved.position), undefined);
      assert.equal(chatRequests().length, before + 1, 'no request while paused');
      assert.equal(notices.shown.length, 0);
    } finally {
      notices.restore();
      api.completions.controller.scheduler.resume();
      await setSettingAndWait('completions.model', MODEL);
    }
  });

  it('the spend of completions reaches the credits tooltip', async () => {
    const spentBefore = api.completions.controller.figures().spentUsd;
    const { document, position } = await holed('comp/spend.ts', at('  return a'), at('  return a + b;'));
    assert.equal(await provide(document, position), ' + b;');
    assert.ok(api.completions.controller.figures().spentUsd > spentBefore, 'this request is priced from the catalog');
    assert.ok(api.credits.spend().completions !== undefined);
    await waitFor(
      () => api.creditsItem.presentation?.tooltip ?? '',
      (tooltip) => /Inline completions this session: /.test(tooltip),
      'the completions line in the credits tooltip',
    );
  });

  it('through VS Code itself: the trigger command shows the suggestion and accepting inserts it', async () => {
    const { document, position } = await holed('comp/real.ts', at('  return a'), at('  return a + b;'));
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(position, position);
    const shownBefore = api.completions.controller.figures().shown;
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await waitFor(
      () => api.completions.controller.figures().shown,
      (n) => n > shownBefore,
      'the suggestion',
    );
    const line = (): string => document.lineAt(position.line).text;
    // Accepting can race the widget's rendering: commit until the line changes (bounded by waitFor).
    await waitFor(
      async () => {
        await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
        return line();
      },
      (text) => text === '  return a + b;',
      'the accepted suggestion',
    );
    await waitFor(
      () => api.completions.controller.figures().acceptedChars,
      (n) => n >= ' + b;'.length,
      'the accepted count',
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
