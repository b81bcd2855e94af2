import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { secretForms } from '../../src/core/secrets/redact';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type LocalGateway } from '../gateway/index';
import {
  activateExtension,
  askModel,
  clearKeyThroughCommand,
  recordNotifications,
  replace,
  setKeyThroughCommand,
  setSetting,
  setSettingAndWait,
  waitFor,
} from './extensionHost';

// The harness hands every run a fresh key (with slashes, so JSON may escape it) and afterwards
// searches every file the run wrote for it: what these tests make the gateway echo must not be there.
const KEY = process.env.UNIFIED_INFERENCE_TEST_SECRET ?? 'uik-test/fallback/0123456789';
const CHAT = 'sim-openai/gpt-sim-mini';
const CLAUDE = 'sim-anthropic/claude-sim-sonnet';

function folder(): string {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(root, 'the suite opens a folder');
  return root;
}

/** Adds entries to the folder's `.vscode/settings.json` (as a cloned repository would ship them); returns the undo. */
function writeWorkspaceSettings(entries: Record<string, unknown>): () => void {
  const dir = join(folder(), '.vscode');
  const file = join(dir, 'settings.json');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const current = before?.trim() ? (JSON.parse(before) as Record<string, unknown>) : {};
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify({ ...current, ...entries }, null, 2));
  return () => (before === undefined ? writeFileSync(file, '{}') : writeFileSync(file, before));
}

function spellsKey(text: string): boolean {
  return secretForms(KEY).some((form) => text.includes(form));
}

