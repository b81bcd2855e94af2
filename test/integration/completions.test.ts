// Inline completions in the real extension host against the local gateway, whose completion model
// answers the REAL continuation of the files the test gives it (wrapped the ways real models wrap
// it), so the suggestion is checked exactly: the provider as VS Code calls it, VS Code's own inline
// suggestion path once, early stop and supersede (the gateway sees the connection close), cache and
// typing-through (no request), the workspace gate, and every switch that keeps requests away.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway, RequestRecord } from '../gateway/index';
import { activateExtension, connectedGateway, recordNotifications, setKeyThroughCommand, setSetting, setSettingAndWait, waitFor } from './extensionHost';

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
  const abs = (path: string): string => join(root, path);
  const chatRequests = (): RequestRecord[] => gateway.requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/messages'));

  /** Writes `text` to a workspace file and opens it (not shown: VS Code asks no provider on its own). */
  async function open(path: string, text: string): Promise<vscode.TextDocument> {
    mkdirSync(join(abs(path), '..'), { recursive: true });
    writeFileSync(abs(path), text);
    return vscode.workspace.openTextDocument(vscode.Uri.file(abs(path)));
  }

  /** A document that is CALC with the text between `from` and `to` (offsets) taken out; the cursor there. */
  async function holed(path: string, from: number, to = from): Promise<{ document: vscode.TextDocument; position: vscode.Position }> {
    const document = await open(path, CALC.slice(0, from) + CALC.slice(to));
    return { document, position: document.positionAt(from) };
  }

  /** Calls the provider as VS Code does; the suggestion's text, or undefined. */
  async function provide(document: vscode.TextDocument, position: vscode.Position, token = new vscode.CancellationTokenSource().token): Promise<string | undefined> {
    const items = await api.completions.provider.provideInlineCompletionItems(document, position, { triggerKind: vscode.InlineCompletionTriggerKind.Invoke, selectedCompletionInfo: undefined }, token);
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
  });

  beforeEach(() => {
    api.completions.controller.scheduler.cache.clear();
    api.completions.controller.scheduler.stop();
  });

  after(async () => {
    for (const key of ['completions.enabled', 'completions.model', 'completions.debounceMs', 'completions.languages', 'sensitiveFiles']) await setSetting(key, undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(abs('comp'), { recursive: true, force: true });
    rmSync(filesDir, { recursive: true, force: true });
    await gateway?.stop();
  });

  it('is off by default: no request until the user turns it on', async () => {
    assert.equal(api.settings().completions.enabled, false);
    const { document, position } = await holed('comp/off.ts', at('  return a'));
    const before = chatRequests().length;
    assert.equal(await provide(document, position), undefined);
    assert.equal(chatRequests().length, before);
    assert.equal(api.completions.statusItem.view?.text, '$(circle-slash)');
    await setSettingAndWait('completions.model', MODEL);
    await setSettingAndWait('completions.enabled', true);
    assert.equal(api.completions.statusItem.view?.text, '$(sparkle)');
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
});
