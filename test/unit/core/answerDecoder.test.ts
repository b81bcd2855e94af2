// What a streaming request's answer turns out to be (src/core/answers/answerDecoder.ts), decided
// from its Content-Type and first bytes, with the bytes split at every offset: an SSE stream under
// a wrong or missing content type, a whole JSON answer, or a page that is neither.
import * as assert from 'node:assert/strict';
import { ChatStreamAccumulator } from '../../../src/core/streams/chatAccumulator';
import { MessageStreamAccumulator } from '../../../src/core/streams/messageAccumulator';
import { parseChatStream } from '../../../src/core/streams/chatStream';
import { parseMessagesStream } from '../../../src/core/streams/messagesStream';
import { StreamError, UnexpectedContentError } from '../../../src/core/errors';
import { contentSnippet } from '../../../src/core/answers/unexpectedContent';
import { chunked, collect, encoder, everySplit } from './testUtil';

const SSE =
  'data: {"choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\ndata: {"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"lo"}]},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
const WHOLE = JSON.stringify({
  id: 'c1',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Hello',
        tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
      },
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 3, completion_tokens: 2 },
});

async function chatText(
  text: string,
  contentType: string,
): Promise<{ snapshot: ReturnType<ChatStreamAccumulator['snapshot']>; error?: unknown }[]> {
  const results = [];
  for (const split of everySplit(encoder.encode(text))) {
    const accumulator = new ChatStreamAccumulator();
    const { items, error } = await collect(parseChatStream(chunked(split), contentType));
    for (const item of items) accumulator.add(item);
    results.push({ snapshot: accumulator.snapshot(), error });
  }
  return results;
}

describe('answers to a streaming request, read for what they are', () => {
  it('an event stream under text/plain, no content type, or with leading blank lines and a BOM is still a stream', async () => {
    for (const [body, type] of [
      [SSE, 'text/plain'],
      [SSE, ''],
      [`\ufeff\n\n: keep-alive\n\n${SSE}`, 'application/octet-stream'],
      [SSE, 'application/json'],
    ] as const) {
      for (const { snapshot, error } of await chatText(body, type)) {
        assert.equal(error, undefined, `${type}: ${String(error)}`);
        assert.equal(snapshot.content, 'Hello');
        assert.equal(snapshot.finishReason, 'stop');
      }
    }
  });

  it('a whole JSON completion under any content type becomes its text, tool calls and usage', async () => {
    for (const type of ['application/json; charset=utf-8', 'text/plain', '', 'application/vnd.api+json']) {
      for (const { snapshot, error } of await chatText(`\ufeff  \n${WHOLE}`, type)) {
        assert.equal(error, undefined, String(error));
        assert.equal(snapshot.content, 'Hello');
        assert.deepEqual(snapshot.toolCalls, [{ id: 't1', name: 'f', arguments: '{"a":1}' }]);
        assert.equal(snapshot.finishReason, 'tool_calls');
        assert.equal(snapshot.usage?.total_tokens, 5);
      }
    }
  });

  it('keep-alive whitespace longer than the sniffed prefix before a whole JSON answer is still that answer', async () => {
    const body = `${'\n'.repeat(40)}${' \r\n'.repeat(20)}${WHOLE}`;
    for (const split of [[encoder.encode(body)], [...encoder.encode(body)].map((byte) => Uint8Array.of(byte))]) {
      const accumulator = new ChatStreamAccumulator();
      const { items, error } = await collect(parseChatStream(chunked(split), 'application/json'));
      for (const item of items) accumulator.add(item);
      assert.equal(error, undefined, String(error));
      assert.equal(accumulator.snapshot().content, 'Hello');
    }
  });

  it('a 200 JSON error body is the server error, a cut one an interruption', async () => {
    const [failed] = await chatText(
      '{"error":{"message":"model overloaded","type":"server_error"}}',
      'application/json',
    );
    assert.ok(failed?.error instanceof StreamError && !failed.error.interrupted, String(failed?.error));
    assert.match(failed.error.message, /model overloaded/);
    const [cut] = await chatText(WHOLE.slice(0, 40), 'application/json');
    assert.ok(cut?.error instanceof StreamError && cut.error.interrupted, String(cut?.error));
  });

  it('a page or plain text is an UnexpectedContentError naming the type and a clean snippet, however split', async () => {
    const page =
      '<!doctype html><html><head><title>\n  Access\u202e denied &amp; logged\u0007 </title></head><body><script>alert(1)</script>blocked</body></html>';
    for (const { error } of await chatText(page, 'text/html')) {
      assert.ok(error instanceof UnexpectedContentError, String(error));
      assert.match(error.message, /a web page \(text\/html, "Access denied & logged"\)/);
    }
    const [plain] = await chatText('Service temporarily unavailable, please retry later', 'text/plain; charset=utf-8');
    assert.ok(plain?.error instanceof UnexpectedContentError);
    assert.match(
      plain.error.message,
      /something that is not an API answer \(text\/plain, "Service temporarily unavailable, please retry later"\)/,
    );
    const [empty] = await chatText('', 'text/html');
    assert.match(String((empty?.error as Error).message), /an empty answer \(text\/html\)/);
  });

  it('stops reading a long page after enough for its title', async () => {
    const page = `<html><head><title>Portal</title></head><body>${'x'.repeat(200_000)}</body></html>`;
    let pulled = 0;
    const body = (async function* () {
      for (let i = 0; i < page.length; i += 1000) {
        pulled++;
        yield encoder.encode(page.slice(i, i + 1000));
      }
    })();
    const { error } = await collect(parseChatStream(body, 'text/html'));
    assert.ok(error instanceof UnexpectedContentError);
    assert.ok(pulled < 50, `read ${pulled} chunks of 200`);
  });

  it('messages: a whole message under application/json becomes the events of its stream', async () => {
    const message = {
      id: 'm1',
      type: 'message',
      role: 'assistant',
      model: 'x',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'text', text: 'Hi' },
        { type: 'redacted_thinking', data: 'opaque' },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 4, output_tokens: 7 },
    };
    const { items, error } = await collect(
      parseMessagesStream(chunked([encoder.encode(JSON.stringify(message))]), 'application/json'),
    );
    assert.equal(error, undefined);
    const accumulator = new MessageStreamAccumulator();
    for (const item of items) accumulator.add(item);
    const snapshot = accumulator.snapshot();
    assert.equal(accumulator.text(), 'Hi');
    assert.deepEqual(snapshot.content, message.content);
    assert.equal(snapshot.stop_reason, 'end_turn');
    assert.equal(snapshot.usage.output_tokens, 7);
    const anthropicError = await collect(
      parseMessagesStream(
        chunked([encoder.encode('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')]),
        'application/json',
      ),
    );
    assert.ok(anthropicError.error instanceof StreamError);
    assert.match(anthropicError.error.message, /Overloaded/);
  });

  it('contentSnippet: a title, else the visible text without scripts, cut short', () => {
    assert.equal(
      contentSnippet('<html><body><script>var k="x"</script><p>Hello <b>there</b></p></body></html>', true),
      'Hello there',
    );
    assert.equal(contentSnippet('word '.repeat(100), false).length, 80);
    // A credential in the page never survives as a prefix the later redaction could not recognise.
    const key = 'sk-live/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const snippet = contentSnippet(`<title>Proxy says: Bearer ${'x'.repeat(50)}${key}</title>`, true);
    assert.equal(snippet, 'Proxy says: Bearer [token]');
  });
});