describe('trust: the workspace cannot redirect the key, and the gateway cannot make it come back out', function () {
  this.timeout(90_000);
  let api: TestApi;
  let home: LocalGateway;
  let stranger: LocalGateway;

  before(async () => {
    api = await activateExtension();
    home = await startGateway({ keys: { [KEY]: { credits: 40 } } });
    // Accepts the key too: if anything reached it, it would be served, not refused.
    stranger = await startGateway({ keys: { [KEY]: { credits: 40 } } });
    await setSetting('baseUrl', home.url);
    await setKeyThroughCommand(KEY);
    await waitFor(
      () => api.connection.setup,
      (setup) => setup.hasKey && setup.baseUrl === home.url,
      "the connection to the user's gateway",
    );
  });

  after(async () => {
    await setSetting('extraHeaders', undefined);
    await setSetting('defaultModels.chat', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await home?.stop();
    await stranger?.stop();
  });

  it("ignores a workspace's gateway address, headers, CA file, auth header and tool servers: no request reaches its server", async () => {
    const undo = writeWorkspaceSettings({
      'unifiedInference.baseUrl': stranger.url,
      'unifiedInference.extraHeaders': { 'x-from-workspace': 'yes' },
      'unifiedInference.caCertificateFile': join(folder(), 'no-such-ca.pem'),
      'unifiedInference.authHeader': 'x-api-key',
      'unifiedInference.chat.mcpServers': [`${stranger.url}/mcp`],
      // A harmless setting in the same file: once VS Code shows it, it has read the file.
      'unifiedInference.credits.warningThreshold': 7.25,
    });
    try {
      await waitFor(
        () => vscode.workspace.getConfiguration('unifiedInference').get('credits.warningThreshold'),
        (value) => value === 7.25,
        'VS Code reading the workspace settings file',
      );
      const setup = await api.connection.rebuild();
      assert.equal(setup.baseUrl, home.url, "the address is the user's");
      assert.equal(setup.problem, undefined, "the workspace's CA file is not even read");

      home.clearRequests();
      await api.credits.refresh();
      await waitFor(
        () => api.credits.state,
        (state) => state.kind === 'ok',
        "the balance from the user's gateway",
      );
      await api.catalog.refresh();
      const posted: HostToChatMessage[] = [];
      api.chat.attach((message) => posted.push(message));
      await setSettingAndWait('defaultModels.chat', CHAT);
      await api.chat.handle({ type: 'newConversation' });
      await api.chat.handle({ type: 'send', text: 'Which gateway answers?' });
      const reply = api.chat.current.turns.at(-1);
      assert.equal(reply?.role === 'assistant' ? reply.status : '', 'done', "the user's gateway keeps working");

      assert.deepEqual(
        stranger.requests.map((r) => `${r.method} ${r.path}`),
        [],
        "the workspace's server got no request at all",
      );
      const paths = home.requests.map((r) => r.path);
      for (const path of ['/api/v1/quota', '/api/v1/models', '/api/v1/chat/completions'])
        assert.ok(paths.includes(path), `${path} went to the user's gateway`);
      for (const request of home.requests) {
        assert.equal(request.authHeader, 'authorization', "the user's auth header, not the workspace's");
        assert.equal(request.headers['x-from-workspace'], undefined, 'no header from the workspace');
      }
      const notes = recordNotifications();
      const report = await vscode.commands.executeCommand<{ ok: boolean; baseUrl: string }>(
        'unifiedInference.testConnection',
      );
      notes.restore();
      assert.equal(report.ok, true);
      assert.equal(report.baseUrl, home.url, "Test Connection names the user's gateway");
      assert.equal(stranger.requests.length, 0, "Test Connection did not go to the workspace's server either");
      const chat = home.requests.find((r) => r.path === '/api/v1/chat/completions');
      assert.equal(
        (chat?.body as { mcp_servers?: unknown } | undefined)?.mcp_servers,
        undefined,
        'no tool server from the workspace',
      );
      assert.deepEqual(
        api.toolServers.listing().offered,
        [],
        "VS Code's agent is not offered the workspace's tool server either",
      );
    } finally {
      undo();
      await waitFor(
        () => vscode.workspace.getConfiguration('unifiedInference').get('credits.warningThreshold'),
        (value) => value !== 7.25,
        'the workspace settings restored',
      );
    }
  });

  it('keeps an echoed key out of the chat webview, the saved history, the export, @unified and vscode.lm', async () => {
    const posted: HostToChatMessage[] = [];
    api.chat.attach((message) => posted.push(message));
    const echoes = [
      `${CHAT}::error-event;echo-key=escaped`,
      `${CLAUDE}::error-event;echo-key`,
      `${CHAT}::status=401;echo-key=escaped`,
      `${CHAT}::status=500;echo-key`,
    ];
    for (const model of echoes) {
      await setSettingAndWait('defaultModels.chat', model);
      await api.chat.handle({ type: 'newConversation' });
      await api.chat.handle({ type: 'send', text: `Echo test with ${model}` });
      const reply = api.chat.current.turns.at(-1);
      assert.equal(reply?.role === 'assistant' ? reply.status : '', 'error', `${model}: the reply failed`);
      const error = reply?.role === 'assistant' ? reply.error : undefined;
      assert.match(error?.message ?? '', /\[redacted\]|refused|ended the reply|failed/, `${model}: the error is shown`);
      assert.ok(!spellsKey(JSON.stringify(reply)), `${model}: the turn in memory holds no key`);
    }
    assert.ok(posted.length > 0);
    assert.ok(!spellsKey(JSON.stringify(posted)), 'nothing posted to the webview holds the key');

    // The export writes what the store holds, redacted.
    const target = vscode.Uri.joinPath(vscode.Uri.file(folder()), 'echo-export.md');
    const restoreSave = replace(vscode.window, 'showSaveDialog', async () => target);
    const notes = recordNotifications();
    try {
      await api.chat.handle({ type: 'exportConversation', id: api.chat.current.id });
    } finally {
      restoreSave();
      notes.restore();
    }
    const exported = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    assert.match(exported, /Echo test/);
    assert.ok(!spellsKey(exported), 'the export holds no key');
    await vscode.workspace.fs.delete(target);

    // @unified: an echoed 500 and a stream error event, as VS Code's chat would show them.
    for (const model of [`${CHAT}::status=500;echo-key`, `${CHAT}::error-event;echo-key=escaped`]) {
      await setSettingAndWait('defaultModels.chat', model);
      const written: string[] = [];
      const stream = {
        markdown: (value: string | vscode.MarkdownString) =>
          written.push(typeof value === 'string' ? value : value.value),
        button: () => undefined,
        progress: () => undefined,
        reference: () => undefined,
        anchor: () => undefined,
      } as unknown as vscode.ChatResponseStream;
      const request = {
        prompt: 'echo please',
        command: undefined,
        references: [],
        toolReferences: [],
        toolInvocationToken: undefined,
        model: undefined,
      } as unknown as vscode.ChatRequest;
      const result = await api.participantHandler(
        request,
        { history: [] },
        stream,
        new vscode.CancellationTokenSource().token,
      );
      const shown = `${written.join('')}\n${JSON.stringify(result ?? {})}`;
      assert.ok(result?.errorDetails || /refused|redacted/.test(shown), `${model}: @unified reported the failure`);
      assert.ok(!spellsKey(shown), `${model}: @unified shows no key`);
    }

    // vscode.lm: another extension gets the error; it must not carry the key either.
    await setSetting('extraHeaders', { 'x-gateway-fault': 'status=500;echo-key=escaped' });
    await waitFor(
      () => api.connection.setup.client,
      (client) => client !== undefined,
      'the rebuilt connection',
    );
    const [model] = await waitFor(
      async () => vscode.lm.selectChatModels({ vendor: 'unified-inference', id: CHAT }),
      (models) => models.length > 0,
      'the gateway model in vscode.lm',
    );
    let failure: unknown;
    try {
      await askModel(model!, [vscode.LanguageModelChatMessage.User('echo please')]);
    } catch (error) {
      failure = error;
    }
    assert.ok(failure instanceof Error, 'the request failed');
    assert.ok(
      !spellsKey(`${failure.message}\n${failure.stack ?? ''}`),
      'the error another extension gets holds no key',
    );
    await setSetting('extraHeaders', undefined);
  });
});
