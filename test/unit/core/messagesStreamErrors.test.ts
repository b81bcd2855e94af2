// M5: an OpenAI-style error object on a Messages stream (no `type`, no `event:`) ends the stream
// with the server's message instead of being skipped and reported as an interruption.
import * as assert from 'node:assert/strict';
import { StreamError } from '../../../src/core/errors';
import { parseMessagesStream } from '../../../src/core/streams/messagesStream';
import { collect, chunked, encoder } from './testUtil';

const start = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm1', type: 'message', role: 'assistant', model: 'x', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } } })}\n\n`;

describe('core: messages stream error objects (M5)', () => {
  it('reads data: {"error":{...}} without type or event name as an error event', async () => {
    const text = `${start}data: {"error":{"type":"overloaded_error","message":"ov"}}\n\n`;
    const outcome = await collect(parseMessagesStream(chunked([encoder.encode(text)])));
    assert.equal(outcome.items.length, 1);
    assert.ok(outcome.error instanceof StreamError, String(outcome.error));
    assert.equal(outcome.error.message, 'ov');
    assert.equal(outcome.error.type, 'overloaded_error');
    assert.equal(outcome.error.interrupted, false);
  });

  it('reads data: {"error":"text"} the same way', async () => {
    const outcome = await collect(
      parseMessagesStream(chunked([encoder.encode(`${start}data: {"error":"plain words"}\n\n`)])),
    );
    assert.ok(outcome.error instanceof StreamError);
    assert.equal(outcome.error.message, 'plain words');
    assert.equal(outcome.error.interrupted, false);
  });
});
