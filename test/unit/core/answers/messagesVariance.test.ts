// The /messages stream as the real API varies it, through the chat panel's reply runner against
// the local gateway's modes: pings anywhere, an overloaded_error after some text, redacted_thinking
// blocks that must go back byte for byte, attached tool servers, and reasoning effort (which that
// API only knows as a thinking budget).
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../../src/core/transport/client';
import { GatewayError, StreamError } from '../../../../src/core/errors';
import type { MessageCreateRequest } from '../../../../src/core/types/messages';
import { EFFORT_THINKING_BUDGET, type AssistantTurn, type ChatTurn } from '../../../../src/shared/chatModel';
import { describeChatError } from '../../../../src/core/failures/describeError';
import { turnsToWire } from '../../../../src/core/chat/conversationWire';
import { runReply } from '../../../../src/core/chat/replyRunner';
import { useGateway, type Json } from '../../gateway/helpers';

const CLAUDE = 'sim-anthropic/claude-sim-sonnet';
const MESSAGES_PATH = '/api/v1/messages';

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

describe('messages API variance, through the reply runner', () => {
  const gateway = useGateway();
  const client = (): GatewayClient =>
    new GatewayClient({ baseUrl: gateway().url, apiKey: gateway().apiKey, maxRetries: 0 });
  const lastSent = (): Json =>
    gateway()
      .requests.filter((r) => r.path === MESSAGES_PATH)
      .at(-1)?.body as Json;

  async function reply(
    model: string,
    history: ChatTurn[],
    extra: { reasoningEffort?: 'low' | 'medium' | 'high'; mcpServers?: string[] } = {},
  ): Promise<{ reply: AssistantTurn; deltas: string[]; error?: unknown }> {
    const turn = newReply(model, `a${history.length}`);
    const deltas: string[] = [];
    const error = await runReply({
      client: client(),
      request: { model, api: 'messages', ...extra },
      history: turnsToWire(history),
      reply: turn,
      events: { delta: (content) => void (content && deltas.push(content)), toolStep: () => undefined },
      signal: new AbortController().signal,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { reply: turn, deltas, ...(error === undefined ? {} : { error }) };
  }

  it('reads a stream with ping events before, between and after every event exactly as one without', async () => {
    const plain = await reply(CLAUDE, [user('Pings please')]);
    const pinged = await reply(`${CLAUDE}::ping`, [user('Pings please')]);
    assert.equal(pinged.error, undefined);
    assert.equal(gateway().requests.at(-1)?.fault, 'ping', 'the gateway interleaved pings');
    assert.ok(plain.reply.content.length > 20);
    assert.equal(pinged.reply.content, plain.reply.content);
    assert.equal(pinged.reply.finishReason, 'end_turn');
  });

  it('keeps the text that arrived before an overloaded_error, and says to try again', async () => {
    const { reply: turn, deltas, error } = await reply(`${CLAUDE}::overloaded-mid`, [user('Tell me a long story')]);
    assert.ok(error instanceof StreamError && !error.interrupted, String(error));
    assert.equal(error.type, 'overloaded_error');
    assert.ok(turn.content.length > 0, 'text arrived before the error');
    assert.equal(deltas.join(''), turn.content, 'and all of it reached the view');
    assert.deepEqual(
      turn.wire,
      [{ role: 'assistant', parts: [{ kind: 'text', text: turn.content }] }],
      'and it is replayed in the next turn',
    );
    const shown = describeChatError(error, { baseUrl: gateway().url });
    assert.match(shown.message, /overloaded/i);
    assert.match(shown.message, /try again/i);
    assert.match(shown.message, /kept/);
    assert.deepEqual(shown.actions, ['retry']);
  });

  it('sends a redacted_thinking block back byte for byte, and the gateway accepts it', async () => {
    const model = `${CLAUDE}::redacted-thinking`;
    const first = await reply(model, [user('Something sensitive')]);
    assert.equal(first.error, undefined);
    const parts = first.reply.wire[0]?.parts ?? [];
    const redacted = parts.find((p) => p.kind === 'redactedThinking');
    assert.ok(redacted && redacted.kind === 'redactedThinking' && redacted.data.length > 50, 'the block was kept');
    assert.match(redacted.data, /[+/]/, 'with the characters a re-encoding would change');
    first.reply.status = 'done';
    const second = await reply(model, [user('Something sensitive'), first.reply, user('And then?', 'u2')]);
    assert.equal(second.error, undefined, String(second.error));
    const sent = lastSent();
    const assistant = (sent.messages as Json[])[1] as Json;
    assert.equal(assistant.role, 'assistant');
    assert.deepEqual(assistant.content[0], { type: 'redacted_thinking', data: redacted.data });
    assert.ok(second.reply.content.length > 0);
  });

  it('the gateway refuses a redacted_thinking block that was altered (400 naming the field)', async () => {
    const model = `${CLAUDE}::redacted-thinking`;
    const first = await reply(model, [user('Once more')]);
    const data = (first.reply.wire[0]?.parts.find((p) => p.kind === 'redactedThinking') as { data: string }).data;
    const base: MessageCreateRequest = { model: CLAUDE, max_tokens: 500, messages: [] };
    const send = (altered: string): Promise<unknown> =>
      client().messages.create({
        ...base,
        messages: [
          { role: 'user', content: 'Once more' },
          {
            role: 'assistant',
            content: [
              { type: 'redacted_thinking', data: altered },
              { type: 'text', text: 'ok' },
            ],
          },
          { role: 'user', content: 'next' },
        ],
      });
    await send(data);
    for (const altered of [
      data.replace(/\+/g, '-').replace(/\//g, '_'),
      data.replace(/=+$/, ''),
      `${data} `,
      data.slice(1),
    ]) {
      await assert.rejects(
        send(altered),
        (e: unknown) => e instanceof GatewayError && e.status === 400 && /redacted_thinking/.test(e.message),
      );
    }
  });

  it('sends the attached tool servers (mcp_servers) on /messages and shows the tools they ran', async () => {
    const steps: unknown[] = [];
    const turn = newReply(CLAUDE);
    await runReply({
      client: client(),
      request: { model: CLAUDE, api: 'messages', mcpServers: ['https://mcp.example/sse'] },
      history: turnsToWire([user('Search the docs')]),
      reply: turn,
      events: { delta: () => undefined, toolStep: (_i, step) => steps.push(step) },
      signal: new AbortController().signal,
    });
    assert.deepEqual(lastSent().mcp_servers, ['https://mcp.example/sse']);
    assert.equal(turn.toolSteps.length, 1);
    const step = turn.toolSteps[0];
    assert.ok(
      step?.kind === 'server' &&
        step.name === 'sim_search' &&
        step.server === 'https://mcp.example/sse' &&
        /Simulated result/.test(step.result ?? ''),
      JSON.stringify(step),
    );
    assert.match(turn.content, /Server-side tools ran first/);
    assert.ok(!JSON.stringify(turn.wire).includes('mcp_tool'), 'the server tool blocks are shown, not replayed');
  });

  it('maps reasoning effort onto a thinking budget on /messages (an explicit budget wins)', async () => {
    const high = await reply(CLAUDE, [user('Think hard')], { reasoningEffort: 'high' });
    assert.equal(high.error, undefined);
    const sent = lastSent();
    assert.deepEqual(sent.thinking, { type: 'enabled', budget_tokens: EFFORT_THINKING_BUDGET.high });
    assert.ok((sent.max_tokens as number) > EFFORT_THINKING_BUDGET.high);
    assert.equal(sent.reasoning_effort, undefined, 'the messages API has no reasoning_effort');
    assert.ok(high.reply.reasoning.length > 0, 'the model thought');
    const turn = newReply(CLAUDE);
    await runReply({
      client: client(),
      request: { model: CLAUDE, api: 'messages', reasoningEffort: 'high', thinkingBudget: 1500 },
      history: turnsToWire([user('x')]),
      reply: turn,
      events: { delta: () => undefined, toolStep: () => undefined },
      signal: new AbortController().signal,
    });
    assert.equal((lastSent().thinking as Json).budget_tokens, 1500);
  });
});

describe('chat errors for limits and overload', () => {
  const ctx = {
    baseUrl: 'http://gw.local',
    reset: '2026-11-23T15:00:00.000Z',
    now: Date.parse('2026-11-23T13:00:00.000Z'),
  };
  it("a usage limit keeps the server's words and says when it resets", () => {
    const shown = describeChatError(
      {
        name: 'RateLimitError',
        message: 'Usage limit reached for this billing period',
        quotaExhausted: true,
        status: 429,
      },
      ctx,
    );
    assert.equal(shown.kind, 'outOfCredits');
    assert.match(shown.message, /Usage limit reached for this billing period/);
    assert.match(shown.message, /resets at 2026-11-23 15:00 UTC/);
  });
  it('an overloaded answer (529) says to try again', () => {
    const shown = describeChatError(
      { name: 'GatewayError', message: 'Overloaded', status: 529, type: 'overloaded_error' },
      ctx,
    );
    assert.match(shown.message, /overloaded \(529\).*Try again/);
    assert.deepEqual(
      describeChatError({ name: 'StreamError', message: 'boom' }, ctx).actions,
      ['retry', 'showLog'],
      'another stream error stays as it was',
    );
  });
});
