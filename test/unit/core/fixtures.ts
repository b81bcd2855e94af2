// Recorded streams in the shapes wire-conventions.md lists. Texts include multi-byte UTF-8 (2, 3
// and 4 bytes) so that splitting at every byte offset also cuts inside characters.

function chunk(
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'local/sim',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });
}

/** Content, reasoning under both names, a comment, an event name, multi-line data, usage, [DONE]. */
export const chatContentStream = [
  ': keep-alive\n\n',
  `data: ${chunk({ role: 'assistant' })}\n\n`,
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { reasoning_content: 'Think 🤔 ' }, finish_reason: null }] })}\n\n`,
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { reasoning: 'more.' }, finish_reason: null }] })}\n\n`,
  `event: message\ndata: ${chunk({ content: 'Héllo, ' })}\n\n`,
  // One JSON object over two data lines: they join with \n, which JSON reads as whitespace.
  'data: {"choices":[{"index":0,\ndata: "delta":{"content":"wörld 日本"},"finish_reason":null}]}\n\n',
  // Sources: a url_citation annotation (with a multi-byte title) in the finish chunk's delta.
  `data: ${chunk({ annotations: [{ type: 'url_citation', url_citation: { url: 'https://wörld.example/日本', title: 'Wörld 日本 🌍', start_index: 0, end_index: 16 } }] }, 'stop')}\n\n`,
  `data: ${JSON.stringify({ id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } })}\n\n`,
  'data: [DONE]\n\n',
].join('');

export const chatContentExpected = {
  content: 'Héllo, wörld 日本',
  reasoning: 'Think 🤔 more.',
  toolCalls: [],
  finishReason: 'stop',
  usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
  toolsExecuted: [],
  // The address as the URL parser writes it (punycode host, percent-encoded path): what is checked is what opens.
  sources: [{ url: 'https://xn--wrld-5qa.example/%E6%97%A5%E6%9C%AC', title: 'Wörld 日本 🌍' }],
};

/** Tool-call fragments by index, a second call, a new id on a reused index, tools_executed, `choices: null`. */
export const chatToolStream = [
  `data: ${chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] })}\n\n`,
  `data: ${chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] })}\n\n`,
  `data: ${chunk({ tool_calls: [{ index: 0, function: { arguments: '"Zürich"}' } }] })}\n\n`,
  `data: ${chunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } }] })}\n\n`,
  `data: ${chunk({ tool_calls: [{ index: 0, id: 'call_3', type: 'function', function: { name: 'lookup', arguments: '{"q":' } }] })}\n\n`,
  `data: ${chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] })}\n\n`,
  `data: ${chunk({}, 'tool_calls', { tools_executed: ['search', { name: 'fetch', server: 'https://mcp.example', result: 'ok' }] })}\n\n`,
  `data: ${JSON.stringify({ choices: null, usage: { prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 } })}\n\n`,
  'data: [DONE]\n\n',
].join('');

export const chatToolExpected = {
  content: '',
  reasoning: '',
  toolCalls: [
    { id: 'call_1', name: 'get_weather', arguments: '{"city":"Zürich"}' },
    { id: 'call_2', name: 'get_time', arguments: '{}' },
    { id: 'call_3', name: 'lookup', arguments: '{"q":1}' },
  ],
  finishReason: 'tool_calls',
  usage: { prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 },
  toolsExecuted: ['search', { name: 'fetch', server: 'https://mcp.example', result: 'ok' }],
  sources: [],
};

export function withLineEnds(stream: string, lineEnd: '\r\n' | '\r'): string {
  return stream.replace(/\n/g, lineEnd);
}

export const chatPartial = [
  `data: ${chunk({ role: 'assistant' })}\n\n`,
  `data: ${chunk({ content: 'Teil 1 – ' })}\n\n`,
  `data: ${chunk({ content: 'ünd 2' })}\n\n`,
].join('');

function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** Every Messages event type, including thinking with its signature, a ping and an unknown type. */
export const messagesStream = [
  event('message_start', {
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'local/claude-sim',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  }),
  event('ping', {}),
  event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think… 🧠' } }),
  event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: ' done.' } }),
  event('content_block_delta', {
    index: 0,
    delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' },
  }),
  event('content_block_stop', { index: 0 }),
  event('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
  event('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Grüße ' } }),
  event('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'aus 東京' } }),
  event('content_block_stop', { index: 1 }),
  event('content_block_start', {
    index: 2,
    content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
  }),
  event('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"city": "Ber' } }),
  event('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: 'lin"}' } }),
  event('content_block_stop', { index: 2 }),
  event('some_future_event', { x: 1 }),
  event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } }),
  event('message_stop', {}),
].join('');

export const messagesExpected = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'local/claude-sim',
  content: [
    { type: 'thinking', thinking: 'Let me think… 🧠 done.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' },
    { type: 'text', text: 'Grüße aus 東京' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Berlin' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 42 },
};

export { event as messagesEvent, chunk as chatChunk };
