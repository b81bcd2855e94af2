// The gateway's models as another extension sees them: the suite drives a second extension
// (test/consumerExtension, loaded beside ours) whose vscode.lm calls are its own, so every request
// crosses from one extension to the provider of another, as it does for Copilot-style consumers.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type LocalGateway, type RequestRecord } from '../gateway/index';
import { encodePng } from '../gateway/png';
import {
  activateExtension,
  askModel,
  clearKeyThroughCommand,
  setKeyThroughCommand,
  setSetting,
  waitFor,
} from './extensionHost';

const VENDOR = 'unified-inference';
const CONSUMER_ID = 'unified-inference-tests.lm-consumer';
const MINI = 'sim-openai/gpt-sim-mini';
const SONNET = 'sim-anthropic/claude-sim-sonnet';
const JUSTIFICATION = 'The integration suite checks the gateway models from a second extension.';

interface Consumer {
  readonly extensionId: string;
  selectChatModels(selector: vscode.LanguageModelChatSelector): Thenable<vscode.LanguageModelChat[]>;
  systemMessage(text: string): vscode.LanguageModelChatMessage;
}

async function activateConsumer(): Promise<Consumer> {
  const extension = vscode.extensions.getExtension<Consumer>(CONSUMER_ID);
  if (!extension)
    throw new Error(
      `${CONSUMER_ID} is not loaded: runIntegration passes test/consumerExtension as a second development path`,
    );
  return extension.activate();
}

interface Answer {
  readonly text: string;
  readonly calls: vscode.LanguageModelToolCallPart[];
}

/** As another extension asks: with a justification (which VS Code shows when it asks the user). */
function ask(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  options: vscode.LanguageModelChatRequestOptions = {},
): Promise<Answer> {
  return askModel(model, messages, { justification: JUSTIFICATION, ...options });
}

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof Error, `an Error (got ${String(error)}: ${JSON.stringify(error)})`);
    return error;
  }
  throw new Error('expected the request to fail');
}

type Body = Record<string, unknown>;
const bodyOf = (record: RequestRecord | undefined): Body => (record?.body ?? {}) as Body;

