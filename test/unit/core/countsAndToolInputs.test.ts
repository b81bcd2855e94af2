// Issue 29 §1: counts a proxy sends as null never replace known ones, and every tool block's input
// is assembled from its deltas (absent or empty is `{}`), in the shapes providers really send.
import * as assert from 'node:assert/strict';
import { mergeUsage, parseChatCompletion } from '../../../src/core/parse/chat';
import { ChatStreamAccumulator } from '../../../src/core/streams/chatAccumulator';
import { parseChatStream } from '../../../src/core/streams/chatStream';
import { mergeMessageUsage, MessageStreamAccumulator } from '../../../src/core/streams/messageAccumulator';
import { parseMessagesStream } from '../../../src/core/streams/messagesStream';
import { chunked, collect, encoder } from './testUtil';

function chatStream(chunks: readonly Record<string, unknown>[]): Uint8Array {
  return encoder.encode(`${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`);
}

async function accumulateChat(chunks: readonly Record<string, unknown>[]): Promise<ChatStreamAccumulator> {
  const outcome = await collect(parseChatStream(chunked([chatStream(chunks)])));
  assert.equal(outcome.error, undefined);
  const acc = new ChatStreamAccumulator();
  for (const chunk of outcome.items) acc.add(chunk);
  return acc;
}

