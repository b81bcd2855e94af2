// One answer cannot make the chat do unbounded work: tool calls and server-run tool steps are
// capped per answer (the rest refused, and the model told), tool arguments nested too deep or too
// large are refused before any tool sees them, and the conversation stays saveable. The gateway
// here is a fake client over the real stream parsers, fed generated SSE.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_SERVER_TOOL_STEPS_PER_ANSWER, MAX_TOOL_CALLS_PER_ANSWER } from '../../src/core/limits';
import { parseChatStream } from '../../src/core/streams/chatStream';
import { parseMessagesStream } from '../../src/core/streams/messagesStream';
import type { GatewayClient } from '../../src/core/transport/client';
import type { AssistantTurn, Conversation, WirePart } from '../../src/shared/chatModel';
import type { ToolHost } from '../../src/core/answers/toolHost';
import { parseToolInput, toolInputOf } from '../../src/core/answers/gatewayMessages';
import { ConversationStore } from '../../src/core/chat/history/conversationStore';
import { runReply } from '../../src/core/chat/replyRunner';

const encoder = new TextEncoder();

type Api = 'chat' | 'messages';
/** What the fake gateway answers a request with: the SSE text. */
type Answer = (request: { messages: readonly Record<string, unknown>[] }) => string;

function sse(events: readonly unknown[], named = false): string {
  return events
    .map((event) => `${named ? `event: ${(event as { type: string }).type}\n` : ''}data: ${JSON.stringify(event)}\n\n`)
    .join('');
}

async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  // In 64 KiB pieces, as a socket would hand them over.
  const all = encoder.encode(text);
  for (let at = 0; at < all.length; at += 65536) yield all.subarray(at, at + 65536);
}

function fakeClient(answer: Answer, sent: unknown[]): GatewayClient {
  const stream =
    (parse: typeof parseChatStream | typeof parseMessagesStream) =>
    (request: { messages: readonly Record<string, unknown>[] }) => {
      sent.push(JSON.parse(JSON.stringify(request)));
      return parse(bytes(answer(request)));
    };
  return {
    redactionSecrets: async () => [],
    chat: { stream: stream(parseChatStream) },
    messages: { stream: stream(parseMessagesStream) },
  } as unknown as GatewayClient;
}

/** Did the last request carry tool results (the round after the calls)? */
function afterTools(request: { messages: readonly Record<string, unknown>[] }): boolean {
  const last = request.messages.at(-1);
  return (
    last?.role === 'tool' ||
    (Array.isArray(last?.content) && (last.content as { type?: string }[]).some((b) => b.type === 'tool_result'))
  );
}

function chatChunk(
  delta: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  finish: string | null = null,
): Record<string, unknown> {
  return { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra };
}

const CHAT_DONE = 'data: [DONE]\n\n';

function chatText(text: string): string {
  return sse([chatChunk({ role: 'assistant', content: text }), chatChunk({}, {}, 'stop')]) + CHAT_DONE;
}

function chatToolCalls(count: number, args: (i: number) => string): string {
  const calls = Array.from({ length: count }, (_, i) => ({
    index: i,
    id: `call_${i}`,
    type: 'function',
    function: { name: 'read_file', arguments: args(i) },
  }));
  return sse([chatChunk({ role: 'assistant', tool_calls: calls }), chatChunk({}, {}, 'tool_calls')]) + CHAT_DONE;
}

const MESSAGE_START = {
  type: 'message_start',
  message: {
    id: 'm',
    type: 'message',
    role: 'assistant',
    model: 'x',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  },
};

function messagesAnswer(blocks: readonly Record<string, unknown>[], stop: string): string {
  const events: unknown[] = [MESSAGE_START];
  blocks.forEach((block, index) => {
    const { partial, ...start } = block as Record<string, unknown> & { partial?: string };
    // Text streams in deltas, as Anthropic sends it.
    if (start.type === 'text') {
      events.push(
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: start.text } },
      );
    } else events.push({ type: 'content_block_start', index, content_block: start });
    if (partial !== undefined)
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } });
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 2 },
  });
  events.push({ type: 'message_stop' });
  return sse(events, true);
}

function messagesText(text: string): string {
  return messagesAnswer([{ type: 'text', text }], 'end_turn');
}

function messagesToolUses(count: number, args: (i: number) => string): string {
  return messagesAnswer(
    Array.from({ length: count }, (_, i) => ({
      type: 'tool_use',
      id: `toolu_${i}`,
      name: 'read_file',
      input: {},
      partial: args(i),
    })),
    'tool_use',
  );
}

