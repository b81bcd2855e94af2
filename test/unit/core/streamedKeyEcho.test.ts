// A model (or a proxy) that writes the key into a streamed answer, split across deltas and
// re-encoded (the local gateway's `echo-key=split`): streamGatewayAnswer, which every consumer of
// a chat answer goes through (the chat panel and its journal, @unified, vscode.lm, Apply, the
// summarizer), hands on no form of it, in text, reasoning or the returned parts, through either API.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/core/transport/client';
import { secretForms } from '../../../src/core/secrets/redact';
import { StreamError } from '../../../src/core/errors';
import { streamGatewayAnswer, type AnswerResult } from '../../../src/core/answers/gatewayAnswer';
import { startGateway, type LocalGateway } from '../../gateway/index';
import { SPLIT_ECHO_END } from '../../gateway/keyEcho';

const KEY = 'sim/echo-key/0123456789abcdef';

function spellsKey(text: string): string | undefined {
  const folded = text.toLowerCase();
  return [...secretForms(KEY), KEY.slice(4)].find((form) => folded.includes(form.toLowerCase()));
}

describe('streamed answers: a key split across deltas and re-encoded never comes out', function () {
  this.timeout(20_000);
  let gateway: LocalGateway;

  before(async () => {
    gateway = await startGateway({ keys: { [KEY]: { credits: 50 } } });
  });

  after(() => gateway.stop());

  for (const [api, model] of [
    ['chat', 'sim-openai/gpt-sim-mini'],
    ['messages', 'sim-anthropic/claude-sim-sonnet'],
  ] as const) {
    it(`through /${api === 'chat' ? 'chat/completions' : 'messages'}: text, reasoning and parts are redacted, and the rest of the text is kept`, async () => {
      const client = new GatewayClient({ baseUrl: gateway.url, apiKey: KEY, maxRetries: 0 });
      const text: string[] = [];
      const reasoning: string[] = [];
      const result: AnswerResult = await streamGatewayAnswer(
        client,
        {
          model: `${model}::echo-key=split`,
          messages: [{ role: 'user', parts: [{ kind: 'text', text: 'Tell me the key' }] }],
          api: 'auto',
          reasoningEffort: 'low',
          ...(api === 'messages' ? { thinkingBudget: 1024 } : {}),
        },
        { text: (delta) => text.push(delta), reasoning: (delta) => reasoning.push(delta) },
        new AbortController().signal,
      );
      const shown = text.join('');
      assert.ok(shown.endsWith(SPLIT_ECHO_END), `every piece arrived: ${shown.slice(-80)}`);
      assert.equal(shown.match(/\[redacted\]/g)?.length, 5, `each of the five forms was replaced: ${shown}`);
      assert.match(reasoning.join(''), /The key is \[redacted\] here/, 'the reasoning too');
      for (const [where, value] of [
        ['text', shown],
        ['reasoning', reasoning.join('')],
        ['parts', JSON.stringify(result.parts)],
      ] as const) {
        const leak = spellsKey(value);
        assert.equal(leak, undefined, `${where} spells the key as ${leak}`);
      }
    });
  }

  for (const model of ['sim-openai/gpt-sim-mini', 'sim-anthropic/claude-sim-sonnet']) {
    it(`${model}: a tool call whose arguments (streamed in fragments) carry the key reaches the sink redacted`, async () => {
      const client = new GatewayClient({ baseUrl: gateway.url, apiKey: KEY, maxRetries: 0 });
      const calls: unknown[] = [];
      const result = await streamGatewayAnswer(
        client,
        {
          model: `${model}::tool-args`,
          messages: [
            {
              role: 'user',
              parts: [
                {
                  kind: 'text',
                  text: `read_file {"path": "${KEY.toUpperCase()}", "note": "${Buffer.from(KEY).toString('base64')}"}`,
                },
              ],
            },
          ],
          api: 'auto',
          tools: [
            {
              name: 'read_file',
              description: 'Read a file',
              inputSchema: { type: 'object', properties: { path: { type: 'string' }, note: { type: 'string' } } },
            },
          ],
        },
        { text: () => undefined, toolCall: (call) => calls.push(call) },
        new AbortController().signal,
      );
      assert.equal(calls.length, 1, 'the call arrived');
      assert.deepEqual((calls[0] as { input: unknown }).input, { path: '[redacted]', note: '[redacted]' });
      for (const [where, value] of [
        ['the call', JSON.stringify(calls)],
        ['parts', JSON.stringify(result.parts)],
      ] as const)
        assert.equal(spellsKey(value), undefined, `${where} spells the key`);
    });
  }

  it('hands on the text received before a failure, the held-back start of a key included', async () => {
    // A client whose stream breaks right after a delta that could begin the key.
    const chunk = (content: string): unknown => ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'm',
      choices: [{ index: 0, delta: { content }, finish_reason: null }],
    });
    const client = {
      redactionSecrets: async () => [KEY],
      chat: {
        stream: () => ({
          async *[Symbol.asyncIterator]() {
            yield chunk('Cut here: ');
            yield chunk(KEY.slice(0, 10));
            throw new StreamError('The connection closed', { interrupted: true });
          },
        }),
      },
    } as unknown as GatewayClient;
    const text: string[] = [];
    await assert.rejects(
      streamGatewayAnswer(
        client,
        { model: 'm', messages: [], api: 'chat' },
        { text: (delta) => text.push(delta) },
        new AbortController().signal,
      ),
      StreamError,
    );
    assert.equal(text.join(''), `Cut here: ${KEY.slice(0, 10)}`, 'nothing that arrived is lost');
  });
});
