// Every stream is bounded: an event that never ends, a stream that never ends, and a block index
// used as an array index are each stopped at their cap, with an error that names it.
import * as assert from 'node:assert/strict';
import { MessageStreamAccumulator } from '../../../src/core/streams/messageAccumulator';
import { parseChatStream } from '../../../src/core/streams/chatStream';
import { parseMessagesStream } from '../../../src/core/streams/messagesStream';
import { StreamError } from '../../../src/core/errors';
import { MAX_MESSAGE_BLOCKS, MAX_SSE_EVENT_BYTES } from '../../../src/core/limits';
import { SseDecoder } from '../../../src/core/streams/sse';
import { collect, encoder } from './testUtil';

const CHUNK = 64 * 1024;

/**
 * A body that starts with `head` and then sends one data line that never ends, in 64 KiB chunks,
 * as a ReadableStream (what a socket body is). Bounded: it gives up after `maxChunks`, so a
 * decoder without a cap ends with a plain interruption instead of hanging the test.
 */
function endlessLine(
  head: string,
  maxChunks: number,
): { body: ReadableStream<Uint8Array>; pulled: () => number; bytes: () => number; cancelled: () => boolean } {
  const filler = encoder.encode('x'.repeat(CHUNK));
  let pulled = 0;
  let bytes = 0;
  let cancelled = false;
  let started = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!started) {
          started = true;
          const first = encoder.encode(`${head}data: {"choices":[{"index":0,"delta":{"content":"`);
          bytes += first.byteLength;
          controller.enqueue(first);
          return;
        }
        if (pulled >= maxChunks) return controller.close();
        pulled++;
        bytes += filler.byteLength;
        controller.enqueue(filler);
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => pulled, bytes: () => bytes, cancelled: () => cancelled };
}

function chunkEvent(content: string): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
}

describe('core: streams are bounded', () => {
  it('stops an SSE line that never ends at the event cap, keeps the events before it, and closes the body', async () => {
    const capChunks = MAX_SSE_EVENT_BYTES / CHUNK;
    const source = endlessLine(chunkEvent('Hello ') + chunkEvent('world'), capChunks * 4);
    const { items, error } = await collect(parseChatStream(source.body as unknown as AsyncIterable<Uint8Array>));
    assert.deepEqual(
      items.map((chunk) => chunk.choices[0]?.delta.content),
      ['Hello ', 'world'],
      'what arrived before the cap stays',
    );
    assert.ok(error instanceof StreamError, `a StreamError, got ${String(error)}`);
    assert.equal(error.code, 'event_too_large');
    assert.equal(error.interrupted, true);
    assert.match(error.message, /an event larger than 16 MB/);
    // Read no further than the cap and the chunk that crossed it, then hung up: what the parser
    // holds came from these bytes, so it is bounded by them (counted, not measured on the heap).
    assert.ok(
      source.pulled() <= capChunks + 2,
      `read ${source.pulled()} chunks of 64 KiB for a ${capChunks}-chunk cap`,
    );
    assert.ok(
      source.bytes() <= MAX_SSE_EVENT_BYTES + 2 * CHUNK,
      `read ${source.bytes()} bytes for a ${MAX_SSE_EVENT_BYTES}-byte cap`,
    );
    assert.ok(source.cancelled(), 'the body was closed');
  });

  it('stops a stream of small events that never ends at the stream cap (limits as the decoder is given them)', () => {
    let events = 0;
    const decoder = new SseDecoder(() => events++, { maxEventBytes: 1024, maxStreamBytes: 64 * 1024 });
    const chunk = encoder.encode('data: {}\n\n'.repeat(100)); // 1,000 bytes
    let failure: StreamError | undefined;
    for (let i = 0; i < 1000 && failure === undefined; i++) failure = decoder.push(chunk);
    assert.equal(failure?.code, 'stream_too_large');
    assert.match(failure?.message ?? '', /went past 64 KB/);
    assert.equal(events, 6500, 'every event within the cap was read, none after');
    assert.equal(decoder.push(chunk), failure, 'nothing is read after the cap');
  });

  it('counts the event cap in bytes, not characters (an endless line of 3-byte characters)', () => {
    const decoder = new SseDecoder(() => assert.fail('no event may be dispatched'), {
      maxEventBytes: 3000,
      maxStreamBytes: 1 << 20,
    });
    let pushes = 0;
    let failure: StreamError | undefined = decoder.push(encoder.encode('data: "'));
    for (; pushes < 100 && failure === undefined; pushes++) failure = decoder.push(encoder.encode('€'.repeat(100))); // 300 bytes, 100 characters
    assert.equal(failure?.code, 'event_too_large');
    assert.ok(pushes <= 11, `stopped after ${pushes} pushes of 300 bytes for a 3,000-byte cap`);
  });

  it('stops one event of many short data lines at the event cap too', () => {
    const decoder = new SseDecoder(() => assert.fail('no event may be dispatched'), {
      maxEventBytes: 4096,
      maxStreamBytes: 1 << 20,
    });
    let failure: StreamError | undefined;
    for (let i = 0; i < 1000 && failure === undefined; i++)
      failure = decoder.push(encoder.encode('data: 0123456789\n'));
    assert.equal(failure?.code, 'event_too_large');
    assert.match(failure?.message ?? '', /larger than 4 KB/);
  });

  it('refuses a messages block index past the cap at once, and the accumulator never uses one as an array index', async () => {
    const start = {
      type: 'message_start',
      message: {
        id: 'm',
        type: 'message',
        role: 'assistant',
        model: 'x',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 0 },
      },
    };
    const text = [
      `event: message_start\ndata: ${JSON.stringify(start)}\n\n`,
      `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n`,
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"kept"}}\n\n`,
      `event: content_block_start\ndata: {"type":"content_block_start","index":1000000000,"content_block":{"type":"text","text":""}}\n\n`,
      `event: message_stop\ndata: {"type":"message_stop"}\n\n`,
    ].join('');
    const accumulator = new MessageStreamAccumulator();
    const { items, error } = await collect(
      parseMessagesStream(
        (async function* () {
          yield encoder.encode(text);
        })(),
      ),
    );
    for (const item of items) accumulator.add(item);
    assert.ok(error instanceof StreamError);
    assert.equal(error.code, 'too_many_blocks');
    assert.match(
      error.message,
      new RegExp(`block number 1000000000; the extension reads at most ${MAX_MESSAGE_BLOCKS} blocks`),
    );
    assert.equal(accumulator.text(), 'kept');
    // Fed directly (not through the stream), a huge, negative or fractional index is ignored.
    for (const index of [1e9, -1, 1.5])
      accumulator.add({ type: 'content_block_start', index, content_block: { type: 'text', text: 'no' } });
    // Stored, the 1e9 one would show in the snapshot (after a walk over a sparse array that long).
    assert.deepEqual(accumulator.snapshot().content, [{ type: 'text', text: 'kept' }]);
    for (const index of [1e9, -1, 1.5]) assert.equal(accumulator.block(index), undefined);
  });
});
