// A reply's sources and server tool steps, end to end against the local gateway's `web-search`
// shapes on both APIs, streamed and as whole JSON: what the reply keeps, what its steps show, and
// that the next turn's request (with the reply replayed) is one the gateway accepts.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../../src/core/transport/client';
import type { AssistantTurn, ChatTurn, ToolStep } from '../../../../src/shared/chatModel';
import { turnsToWire } from '../../../../src/core/chat/conversationWire';
import { runReply } from '../../../../src/core/chat/replyRunner';
import { MAX_REPLY_SOURCES } from '../../../../src/shared/replySources';
import { useGateway } from '../../gateway/helpers';

const CHAT = 'sim-openai/gpt-sim-mini';
const MESSAGES = 'sim-anthropic/claude-sim-sonnet';
const QUESTION = 'What is new in Rust';

function newReply(model: string, id = 'a1'): AssistantTurn {
  return {
    role: 'assistant',
    id,
    model,
    content: '',
    reasoning: '',
    toolSteps: [],
    status: 'streaming',
    wire: [],
    createdAt: 0,
  };
}

const user = (text: string, id = 'u1'): ChatTurn => ({ role: 'user', id, text, attachments: [], createdAt: 0 });

/** The three pages the simulated search finds for QUESTION (test/gateway/webSearch.ts), as the chat keeps them. */
const FOUND = [
  {
    url: 'https://search.sim.example/guide/what-is-new-in-rust',
    title: 'A guide to What is new in Rust (simulated result)',
  },
  {
    url: 'https://search.sim.example/faq/what-is-new-in-rust',
    title: 'What is new in Rust: questions and answers (simulated)',
  },
  { url: 'https://docs.sim.example/reference/what-is-new-in-rust' },
];

describe('reply sources and server tool steps against the local gateway', () => {
  const gateway = useGateway();
  const client = (): GatewayClient =>
    new GatewayClient({ baseUrl: gateway().url, apiKey: gateway().apiKey, maxRetries: 0 });

  async function reply(
    model: string,
    mcpServers?: string[],
    history: ChatTurn[] = [user(QUESTION)],
  ): Promise<{ reply: AssistantTurn; steps: ToolStep[] }> {
    const turn = newReply(model, `a${history.length}`);
    const steps: ToolStep[] = [];
    await runReply({
      client: client(),
      request: { model, api: 'auto', ...(mcpServers ? { mcpServers } : {}) },
      history: turnsToWire(history),
      reply: turn,
      events: { delta: () => undefined, toolStep: (_index, step) => steps.push(step) },
      signal: new AbortController().signal,
    });
    turn.status = 'done';
    return { reply: turn, steps };
  }

  for (const variant of ['', ';whole-json']) {
    const how = variant ? 'as whole JSON' : 'streamed';
    it(`chat completions ${how}: url_citation annotations become the reply's sources`, async () => {
      const { reply: answer } = await reply(`${CHAT}::web-search${variant}`);
      assert.ok(answer.content.length > 0);
      assert.deepEqual(answer.sources, FOUND);
      // The next turn replays the reply as text: the gateway takes it.
      const next = await reply(CHAT, undefined, [user(QUESTION), answer, user('And then?', 'u2')]);
      assert.ok(next.reply.content.length > 0);
    });

    it(`/messages ${how}: web search results and citations become sources, the search a server step with its query`, async () => {
      const { reply: answer, steps } = await reply(`${MESSAGES}::web-search${variant}`);
      assert.deepEqual(answer.sources, FOUND);
      const search = steps.find((step) => step.kind === 'server' && step.name === 'web_search');
      assert.ok(search?.kind === 'server', JSON.stringify(steps));
      assert.deepEqual(JSON.parse(search.arguments ?? ''), { query: QUESTION });
      assert.equal(search.failed, undefined);
      assert.equal(
        search.result,
        [
          `1. ${FOUND[0]?.title} — ${FOUND[0]?.url}`,
          `2. ${FOUND[1]?.title} — ${FOUND[1]?.url}`,
          `3. ${FOUND[2]?.url}`,
        ].join('\n'),
      );
      assert.deepEqual(answer.toolSteps, steps);
      // Server blocks are not replayed (neither as client tool calls nor as themselves): text only.
      assert.deepEqual(
        answer.wire.flatMap((message) => message.parts.map((part) => part.kind)),
        ['text'],
      );
      const next = await reply(MESSAGES, undefined, [user(QUESTION), answer, user('And then?', 'u2')]);
      assert.ok(next.reply.content.length > 0);
      const sent = gateway()
        .requests.filter((r) => r.path === '/api/v1/messages')
        .at(-1)?.body as { messages: { role: string; content: unknown }[] };
      assert.ok(!JSON.stringify(sent.messages).includes('server_tool_use'), JSON.stringify(sent.messages));
      assert.ok(!JSON.stringify(sent.messages).includes('citations'), JSON.stringify(sent.messages));
    });
  }

  it('a failed web search is a failed step and gives no sources', async () => {
    const { reply: answer, steps } = await reply(`${MESSAGES}::web-search=error`);
    assert.equal(answer.sources, undefined);
    assert.deepEqual(steps, [
      {
        kind: 'server',
        name: 'web_search',
        arguments: JSON.stringify({ query: QUESTION }),
        result: 'The search failed: max_uses_exceeded',
        failed: true,
      },
    ]);
    const chat = await reply(`${CHAT}::web-search=error`);
    assert.equal(chat.reply.sources, undefined);
  });

  it('hostile results: javascript: and file: links dropped, the huge disguised title bounded, 300 results capped', async () => {
    for (const model of [CHAT, MESSAGES]) {
      const { reply: answer } = await reply(`${model}::web-search=hostile`);
      const sources = answer.sources ?? [];
      assert.equal(sources.length, MAX_REPLY_SOURCES, model);
      assert.ok(
        sources.every((s) => s.url.startsWith('https://')),
        model,
      );
      const long = sources.find((s) => s.url.endsWith('/long-title'));
      assert.ok(long?.title && long.title.length <= 200 && !/[\u202e\u202c]/.test(long.title), long?.title);
      assert.ok(!long.title.includes(String.fromCharCode(0)));
    }
  });

  it('a failing MCP connector call is a failed step with its server, arguments and error text (/messages)', async () => {
    const { steps } = await reply(`${MESSAGES}::mcp-error;tool-input-deltas`, ['https://tools.example/mcp']);
    assert.equal(steps.length, 1, JSON.stringify(steps));
    const [step] = steps;
    assert.ok(step?.kind === 'server');
    assert.equal(step.server, 'https://tools.example/mcp');
    assert.deepEqual(JSON.parse(step.arguments ?? ''), { query: QUESTION });
    assert.equal(step.failed, true);
    assert.match(step.result ?? '', /refused the call/);
  });
});
