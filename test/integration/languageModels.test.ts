import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { contextBudget } from '../../src/core/context/contextBudget';
import { DEFAULT_CONTEXT_LENGTH } from '../../src/core/languageModels/modelInformation';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type LocalGateway } from '../gateway/index';
import {
  activateExtension,
  askModel,
  clearKeyThroughCommand,
  setKeyThroughCommand,
  setSetting,
  waitFor,
} from './extensionHost';
import { closedPort } from '../harness/closedPort';

const VENDOR = 'unified-inference';

async function gatewayModels(): Promise<vscode.LanguageModelChat[]> {
  return vscode.lm.selectChatModels({ vendor: VENDOR });
}

describe("the gateway's models in VS Code's language model API", function () {
  this.timeout(60_000);
  let api: TestApi;
  let gateway: LocalGateway;

  before(async () => {
    api = await activateExtension();
    gateway = await startGateway({ keys: { 'sim-empty-key': { credits: 0 } } });
    await setSetting('baseUrl', gateway.url);
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(
      () => api.connection.setup,
      (setup) => setup.baseUrl === gateway.url && setup.hasKey,
      'the connection',
    );
  });

  after(async () => {
    await setSetting('extraHeaders', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it("lists the gateway's chat models (and only those) through vscode.lm.selectChatModels", async () => {
    const models = await waitFor(gatewayModels, (list) => list.length > 0, 'the gateway models');
    const ids = models.map((model) => model.id);
    assert.ok(ids.includes('sim-openai/gpt-sim-mini'), ids.join(', '));
    assert.ok(ids.includes('sim-anthropic/claude-sim-sonnet'));
    assert.ok(!ids.some((id) => /embed|rerank|tts|whisper|image/.test(id)), `no non-chat models: ${ids.join(', ')}`);
    const mini = models.find((model) => model.id === 'sim-openai/gpt-sim-mini')!;
    assert.equal(mini.vendor, VENDOR);
    assert.ok(mini.maxInputTokens > 0);
    assert.ok((await mini.countTokens('four score and seven years ago')) > 0, 'a token estimate');
  });

  it('offers chat models whose id gives no hint, and a category override moves a model out of chat and into it', async () => {
    const ids = async (): Promise<string[]> => (await gatewayModels()).map((model) => model.id);
    const listed = await waitFor(
      ids,
      (list) => list.includes('sim-anthropic/sonnet-sim-4.5'),
      'the no-hint chat models',
    );
    assert.ok(listed.includes('sim-amazon/nova-sim-pro-v1'), listed.join(', '));
    assert.ok(!listed.includes('sim-amazon/nova-sim-canvas-v1'), 'an image model said so by its catalog fields only');
    const sonnet = (await gatewayModels()).find((model) => model.id === 'sim-anthropic/sonnet-sim-4.5')!;
    const answer = await askModel(sonnet, [vscode.LanguageModelChatMessage.User('Hello from a model without a hint')]);
    assert.match(answer.text, /simulation/i, 'it answers too');

    const catalogModel = (id: string) => ({ model: api.catalog.model(id)! });
    try {
      await vscode.commands.executeCommand(
        'unifiedInference.models.changeCategory',
        catalogModel('sim-amazon/nova-sim-pro-v1'),
        'embedding',
      );
      await vscode.commands.executeCommand(
        'unifiedInference.models.changeCategory',
        catalogModel('sim-amazon/nova-sim-canvas-v1'),
        'chat',
      );
      const moved = await waitFor(
        ids,
        (list) => !list.includes('sim-amazon/nova-sim-pro-v1') && list.includes('sim-amazon/nova-sim-canvas-v1'),
        'the overrides in vscode.lm',
      );
      assert.ok(moved.includes('sim-anthropic/sonnet-sim-4.5'));
      const written = vscode.workspace
        .getConfiguration('unifiedInference')
        .inspect<Record<string, string>>('models.categoryOverrides');
      assert.deepEqual(
        written?.globalValue,
        { 'sim-amazon/nova-sim-pro-v1': 'embedding', 'sim-amazon/nova-sim-canvas-v1': 'chat' },
        'written to the user settings',
      );
      assert.equal(written?.workspaceValue, undefined);
      assert.ok(
        api.models
          .groups()
          .find((group) => group.category === 'embedding')
          ?.providers.some((p) => p.models.some((m) => m.id === 'sim-amazon/nova-sim-pro-v1')),
        'the Models view moved it too',
      );
      // Back to the catalog's category: the entry is removed, not pinned.
      await vscode.commands.executeCommand(
        'unifiedInference.models.changeCategory',
        catalogModel('sim-amazon/nova-sim-pro-v1'),
        'auto',
      );
      await vscode.commands.executeCommand(
        'unifiedInference.models.changeCategory',
        catalogModel('sim-amazon/nova-sim-canvas-v1'),
        'image',
      );
      await waitFor(
        ids,
        (list) => list.includes('sim-amazon/nova-sim-pro-v1') && !list.includes('sim-amazon/nova-sim-canvas-v1'),
        'the catalog categories again',
      );
      assert.equal(
        vscode.workspace.getConfiguration('unifiedInference').inspect('models.categoryOverrides')?.globalValue,
        undefined,
        'no entries left',
      );
    } finally {
      await setSetting('models.categoryOverrides', undefined);
    }
  });

  it("states each model's context and output limits and tool calling from the catalog, and notes the usage of an answer", async () => {
    const models = await waitFor(
      gatewayModels,
      (list) => list.some((model) => model.id === 'sim-openai/gpt-sim-tiny'),
      'the gateway models',
    );
    const byId = (id: string): vscode.LanguageModelChat => {
      const found = models.find((model) => model.id === id);
      assert.ok(found, `${id} is listed`);
      return found;
    };
    // The catalog's context_length (and max_output_tokens where listed), through the chat panel's budget.
    const tiny = byId('sim-openai/gpt-sim-tiny');
    assert.equal(tiny.maxInputTokens, contextBudget(2048).input);
    assert.ok(tiny.maxInputTokens < 2048);
    const sonnet = byId('sim-anthropic/claude-sim-sonnet');
    assert.equal(sonnet.maxInputTokens, contextBudget(200000, 64000).input);
    // A model whose catalog entry lists no limit gets the stated default, not a guess per model.
    assert.equal(byId('sim-google/gemini-sim-flash').maxInputTokens, contextBudget(DEFAULT_CONTEXT_LENGTH).input);
    for (const model of models) {
      const capabilities = (model as unknown as { capabilities?: { supportsToolCalling?: boolean } }).capabilities;
      assert.equal(
        capabilities?.supportsToolCalling,
        true,
        `${model.id}: no catalog entry of the local gateway takes tools away`,
      );
    }

    const mini = byId('sim-openai/gpt-sim-mini');
    const text = 'Count these words for the usage figure.';
    const estimate = await mini.countTokens(text);
    assert.equal(estimate, Math.ceil(text.length / 3), "core's estimate: three characters a token");
    assert.ok(
      (await mini.countTokens(vscode.LanguageModelChatMessage.User(text))) > estimate,
      'a message costs its role overhead too',
    );
    gateway.clearRequests();
    await askModel(mini, [vscode.LanguageModelChatMessage.User(text)]);
    const usage = await waitFor(
      () => api.languageModels.lastUsage,
      (seen) => seen?.model === mini.id,
      'the usage of the answer',
    );
    assert.ok(usage && usage.promptTokens > 0 && usage.completionTokens > 0, JSON.stringify(usage));
    const sent = gateway.requests.find((record) => record.path === '/api/v1/chat/completions')?.body as
      { stream_options?: { include_usage?: boolean } } | undefined;
    assert.equal(sent?.stream_options?.include_usage, true, 'the usage was asked for');
  });

  it('streams an answer', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'sim-openai/gpt-sim-mini' });
    assert.ok(model);
    const { text } = await askModel(model, [
      vscode.LanguageModelChatMessage.User('Explain streaming in one paragraph.'),
    ]);
    assert.match(text, /simulat/i, "the local gateway's simulated answer arrived");
    assert.ok(text.length > 40);
  });

  for (const id of ['sim-openai/gpt-sim-mini', 'sim-anthropic/claude-sim-sonnet']) {
    it(`runs a tool-calling round trip with ${id} (${id.includes('anthropic') ? '/messages' : '/chat/completions'})`, async () => {
      const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id });
      assert.ok(model);
      const tools: vscode.LanguageModelChatTool[] = [
        {
          name: 'read_file',
          description: 'Read a workspace file',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        },
      ];
      const question = vscode.LanguageModelChatMessage.User('Please use read_file on README.md and summarise it.');
      const first = await askModel(model, [question], { tools });
      assert.equal(first.calls.length, 1, `one tool call (text: ${first.text})`);
      const call = first.calls[0]!;
      assert.equal(call.name, 'read_file');
      assert.equal(typeof (call.input as { path?: unknown }).path, 'string');
      const second = await askModel(
        model,
        [
          question,
          vscode.LanguageModelChatMessage.Assistant([call]),
          vscode.LanguageModelChatMessage.User([
            new vscode.LanguageModelToolResultPart(call.callId, [
              new vscode.LanguageModelTextPart('README: the project is a banana-shaped gateway client.'),
            ]),
          ]),
        ],
        { tools },
      );
      assert.equal(second.calls.length, 0);
      assert.match(second.text, /banana-shaped/, 'the answer uses the tool result');
      const endpoint = id.includes('anthropic') ? '/api/v1/messages' : '/api/v1/chat/completions';
      assert.ok(gateway.requests.filter((r) => r.path === endpoint).length >= 2, `went through ${endpoint}`);
    });
  }

  it("never hands VS Code's agent a tool call whose arguments were refused (nested too deep): the caller reads why", async () => {
    await setSetting('extraHeaders', { 'x-gateway-fault': 'tool-args' });
    await waitFor(
      () => api.connection.setup.client,
      (client) => client !== undefined,
      'the rebuilt client',
    );
    try {
      const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'sim-openai/gpt-sim-mini' });
      assert.ok(model);
      const tools: vscode.LanguageModelChatTool[] = [
        {
          name: 'read_file',
          description: 'Read a workspace file',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ];
      const deep = `${'{"a":'.repeat(80)}1${'}'.repeat(80)}`;
      const answer = await askModel(model, [vscode.LanguageModelChatMessage.User(`read_file {"path": ${deep}}`)], {
        tools,
      });
      assert.equal(
        answer.calls.length,
        0,
        `no tool call reached the caller: ${JSON.stringify(answer.calls.map((c) => c.input)).slice(0, 200)}`,
      );
      assert.match(answer.text, /read_file: .*nest deeper than 64 levels/, answer.text);
    } finally {
      await setSetting('extraHeaders', undefined);
    }
  });

  it('cancels at once: the request stops and the gateway sees the connection close', async () => {
    await setSetting('extraHeaders', { 'x-gateway-fault': 'delay-chunks=300' });
    await waitFor(
      () => api.connection.setup.client,
      (client) => client !== undefined,
      'the rebuilt client',
    );
    try {
      const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'sim-openai/gpt-sim-mini' });
      const source = new vscode.CancellationTokenSource();
      const response = await model!.sendRequest(
        [vscode.LanguageModelChatMessage.User('Write a long essay about rivers.')],
        {},
        source.token,
      );
      const record = await gateway.waitForRequest(
        (r) => r.path === '/api/v1/chat/completions' && r.headers['x-gateway-fault'] === 'delay-chunks=300',
      );
      const started = Date.now();
      let received = 0;
      const reading = (async () => {
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) received++;
          if (received === 2) source.cancel();
        }
      })().catch((error: unknown) => error);
      await reading;
      assert.equal(await record.closed, 'aborted', 'the gateway saw the client close the stream');
      assert.ok(Date.now() - started < 20_000, 'it stopped long before the stream would have ended');
    } finally {
      await setSetting('extraHeaders', undefined);
    }
  });

  it('maps a refused key to NoPermissions and no credits to Blocked', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'sim-openai/gpt-sim-mini' });
    assert.ok(model);
    const failure = async (): Promise<vscode.LanguageModelError> => {
      try {
        await askModel(model, [vscode.LanguageModelChatMessage.User('hello')]);
      } catch (error) {
        assert.ok(error instanceof vscode.LanguageModelError, `a LanguageModelError (got ${String(error)})`);
        return error;
      }
      throw new Error('expected the request to fail');
    };
    await setKeyThroughCommand('sim-not-a-valid-key');
    assert.equal((await failure()).code, vscode.LanguageModelError.NoPermissions().code);
    await setKeyThroughCommand('sim-empty-key');
    const blocked = await failure();
    assert.equal(blocked.code, vscode.LanguageModelError.Blocked().code);
    assert.match(blocked.message, /out of credits.*Do not retry now/is);
    await setKeyThroughCommand(gateway.apiKey);
    // Unreachable: the shared description, the gateway's address and the next step in words.
    const address = `http://127.0.0.1:${await closedPort()}`;
    await setSetting('baseUrl', address);
    try {
      await waitFor(
        () => api.connection.setup.baseUrl,
        (url) => url === address,
        'the closed address',
      );
      const offline = await askModel(model, [vscode.LanguageModelChatMessage.User('hello')]).then(
        () => assert.fail('expected the request to fail'),
        (error: unknown) => error as Error,
      );
      assert.ok(offline.message.includes(`${new URL(address).host} refused the connection. `), offline.message);
      assert.match(offline.message, /Start the gateway, or correct the port in the base URL setting\./);
      assert.match(offline.message, /Set Gateway Address/);
    } finally {
      await setSetting('baseUrl', gateway.url);
      await waitFor(
        () => api.connection.setup.baseUrl,
        (url) => url === gateway.url,
        'the gateway again',
      );
    }
  });

  it('offers no models without a key, and the list comes back when one is set', async () => {
    await clearKeyThroughCommand(true);
    await waitFor(gatewayModels, (list) => list.length === 0, 'no models without a key');
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(gatewayModels, (list) => list.length > 0, 'the models again');
  });
});