const choice = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function messagesStream(events: readonly Record<string, unknown>[]): Uint8Array {
  return encoder.encode(events.map((e) => `event: ${String(e['type'])}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
}

async function accumulateMessages(events: readonly Record<string, unknown>[]): Promise<MessageStreamAccumulator> {
  const outcome = await collect(parseMessagesStream(chunked([messagesStream(events)])));
  assert.equal(outcome.error, undefined, String(outcome.error));
  const acc = new MessageStreamAccumulator();
  for (const event of outcome.items) acc.add(event);
  return acc;
}

const messageStart = (usage: Record<string, unknown>): Record<string, unknown> => ({
  type: 'message_start',
  message: {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  },
});
const messageEnd = (stop: string, usage: Record<string, unknown>): Record<string, unknown>[] => [
  { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage },
  { type: 'message_stop' },
];
const jsonDelta = (index: number, partial: string): Record<string, unknown> => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json: partial },
});
const stop = (index: number): Record<string, unknown> => ({ type: 'content_block_stop', index });

describe('core: counts a proxy does not know (null) never replace known ones', () => {
  it('chat: a closing usage with prompt_tokens null keeps the count an earlier usage gave', async () => {
    const acc = await accumulateChat([
      { ...choice({ role: 'assistant', content: 'Hi' }), usage: { prompt_tokens: 10, completion_tokens: 1 } },
      choice({}, 'stop'),
      { ...choice({}), choices: [], usage: { prompt_tokens: null, completion_tokens: 42, total_tokens: null } },
    ]);
    const usage = acc.snapshot().usage;
    assert.equal(usage?.prompt_tokens, 10);
    assert.equal(usage?.completion_tokens, 42);
    assert.equal(usage?.total_tokens, 52);
  });

  it('chat: a count never known reads 0, never NaN; the known one stands', async () => {
    const acc = await accumulateChat([
      choice({ content: 'Hi' }, 'stop'),
      { ...choice({}), choices: [], usage: { prompt_tokens: null, completion_tokens: 42 } },
    ]);
    assert.deepEqual(acc.snapshot().usage, { prompt_tokens: 0, completion_tokens: 42, total_tokens: 42 });
  });

  it('chat: a later known count replaces the earlier one (cumulative)', async () => {
    const acc = await accumulateChat([
      { ...choice({ content: 'a' }), usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } },
      { ...choice({}, 'stop'), usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
    ]);
    assert.deepEqual(acc.snapshot().usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
  });

  it('a usage that names "__proto__" (hostile JSON) stays data: no prototype is replaced', () => {
    // The merges themselves (the accumulators' snapshots copy own fields and would hide it).
    const hostile = (): Record<string, unknown> =>
      JSON.parse('{"__proto__": {"polluted": true}, "completion_tokens": 3, "output_tokens": 4}') as Record<
        string,
        unknown
      >;
    for (const merged of [
      mergeUsage({ prompt_tokens: 10, completion_tokens: 1 }, hostile()) as Record<string, unknown>,
      mergeMessageUsage({ input_tokens: 25, output_tokens: 1 }, hostile()) as Record<string, unknown>,
    ]) {
      assert.equal(Object.getPrototypeOf(merged), Object.prototype);
      assert.equal(merged['polluted'], undefined);
    }
  });

  it("messages: message_delta with input_tokens null keeps message_start's input_tokens", async () => {
    const acc = await accumulateMessages([
      messageStart({ input_tokens: 25, output_tokens: 1, cache_read_input_tokens: 7 }),
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
      stop(0),
      ...messageEnd('end_turn', { input_tokens: null, output_tokens: 17, cache_read_input_tokens: null }),
    ]);
    const usage = acc.snapshot().usage;
    assert.equal(usage.input_tokens, 25);
    assert.equal(usage.output_tokens, 17);
    assert.equal(usage['cache_read_input_tokens'], 7);
  });
});

describe('core: tool inputs assembled from their deltas (absent or empty is {})', () => {
  it('chat: tool_call deltas without arguments, or with "", assemble to {}; pieces concatenate', async () => {
    const acc = await accumulateChat([
      choice({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_time' } }],
      }),
      choice({
        tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'list_files', arguments: '' } }],
      }),
      choice({ tool_calls: [{ index: 1, function: { arguments: '' } }] }),
      choice({
        tool_calls: [{ index: 2, id: 'call_c', type: 'function', function: { name: 'read_file', arguments: '' } }],
      }),
      choice({ tool_calls: [{ index: 2, function: { arguments: '{"path":' } }] }),
      choice({ tool_calls: [{ index: 2, function: { arguments: ' "a.ts"}' } }] }),
      choice({}, 'tool_calls'),
    ]);
    assert.deepEqual(
      acc.snapshot().toolCalls.map((c) => [c.id, c.name, c.arguments]),
      [
        ['call_a', 'get_time', '{}'],
        ['call_b', 'list_files', '{}'],
        ['call_c', 'read_file', '{"path": "a.ts"}'],
      ],
    );
  });

  it('chat: a whole completion whose tool call has arguments absent, null or "" reads {}', () => {
    for (const args of [undefined, null, '', '  ']) {
      const completion = parseChatCompletion({
        id: 'chatcmpl-1',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'now', arguments: args } }],
            },
          },
        ],
      });
      assert.equal(completion.choices[0]?.message.tool_calls?.[0]?.function.arguments, '{}', String(args));
    }
  });

  it('messages: tool_use, server_tool_use and mcp_tool_use take their input from the deltas, {} when none or empty', async () => {
    const acc = await accumulateMessages([
      messageStart({ input_tokens: 40, output_tokens: 1 }),
      // Anthropic's web search: the start carries input {}, the query streams (first piece empty).
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: {} },
      },
      jsonDelta(0, ''),
      jsonDelta(0, '{"query": "weat'),
      jsonDelta(0, 'her Paris"}'),
      stop(0),
      // The MCP connector: a tool with arguments, and one with none (no deltas at all).
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'mcp_tool_use', id: 'mcptoolu_01', name: 'search', server_name: 'docs', input: {} },
      },
      jsonDelta(1, '{"q":'),
      jsonDelta(1, '"x"}'),
      stop(1),
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'mcp_tool_use', id: 'mcptoolu_02', name: 'list', server_name: 'docs', input: {} },
      },
      stop(2),
      // A function tool with no arguments: one empty piece, as Anthropic streams it.
      {
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'tool_use', id: 'toolu_01', name: 'get_time', input: {} },
      },
      jsonDelta(3, ''),
      stop(3),
      { type: 'content_block_start', index: 4, content_block: { type: 'tool_use', id: 'toolu_02', name: 'read' } },
      jsonDelta(4, '{"path":"a.ts"}'),
      stop(4),
      ...messageEnd('tool_use', { output_tokens: 30 }),
    ]);
    const inputs = acc.snapshot().content.map((b) => (b as { input?: unknown }).input);
    assert.deepEqual(inputs, [{ query: 'weather Paris' }, { q: 'x' }, {}, {}, { path: 'a.ts' }]);
    assert.deepEqual((acc.block(1) as { input?: unknown }).input, { q: 'x' });
    assert.deepEqual((acc.block(2) as { input?: unknown }).input, {});
  });

  it('messages: a tool block whose start has no input and no deltas reads {}', async () => {
    const acc = await accumulateMessages([
      messageStart({ input_tokens: 4, output_tokens: 1 }),
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'server_tool_use', id: 's1', name: 'web_fetch' },
      },
      stop(0),
      ...messageEnd('end_turn', { output_tokens: 2 }),
    ]);
    assert.deepEqual((acc.snapshot().content[0] as { input?: unknown }).input, {});
  });
});
