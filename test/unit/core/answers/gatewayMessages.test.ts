import * as assert from 'node:assert/strict';
import {
  parseToolInput,
  toChatMessages,
  toChatTools,
  toMessagesParams,
  toMessagesTools,
  usesMessagesApi,
  type GatewayMessage,
} from '../../../../src/core/answers/gatewayMessages';

const conversation: GatewayMessage[] = [
  { role: 'user', parts: [{ kind: 'text', text: 'Read README.md' }] },
  {
    role: 'assistant',
    parts: [
      { kind: 'text', text: 'Reading it.' },
      { kind: 'toolCall', id: 'call_1', name: 'read_file', input: { path: 'README.md' } },
    ],
  },
  {
    role: 'user',
    parts: [
      { kind: 'toolResult', callId: 'call_1', content: '# Hello' },
      { kind: 'text', text: 'Summarise it.' },
    ],
  },
];

describe('neutral conversation to the gateway formats', () => {
  it('chooses /messages for Anthropic-style models on auto, and obeys the setting', () => {
    assert.equal(usesMessagesApi('sim-anthropic/claude-sim-sonnet', 'auto'), true);
    assert.equal(usesMessagesApi('x/model', 'auto', 'Anthropic'), true);
    assert.equal(usesMessagesApi('sim-openai/gpt-sim-mini', 'auto'), false);
    assert.equal(usesMessagesApi('sim-openai/gpt-sim-mini', 'messages'), true);
    assert.equal(usesMessagesApi('sim-anthropic/claude-sim-sonnet', 'chat'), false);
  });

  it('maps to OpenAI chat: system first, tool calls on the assistant, results as role tool before the user text', () => {
    assert.deepEqual(toChatMessages({ system: 'Be brief.', messages: conversation }), [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Read README.md' },
      {
        role: 'assistant',
        content: 'Reading it.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"README.md"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '# Hello' },
      { role: 'user', content: 'Summarise it.' },
    ]);
  });

  it('maps to Anthropic messages: tool_use and tool_result blocks, roles merged to alternate', () => {
    assert.deepEqual(
      toMessagesParams([...conversation, { role: 'user', parts: [{ kind: 'text', text: 'And quickly.' }] }]),
      [
        { role: 'user', content: [{ type: 'text', text: 'Read README.md' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Reading it.' },
            { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'README.md' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: '# Hello' },
            { type: 'text', text: 'Summarise it.' },
            { type: 'text', text: 'And quickly.' },
          ],
        },
      ],
    );
  });

  it('marks a failed tool result for chat completions, which have no error flag, and sends thinking back only to /messages', () => {
    const messages: GatewayMessage[] = [
      {
        role: 'assistant',
        parts: [
          { kind: 'thinking', thinking: 'hmm', signature: 'sig' },
          { kind: 'toolCall', id: 'c1', name: 't', input: {} },
        ],
      },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', content: 'no such file', isError: true }] },
    ];
    const chat = toChatMessages({ messages });
    assert.deepEqual(chat[1], { role: 'tool', tool_call_id: 'c1', content: 'Error: no such file' });
    assert.ok(!JSON.stringify(chat).includes('hmm'), 'reasoning is never sent back to chat completions');
    const anthropic = toMessagesParams(messages);
    assert.deepEqual(anthropic[0]?.content, [
      { type: 'thinking', thinking: 'hmm', signature: 'sig' },
      { type: 'tool_use', id: 'c1', name: 't', input: {} },
    ]);
    assert.deepEqual(anthropic[1]?.content, [
      { type: 'tool_result', tool_use_id: 'c1', content: 'no such file', is_error: true },
    ]);
  });

  it('maps tools to both shapes, with an empty object schema when none is given', () => {
    const tools = [
      { name: 'a', description: 'A', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
      { name: 'b' },
    ];
    assert.deepEqual(
      toChatTools(tools)?.map((t) => t.function.parameters),
      [tools[0]!.inputSchema, { type: 'object', properties: {} }],
    );
    assert.deepEqual(
      toMessagesTools(tools)?.map((t) => [t.name, t.input_schema]),
      [
        ['a', tools[0]!.inputSchema],
        ['b', { type: 'object', properties: {} }],
      ],
    );
    assert.equal(toChatTools([]), undefined);
  });

  it('never crashes on broken tool arguments', () => {
    assert.deepEqual(parseToolInput('{"path":"a"}'), { path: 'a' });
    assert.deepEqual(parseToolInput(''), {});
    assert.deepEqual(parseToolInput('[1,2]'), { value: [1, 2] });
    assert.deepEqual(parseToolInput('{"path":'), { invalidJson: '{"path":' });
  });
});
