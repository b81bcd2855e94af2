import * as assert from 'node:assert/strict';
import { ChatStreamAccumulator } from '../../../src/core/streams/chatAccumulator';
import { GatewayError, StreamError } from '../../../src/core/errors';
import { parseChatStream } from '../../../src/core/streams/chatStream';
import type { ChatCompletionChunk } from '../../../src/core/types/chat';
import type { ChatStreamSnapshot } from '../../../src/core/streams/chatAccumulator';
import {
  chatChunk,
  chatContentExpected,
  chatContentStream,
  chatPartial,
  chatToolExpected,
  chatToolStream,
  withLineEnds,
} from './fixtures';
import { chunked, collect, encoder, everySplit } from './testUtil';

interface Run {
  chunks: ChatCompletionChunk[];
  snapshot: ChatStreamSnapshot;
  error?: {
    name: string;
    message: string;
    interrupted?: boolean;
    type?: string | undefined;
    code?: string | undefined;
  };
}

async function run(parts: readonly Uint8Array[]): Promise<Run> {
  const accumulator = new ChatStreamAccumulator();
  const chunks: ChatCompletionChunk[] = [];
  try {
    for await (const chunk of parseChatStream(chunked(parts))) {
      chunks.push(chunk);
      accumulator.add(chunk);
    }
    return { chunks, snapshot: accumulator.snapshot() };
  } catch (error) {
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    const failure: NonNullable<Run['error']> = {
      name: error.name,
      message: error.message,
      type: error.type,
      code: error.code,
    };
    if (error instanceof StreamError) failure.interrupted = error.interrupted;
    return { chunks, snapshot: accumulator.snapshot(), error: failure };
  }
}

/** Runs the stream whole, then split at every byte offset and byte by byte: every run must equal the first. */
async function runEverySplit(text: string): Promise<Run> {
  const bytes = encoder.encode(text);
  const splits = everySplit(bytes);
  const reference = await run(splits[0] as Uint8Array[]);
  for (const parts of splits.slice(1)) {
    const result = await run(parts);
    assert.deepEqual(result, reference, `differs when split as ${parts.map((p) => p.length).join('+')} bytes`);
  }
  return reference;
}