function newReply(): AssistantTurn {
  return {
    role: 'assistant',
    id: 'a1',
    model: 'm',
    content: '',
    reasoning: '',
    toolSteps: [],
    status: 'streaming',
    wire: [],
    createdAt: 1,
  };
}

interface Recorded {
  reply: AssistantTurn;
  ran: string[];
  stepEvents: number;
  rounds: number;
  sent: unknown[];
  ms: number;
}

async function run(api: Api, answer: Answer): Promise<Recorded> {
  const reply = newReply();
  const ran: string[] = [];
  const sent: unknown[] = [];
  let stepEvents = 0;
  let rounds = 0;
  const tools: ToolHost = {
    definitions: [{ name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
    needsApproval: () => false,
    approve: async () => true,
    run: async (call) => {
      ran.push(call.id);
      return { content: 'ok' };
    },
  };
  const started = performance.now();
  await runReply({
    client: fakeClient(answer, sent),
    request: { model: 'm', api },
    history: [{ role: 'user', parts: [{ kind: 'text', text: 'go' }] }],
    reply,
    tools,
    events: { delta: () => undefined, toolStep: () => void stepEvents++, roundEnded: () => void rounds++ },
    signal: new AbortController().signal,
  });
  return { reply, ran, stepEvents, rounds, sent, ms: performance.now() - started };
}

function partsOf(reply: AssistantTurn, index: number): readonly WirePart[] {
  return reply.wire[index]?.parts ?? [];
}

async function saveAndLoad(reply: AssistantTurn): Promise<Conversation | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'ui-bounds-'));
  try {
    const store = new ConversationStore(dir);
    const conversation: Conversation = {
      id: 'c1',
      title: 't',
      model: 'm',
      parameters: {},
      turns: [
        { role: 'user', id: 'u1', text: 'go', attachments: [], createdAt: 0 },
        { ...reply, status: 'done' },
      ],
      createdAt: 0,
      updatedAt: 0,
    };
    await store.save(conversation);
    return await new ConversationStore(dir).load('c1');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('answers are bounded: tool calls, server steps and tool arguments', () => {
  const floods: [Api, number, Answer][] = [
    [
      'chat',
      5000,
      (request) => (afterTools(request) ? chatText('All read.') : chatToolCalls(5000, () => '{"path":"a.md"}')),
    ],
    // 3,000: a messages answer holds at most MAX_MESSAGE_BLOCKS (4,096) blocks.
    [
      'messages',
      3000,
      (request) => (afterTools(request) ? messagesText('All read.') : messagesToolUses(3000, () => '{"path":"a.md"}')),
    ],
  ];
  for (const [api, count, answer] of floods) {
    it(`${api}: runs the first ${MAX_TOOL_CALLS_PER_ANSWER} of ${count} tool calls in one answer, tells the model about the rest, and ends the round once`, async () => {
      const result = await run(api, answer);
      assert.equal(result.ran.length, MAX_TOOL_CALLS_PER_ANSWER, 'calls run');
      assert.equal(result.reply.toolSteps.length, MAX_TOOL_CALLS_PER_ANSWER, 'steps shown');
      assert.ok(result.stepEvents <= 2 * MAX_TOOL_CALLS_PER_ANSWER, `${result.stepEvents} step events`);
      assert.equal(result.rounds, 1, 'one tool round ended: one save');
      assert.equal(
        partsOf(result.reply, 0).filter((part) => part.kind === 'toolCall').length,
        MAX_TOOL_CALLS_PER_ANSWER,
        'only the calls that ran are on the wire',
      );
      const results = partsOf(result.reply, 1);
      assert.equal(results.filter((part) => part.kind === 'toolResult').length, MAX_TOOL_CALLS_PER_ANSWER);
      const note = results.at(-1);
      assert.match(
        note?.kind === 'toolResult' ? note.content : '',
        new RegExp(
          `^ok\n\n${count - MAX_TOOL_CALLS_PER_ANSWER} more tool calls were in your answer and were not run: an answer may ask for at most ${MAX_TOOL_CALLS_PER_ANSWER}`,
        ),
      );
      assert.match(
        JSON.stringify(result.sent.at(-1)),
        /were not run: an answer may ask for at most/,
        'the model was told in the next request',
      );
      assert.match(result.reply.content, /All read\./);
      assert.ok(await saveAndLoad(result.reply), 'saved and read back');
    });
  }

  it('chat: shows the first tools the gateway ran of thousands in one chunk, and one line for the rest', async () => {
    const executed = Array.from({ length: 5000 }, (_, i) => ({
      name: `search_${i}`,
      arguments: { q: i },
      result: 'r',
      server: 'https://tools.example/mcp',
    }));
    const result = await run(
      'chat',
      () =>
        sse([
          chatChunk({ role: 'assistant' }),
          chatChunk({}, { tools_executed: executed }),
          chatChunk({ content: 'Done.' }),
          chatChunk({}, {}, 'stop'),
        ]) + CHAT_DONE,
    );
    assert.equal(result.reply.toolSteps.length, MAX_SERVER_TOOL_STEPS_PER_ANSWER + 1);
    assert.equal(result.stepEvents, MAX_SERVER_TOOL_STEPS_PER_ANSWER + 1);
    const last = result.reply.toolSteps.at(-1);
    assert.equal(
      last?.kind === 'server' ? last.result : undefined,
      `The gateway ran ${5000 - MAX_SERVER_TOOL_STEPS_PER_ANSWER} more tools in this answer; at most ${MAX_SERVER_TOOL_STEPS_PER_ANSWER} are shown per answer.`,
    );
    assert.equal(result.rounds, 0, 'no tool round of ours: nothing to save until the reply ends');
  });

  it('messages: the same for MCP connector blocks', async () => {
    const blocks: Record<string, unknown>[] = [];
    for (let i = 0; i < 2000; i++) {
      blocks.push({ type: 'mcp_tool_use', id: `mcp_${i}`, name: 'search', server_name: 'docs', input: { q: i } });
      blocks.push({
        type: 'mcp_tool_result',
        tool_use_id: `mcp_${i}`,
        is_error: false,
        content: [{ type: 'text', text: 'r' }],
      });
    }
    blocks.push({ type: 'text', text: 'Done.' });
    const result = await run('messages', () => messagesAnswer(blocks, 'end_turn'));
    assert.equal(result.reply.toolSteps.length, MAX_SERVER_TOOL_STEPS_PER_ANSWER + 1);
    const last = result.reply.toolSteps.at(-1);
    assert.match(last?.kind === 'server' ? (last.result ?? '') : '', /ran 1936 more tools/);
  });

  const deep = `{"path":${'['.repeat(20000)}${']'.repeat(20000)}}`;
  const large = JSON.stringify({ path: 'a.md', content: 'x'.repeat(3 * 1024 * 1024) });
  for (const api of ['chat', 'messages'] as const) {
    it(`${api}: refuses tool arguments nested too deep or too large before any tool sees them; the conversation still saves`, async () => {
      const args = [deep, large];
      const answer: Answer = (request) => {
        if (afterTools(request)) return api === 'chat' ? chatText('Noted.') : messagesText('Noted.');
        return api === 'chat'
          ? chatToolCalls(2, (i) => args[i] as string)
          : messagesToolUses(2, (i) => args[i] as string);
      };
      const result = await run(api, answer);
      assert.deepEqual(result.ran, [], 'no tool ran');
      const steps = result.reply.toolSteps.map((step) => (step.kind === 'function' ? [step.status, step.result] : []));
      assert.equal(steps[0]?.[0], 'failed');
      assert.match(
        String(steps[0]?.[1]),
        /nest deeper than 64 levels, more than a tool call may; the tool was not run/,
      );
      assert.match(String(steps[1]?.[1]), /are 3 MB of JSON, more than the 2 MB a tool call may carry/);
      const results = partsOf(result.reply, 1).filter((part) => part.kind === 'toolResult');
      assert.ok(
        results.every((part) => part.kind === 'toolResult' && part.isError === true),
        'the model hears a tool error',
      );
      // The proof that matters: saving does not throw, and what loads back is the short reason.
      const loaded = await saveAndLoad(result.reply);
      const reply = loaded?.turns[1] as AssistantTurn | undefined;
      assert.ok(reply, 'saved and read back');
      assert.ok(JSON.stringify(reply).length < 100_000, 'the refused JSON itself is not kept');
    });
  }

  it('parseToolInput and toolInputOf: bounded, with the reason as the refused input', () => {
    assert.deepEqual(parseToolInput('{"a":{"b":[1]}}'), { a: { b: [1] } });
    assert.match(String(parseToolInput(deep).refusedInput), /deeper than 64 levels/);
    assert.match(String(parseToolInput(large).refusedInput), /3 MB of JSON/);
    let nested: unknown = 1;
    for (let i = 0; i < 100; i++) nested = { n: nested };
    assert.match(String(toolInputOf(nested).refusedInput), /deeper than 64 levels/);
    assert.deepEqual(toolInputOf({ path: 'a' }), { path: 'a' });
    assert.deepEqual(toolInputOf('{"path":"a"}'), { path: 'a' });
  });
});