describe('the language models from a second extension (vscode.lm)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let consumer: Consumer;

  /** The newest request the gateway saw on `path`. */
  const lastRequest = (path: string): RequestRecord | undefined =>
    [...gateway.requests].reverse().find((record) => record.path === path);

  async function model(id: string): Promise<vscode.LanguageModelChat> {
    const [found] = await consumer.selectChatModels({ vendor: VENDOR, id });
    assert.ok(found, `${id} is offered to the second extension`);
    return found;
  }

  before(async () => {
    api = await activateExtension();
    consumer = await activateConsumer();
    assert.equal(consumer.extensionId, CONSUMER_ID);
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
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it("selects the gateway's chat models, image input only where the catalog lists it, and streams an answer to a request with a justification", async () => {
    const models = await waitFor(
      async () => consumer.selectChatModels({ vendor: VENDOR }),
      (list) => list.length > 0,
      'the gateway models, as the second extension sees them',
    );
    const ids = models.map((m) => m.id);
    assert.ok(ids.includes(MINI) && ids.includes(SONNET), ids.join(', '));
    assert.ok(models.every((m) => m.vendor === VENDOR));
    // Image input is advertised only for a model whose catalog entry says it reads images (the
    // local gateway's vision model), so VS Code keeps images out of the others' requests.
    for (const m of models) {
      const capabilities = (
        m as unknown as { capabilities?: { supportsImageToText?: boolean; supportsToolCalling?: boolean } }
      ).capabilities;
      const vision = m.id === 'sim-openai/gpt-sim-vision';
      assert.equal(capabilities?.supportsImageToText, vision, `${m.id} advertises image input: ${vision}`);
    }
    gateway.clearRequests();
    const { text, calls } = await ask(await model(MINI), [
      vscode.LanguageModelChatMessage.User('Explain streaming in one paragraph.'),
    ]);
    assert.equal(calls.length, 0);
    assert.match(text, /simulat/i, "the local gateway's simulated answer arrived");
    assert.ok(text.length > 40);
    assert.equal(gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').length, 1);
  });

  for (const id of [MINI, SONNET]) {
    const messagesApi = id === SONNET;
    it(`runs a tool-calling round trip with ${id}: the tool result part reaches the gateway in the follow-up request`, async () => {
      const chat = await model(id);
      const tools: vscode.LanguageModelChatTool[] = [
        {
          name: 'read_file',
          description: 'Read a workspace file',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        },
      ];
      const question = vscode.LanguageModelChatMessage.User('Please use read_file on README.md and summarise it.');
      const first = await ask(chat, [question], { tools });
      assert.equal(first.calls.length, 1, `one tool call (text: ${first.text})`);
      const call = first.calls[0]!;
      assert.equal(call.name, 'read_file');
      const result = 'README: the project is a banana-shaped gateway client.';
      gateway.clearRequests();
      const second = await ask(
        chat,
        [
          question,
          vscode.LanguageModelChatMessage.Assistant([call]),
          vscode.LanguageModelChatMessage.User([
            new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(result)]),
          ]),
        ],
        { tools },
      );
      assert.equal(second.calls.length, 0);
      assert.match(second.text, /banana-shaped/, 'the answer uses the tool result');
      const body = bodyOf(lastRequest(messagesApi ? '/api/v1/messages' : '/api/v1/chat/completions'));
      const messages = body.messages as Body[];
      if (messagesApi) {
        assert.deepEqual(
          messages.map((m) => m.role),
          ['user', 'assistant', 'user'],
        );
        assert.deepEqual(
          (messages[1]!.content as Body[]).map((b) => [b.type, b.id, b.name]),
          [['tool_use', call.callId, 'read_file']],
        );
        assert.deepEqual(messages[2]!.content, [{ type: 'tool_result', tool_use_id: call.callId, content: result }]);
      } else {
        assert.deepEqual(
          messages.map((m) => m.role),
          ['user', 'assistant', 'tool'],
        );
        assert.deepEqual(
          (messages[1]!.tool_calls as Body[]).map((c) => [c.id, (c.function as Body).name]),
          [[call.callId, 'read_file']],
        );
        assert.deepEqual(messages[2], { role: 'tool', tool_call_id: call.callId, content: result });
      }
    });
  }

  it('sends a failed tool result as is_error on /messages', async () => {
    const chat = await model(SONNET);
    const call = new vscode.LanguageModelToolCallPart('toolu_failed_1', 'read_file', { path: 'missing.md' });
    // The third argument (isError) exists at run time in VS Code 1.105+; the 1.104 types lack it.
    const ResultPart = vscode.LanguageModelToolResultPart as unknown as new (
      callId: string,
      content: unknown[],
      isError?: boolean,
    ) => vscode.LanguageModelToolResultPart;
    gateway.clearRequests();
    await ask(
      chat,
      [
        vscode.LanguageModelChatMessage.User('Please use read_file on missing.md.'),
        vscode.LanguageModelChatMessage.Assistant([call]),
        vscode.LanguageModelChatMessage.User([
          new ResultPart(call.callId, [new vscode.LanguageModelTextPart('ENOENT: missing.md')], true),
        ]),
      ],
      {
        tools: [
          {
            name: 'read_file',
            description: 'Read a workspace file',
            inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
          },
        ],
      },
    );
    const messages = bodyOf(lastRequest('/api/v1/messages')).messages as Body[];
    assert.deepEqual(messages[2]!.content, [
      { type: 'tool_result', tool_use_id: call.callId, content: 'ENOENT: missing.md', is_error: true },
    ]);
  });

  it('sends System messages as the system prompt and passes temperature and max_tokens from modelOptions', async () => {
    const prompt = [
      consumer.systemMessage('You are a terse assistant.'),
      vscode.LanguageModelChatMessage.User('Say hello.'),
    ];
    gateway.clearRequests();
    await ask(await model(MINI), prompt, { modelOptions: { temperature: 0.3, max_tokens: 200 } });
    const chatBody = bodyOf(lastRequest('/api/v1/chat/completions'));
    assert.deepEqual(chatBody.messages, [
      { role: 'system', content: 'You are a terse assistant.' },
      { role: 'user', content: 'Say hello.' },
    ]);
    assert.equal(chatBody.temperature, 0.3);
    assert.equal(chatBody.max_tokens, 200);
    await ask(await model(SONNET), prompt, { modelOptions: { temperature: 5 } });
    const messagesBody = bodyOf(lastRequest('/api/v1/messages'));
    assert.equal(messagesBody.system, 'You are a terse assistant.');
    assert.deepEqual(messagesBody.messages, [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }]);
    assert.equal(messagesBody.temperature, undefined, 'an out-of-range temperature is not sent');
  });

  it('refuses an image it cannot send instead of answering without it', async () => {
    const DataPart = (
      vscode as unknown as { LanguageModelDataPart?: { image(data: Uint8Array, mimeType: string): unknown } }
    ).LanguageModelDataPart;
    assert.ok(DataPart, 'VS Code 1.139 has LanguageModelDataPart');
    // A real image: the workbench decodes (and may resize) images on their way to a provider.
    const png = new Uint8Array(encodePng(2, 2, new Uint8Array(12).fill(200)));
    const chat = await model(MINI);
    gateway.clearRequests();
    const error = await failure(() =>
      ask(chat, [
        vscode.LanguageModelChatMessage.User([
          new vscode.LanguageModelTextPart('What is in this picture?'),
          DataPart.image(png, 'image/png'),
        ] as vscode.LanguageModelTextPart[]),
      ]),
    );
    assert.match(error.message, /does not take images.*image\/png/);
    assert.equal(
      gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').length,
      0,
      'nothing went to the gateway',
    );
  });

  it('maps a refused key (401) to NoPermissions and no credits to Blocked, as the second extension sees them', async () => {
    const chat = await model(MINI);
    const hello = (): Promise<Answer> => ask(chat, [vscode.LanguageModelChatMessage.User('hello')]);
    try {
      await setKeyThroughCommand('sim-not-a-valid-key');
      const refused = await failure(hello);
      assert.ok(
        refused instanceof vscode.LanguageModelError,
        `a LanguageModelError (got ${refused.name}: ${refused.message})`,
      );
      assert.equal(refused.code, vscode.LanguageModelError.NoPermissions().code);
      assert.match(refused.message, /Set API Key/);
      assert.equal(lastRequest('/api/v1/chat/completions')?.status, 401);
      await setKeyThroughCommand('sim-empty-key');
      const blocked = await failure(hello);
      assert.ok(blocked instanceof vscode.LanguageModelError);
      assert.equal(blocked.code, vscode.LanguageModelError.Blocked().code);
      assert.match(blocked.message, /out of credits.*Do not retry now/is);
    } finally {
      await setKeyThroughCommand(gateway.apiKey);
    }
  });
});