describe('core: chat stream parsing (pure, over bytes)', () => {
  it('reads content, reasoning (both names), comments, event names, multi-line data and usage, identically at every split', async () => {
    const result = await runEverySplit(chatContentStream);
    assert.equal(result.error, undefined);
    assert.deepEqual(result.snapshot, chatContentExpected);
    assert.equal(result.chunks.length, 7, 'the comment and [DONE] are not chunks');
    assert.equal(result.chunks[6]?.choices.length, 0);
  });

  for (const lineEnd of ['\r\n', '\r'] as const) {
    it(`reads streams with ${JSON.stringify(lineEnd)} line ends the same, at every split`, async () => {
      const result = await runEverySplit(withLineEnds(chatContentStream, lineEnd));
      assert.deepEqual(result.snapshot, chatContentExpected);
    });
  }

  it('assembles tool-call fragments by index; a new id on a reused index starts a new call; tools_executed and choices:null are read', async () => {
    const result = await runEverySplit(chatToolStream);
    assert.equal(result.error, undefined);
    assert.deepEqual(result.snapshot, chatToolExpected);
  });

  it('ends normally without [DONE] when a finish_reason arrived', async () => {
    const text = chatContentStream.replace('data: [DONE]\n\n', '');
    const result = await runEverySplit(text);
    assert.equal(result.error, undefined);
    assert.equal(result.snapshot.finishReason, 'stop');
  });

  it('accepts a last "data: [DONE]" without its blank line', async () => {
    const result = await runEverySplit(chatContentStream.replace(/\n\n$/, ''));
    assert.equal(result.error, undefined);
    assert.deepEqual(result.snapshot, chatContentExpected);
  });

  it('a stream that closes without [DONE] and without finish_reason is interrupted, with the text kept', async () => {
    const result = await runEverySplit(chatPartial);
    assert.deepEqual(result.error, {
      name: 'StreamError',
      message: result.error?.message,
      interrupted: true,
      type: undefined,
      code: undefined,
    });
    assert.equal(result.snapshot.content, 'Teil 1 – ünd 2');
  });

  it('a stream cut inside a JSON chunk is interrupted (not "malformed"), with the text before kept', async () => {
    const text = `${chatPartial}data: {"choices":[{"index":0,"delta":{"content":"lost`;
    const result = await runEverySplit(text);
    assert.equal(result.error?.interrupted, true);
    assert.equal(result.snapshot.content, 'Teil 1 – ünd 2');
  });

  it('an error object mid-stream ends it with a StreamError carrying message and type; text before is kept', async () => {
    const text = `${chatPartial}data: {"error":{"message":"upstream failed","type":"server_error","code":"upstream"}}\n\n${`data: ${chatChunk({ content: 'never' })}\n\n`}`;
    const result = await runEverySplit(text);
    assert.deepEqual(result.error, {
      name: 'StreamError',
      message: 'upstream failed',
      interrupted: false,
      type: 'server_error',
      code: 'upstream',
    });
    assert.equal(result.snapshot.content, 'Teil 1 – ünd 2');
  });

  it('reads `{"error": "text"}` and `event: error` (JSON or plain text) as errors too', async () => {
    const plain = await run([encoder.encode(`${chatPartial}data: {"error":"boom"}\n\n`)]);
    assert.equal(plain.error?.message, 'boom');
    const named = await run([encoder.encode(`${chatPartial}event: error\ndata: {"message":"overloaded"}\n\n`)]);
    assert.equal(named.error?.message, 'overloaded');
    const text = await run([encoder.encode(`${chatPartial}event: error\ndata: rate limited upstream\n\n`)]);
    assert.equal(text.error?.message, 'rate limited upstream');
    assert.equal(text.snapshot.content, 'Teil 1 – ünd 2');
  });

  it('skips a malformed JSON chunk and goes on (the end still decides between done and interrupted)', async () => {
    const garbled = `${chatPartial}data: {"choices":[{"index":0,"delta":{"content":"a"}\n\n`;
    const done = await runEverySplit(`${garbled}data: ${chatChunk({ content: '!' }, 'stop')}\n\ndata: [DONE]\n\n`);
    assert.equal(done.error, undefined);
    assert.equal(done.snapshot.content, 'Teil 1 – ünd 2!');
    const cut = await run([encoder.encode(garbled)]);
    assert.equal(cut.error?.interrupted, true);
    assert.equal(cut.snapshot.content, 'Teil 1 – ünd 2');
  });

  it('tolerates chunks without id/object/created, missing choice index and empty data lines', async () => {
    const text =
      'data:\n\ndata: {"choices":[{"delta":{"content":"x"}}]}\n\ndata:{"choices":[{"delta":{},"finish_reason":"length"}]}\n\n';
    const result = await run([encoder.encode(text)]);
    assert.equal(result.error, undefined);
    assert.equal(result.snapshot.content, 'x');
    assert.equal(result.snapshot.finishReason, 'length');
  });

  it('keeps unknown finish_reason values as text', async () => {
    const result = await run([encoder.encode(`data: ${chatChunk({ content: 'a' }, 'weird_reason')}\n\n`)]);
    assert.equal(result.snapshot.finishReason, 'weird_reason');
  });

  it('a source that fails mid-stream gives an interrupted StreamError with the cause; after finish_reason it ends normally', async () => {
    async function* failing(text: string): AsyncGenerator<Uint8Array> {
      yield encoder.encode(text);
      throw new Error('socket hang up');
    }
    const broken = await collect(parseChatStream(failing(chatPartial)));
    assert.ok(broken.error instanceof StreamError && broken.error.interrupted);
    assert.equal((broken.error.cause as Error).message, 'socket hang up');
    const finished = await collect(parseChatStream(failing(`data: ${chatChunk({ content: 'a' }, 'stop')}\n\n`)));
    assert.equal(finished.error, undefined);
    assert.equal(finished.items.length, 1);
  });

  it('closes the source when the consumer stops early', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        for (let i = 0; ; i++) yield encoder.encode(`data: ${chatChunk({ content: String(i) })}\n\n`);
      } finally {
        closed = true;
      }
    }
    let seen = 0;
    for await (const _ of parseChatStream(source())) if (++seen === 3) break;
    assert.equal(closed, true);
  });
});
