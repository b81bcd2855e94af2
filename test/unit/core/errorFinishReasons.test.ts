// A translating proxy passes an upstream's mid-stream error as a finish_reason (`overloaded_error`):
// the reply ends as failed, what arrived before it kept, never as a normal end.
import * as assert from 'node:assert/strict';
import { StreamError } from '../../../src/core/errors';
import { describeError } from '../../../src/core/failures/describeError';
import { parseChatStream } from '../../../src/core/streams/chatStream';
import { parseMessagesStream } from '../../../src/core/streams/messagesStream';
import { isErrorFinishReason } from '../../../src/core/streams/finishReasons';
import { chunked, collect, encoder } from './testUtil';

function chatChunk(delta: Record<string, unknown>, finish: string | null): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

const messageStart = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm1', type: 'message', role: 'assistant', model: 'x', content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 0 } } })}\n\n`;

function messageEvent(data: Record<string, unknown>): string {
  return `event: ${String(data['type'])}\ndata: ${JSON.stringify(data)}\n\n`;
}

describe('core: finish reasons that name an error', () => {
  it('tells errors from normal and unknown reasons', () => {
    for (const reason of ['overloaded_error', 'error', 'api_error', 'upstream_error', 'ERROR', 'error_upstream'])
      assert.equal(isErrorFinishReason(reason), true, reason);
    for (const reason of [
      'stop',
      'length',
      'tool_calls',
      'content_filter',
      'function_call',
      'end_turn',
      'max_tokens',
      'stop_sequence',
      'tool_use',
      'pause_turn',
      'refusal',
      'eos',
      'errored_words',
      'terror',
    ])
      assert.equal(isErrorFinishReason(reason), false, reason);
  });

  it('chat completions: overloaded_error ends the stream with an error after the text of its chunk', async () => {
    const text =
      chatChunk({ role: 'assistant', content: 'Hello ' }, null) +
      chatChunk({ content: 'wor' }, 'overloaded_error') +
      'data: [DONE]\n\n';
    const outcome = await collect(parseChatStream(chunked([encoder.encode(text)])));
    const contents = outcome.items.map((c) => c.choices[0]?.delta.content).join('');
    assert.equal(contents, 'Hello wor');
    assert.ok(
      outcome.items.every((c) => c.choices[0]?.finish_reason === null),
      'no normal end recorded',
    );
    assert.ok(outcome.error instanceof StreamError, String(outcome.error));
    assert.equal(outcome.error.type, 'overloaded_error');
    const described = describeError(outcome.error, { baseUrl: 'http://gw.local' });
    assert.ok(described.actions.includes('retry'), JSON.stringify(described));
    assert.match(described.message, /overloaded/);
  });

  it('chat completions: a plain `error` reason reads as the gateway ending the reply with an error, Retry offered', async () => {
    const text = chatChunk({ content: 'partial' }, null) + chatChunk({}, 'error');
    const outcome = await collect(parseChatStream(chunked([encoder.encode(text)])));
    assert.ok(outcome.error instanceof StreamError);
    assert.equal(outcome.error.interrupted, false);
    const described = describeError(outcome.error, { baseUrl: 'http://gw.local' });
    assert.ok(described.actions.includes('retry'));
  });

  it('chat completions: normal and unknown reasons still end normally', async () => {
    for (const reason of ['stop', 'length', 'eos']) {
      const outcome = await collect(
        parseChatStream(chunked([encoder.encode(chatChunk({ content: 'x' }, reason) + 'data: [DONE]\n\n')])),
      );
      assert.equal(outcome.error, undefined, reason);
      assert.equal(outcome.items[0]?.choices[0]?.finish_reason, reason);
    }
  });

  it('messages: a stop_reason that names an error ends the stream with an error after the text', async () => {
    const text =
      messageStart +
      messageEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
      messageEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Part' } }) +
      messageEvent({ type: 'content_block_stop', index: 0 }) +
      messageEvent({ type: 'message_delta', delta: { stop_reason: 'api_error' }, usage: { output_tokens: 2 } }) +
      messageEvent({ type: 'message_stop' });
    const outcome = await collect(parseMessagesStream(chunked([encoder.encode(text)])));
    assert.ok(outcome.items.some((e) => e.type === 'content_block_delta'));
    assert.ok(outcome.error instanceof StreamError, String(outcome.error));
    assert.equal(outcome.error.type, 'api_error');
  });

  it('messages: the closing usage is kept when the stop_reason names an error', async () => {
    const text =
      messageStart +
      messageEvent({ type: 'message_delta', delta: { stop_reason: 'overloaded_error' }, usage: { output_tokens: 9 } });
    const outcome = await collect(parseMessagesStream(chunked([encoder.encode(text)])));
    const closing = outcome.items.find((e) => e.type === 'message_delta');
    assert.ok(closing && closing.type === 'message_delta', 'the usage event is kept');
    assert.equal(closing.delta.stop_reason, null, 'no normal end recorded');
    assert.equal(closing.usage.output_tokens, 9);
    assert.ok(outcome.error instanceof StreamError);
  });

  it('a whole JSON answer to a stream request ends the same way: its text kept, then the error', async () => {
    const completion = {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Half an answer' }, finish_reason: 'overloaded_error' },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    };
    const chat = await collect(
      parseChatStream(chunked([encoder.encode(JSON.stringify(completion))]), 'application/json'),
    );
    assert.equal(chat.items[0]?.choices[0]?.delta.content, 'Half an answer');
    assert.equal(chat.items[0]?.choices[0]?.finish_reason, null);
    assert.ok(chat.error instanceof StreamError, String(chat.error));
    assert.equal(chat.error.type, 'overloaded_error');

    const message = {
      id: 'm1',
      type: 'message',
      role: 'assistant',
      model: 'x',
      content: [{ type: 'text', text: 'Half' }],
      stop_reason: 'api_error',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 1 },
    };
    const messages = await collect(
      parseMessagesStream(chunked([encoder.encode(JSON.stringify(message))]), 'application/json'),
    );
    assert.ok(
      messages.items.some((e) => e.type === 'content_block_delta'),
      'the text is kept',
    );
    assert.ok(!messages.items.some((e) => e.type === 'message_stop'), 'not a normal end');
    assert.ok(messages.error instanceof StreamError, String(messages.error));
    assert.equal(messages.error.type, 'api_error');
    // A normal whole answer still ends normally.
    const normal = await collect(
      parseChatStream(
        chunked([
          encoder.encode(
            JSON.stringify({ ...completion, choices: [{ ...completion.choices[0], finish_reason: 'stop' }] }),
          ),
        ]),
        'application/json',
      ),
    );
    assert.equal(normal.error, undefined);
  });
});
