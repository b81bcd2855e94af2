import * as assert from 'node:assert/strict';
import { GatewayError, StreamError } from '../../../src/core/errors';
import { MessageStreamAccumulator } from '../../../src/core/streams/messageAccumulator';
import { parseMessagesStream } from '../../../src/core/streams/messagesStream';
import type { Message, MessageStreamEvent } from '../../../src/core/types/messages';
import { messagesEvent, messagesExpected, messagesStream, withLineEnds } from './fixtures';
import { chunked, encoder, everySplit } from './testUtil';

interface Run {
  events: MessageStreamEvent[];
  message: Message;
  error?: { name: string; message: string; interrupted: boolean; type?: string | undefined };
}

async function run(parts: readonly Uint8Array[]): Promise<Run> {
  const accumulator = new MessageStreamAccumulator();
  const events: MessageStreamEvent[] = [];
  try {
    for await (const event of parseMessagesStream(chunked(parts))) {
      events.push(event);
      accumulator.add(event);
    }
    return { events, message: accumulator.snapshot() };
  } catch (error) {
    assert.ok(error instanceof StreamError, `expected a StreamError, got ${String(error)}`);
    return {
      events,
      message: accumulator.snapshot(),
      error: { name: error.name, message: error.message, interrupted: error.interrupted, type: error.type },
    };
  }
}

async function runEverySplit(text: string): Promise<Run> {
  const splits = everySplit(encoder.encode(text));
  const reference = await run(splits[0] as Uint8Array[]);
  for (const parts of splits.slice(1))
    assert.deepEqual(await run(parts), reference, `differs when split as ${parts.map((p) => p.length).join('+')}`);
  return reference;
}

describe('core: messages stream parsing (pure, over bytes)', () => {
  it('reads every event type incl. thinking + signature and tool input JSON, identically at every split; skips ping and unknown events', async () => {
    const result = await runEverySplit(messagesStream);
    assert.equal(result.error, undefined);
    assert.deepEqual(result.message, messagesExpected);
    assert.deepEqual(
      result.events.map((e) => e.type),
      [
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ],
    );
  });

  it('reads \\r\\n line ends the same', async () => {
    const result = await run([encoder.encode(withLineEnds(messagesStream, '\r\n'))]);
    assert.deepEqual(result.message, messagesExpected);
  });

  it('an error event ends the stream with its message and type; text before is kept', async () => {
    const cut = messagesStream.indexOf('event: content_block_stop\ndata: {"type":"content_block_stop","index":1}');
    const text = `${messagesStream.slice(0, cut)}${messagesEvent('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })}`;
    const result = await runEverySplit(text);
    assert.deepEqual(result.error, {
      name: 'StreamError',
      message: 'Overloaded',
      interrupted: false,
      type: 'overloaded_error',
    });
    assert.equal(result.message.content[1]?.type === 'text' && result.message.content[1].text, 'Grüße aus 東京');
  });

  it('a stream that ends before message_stop and without stop_reason is interrupted', async () => {
    const text = messagesStream.slice(
      0,
      messagesStream.indexOf('event: content_block_stop\ndata: {"type":"content_block_stop","index":1}'),
    );
    const result = await runEverySplit(text);
    assert.equal(result.error?.interrupted, true);
    assert.ok(result.error instanceof Object);
  });

  it('ends normally when message_stop is missing but message_delta had a stop_reason', async () => {
    const result = await run([encoder.encode(messagesStream.slice(0, messagesStream.indexOf('event: message_stop')))]);
    assert.equal(result.error, undefined);
    assert.equal(result.message.stop_reason, 'tool_use');
  });

  it('takes the type from data when the event line is missing; skips an event that is not JSON', async () => {
    const text = messagesStream.replace(/event: [a-z_]+\n/g, '');
    const result = await run([encoder.encode(text)]);
    assert.deepEqual(result.message, messagesExpected);
    const garbled = messagesStream.replace('event: message_delta', 'data: {"type":\n\nevent: message_delta');
    const skipped = await runEverySplit(garbled);
    assert.equal(skipped.error, undefined);
    assert.deepEqual(skipped.message, messagesExpected);
    assert.ok(new StreamError('x') instanceof GatewayError);
  });
});
