// H1 and H2: an abort is honoured even when the items are already buffered (the decoder may have
// seen [DONE]) and when it lands while an async API key is being resolved.
import * as assert from 'node:assert/strict';
import { startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';
import { GatewayClient } from '../../../src/core/transport/client';
import type { ChatCompletionRequest } from '../../../src/core/types/chat';
import { parseChatStream } from '../../../src/core/streams/chatStream';
import { Exchange } from '../../../src/core/transport/exchange';
import { managedStream } from '../../../src/core/streams/streamIterable';
import { chatContentStream } from './fixtures';
import { delay, encoder, sendJson, sseData, startServer } from './testUtil';
import type { TestServer } from './testUtil';

const CHAT = 'sim-openai/gpt-sim-mini';
const chatReq: ChatCompletionRequest = { model: CHAT, messages: [{ role: 'user', content: 'Hello there' }] };

describe('core: abort with buffered items (H1)', () => {
  it('a managed stream rejects with AbortError instead of handing out items decoded before the abort', async () => {
    let closed = false;
    async function* body(): AsyncGenerator<Uint8Array, void, undefined> {
      try {
        yield encoder.encode(chatContentStream); // every event and [DONE] in one network chunk
        await new Promise(() => undefined);
      } finally {
        closed = true;
      }
    }
    const controller = new AbortController();
    const stream = managedStream(
      async () => ({ items: parseChatStream(body()), recover: async () => undefined }),
      controller.signal,
    );
    const seen: unknown[] = [];
    await assert.rejects(
      (async () => {
        for await (const chunk of stream) {
          seen.push(chunk);
          if (seen.length === 2) controller.abort();
        }
      })(),
      { name: 'AbortError' },
    );
    assert.equal(seen.length, 2);
    assert.equal(closed, true, 'the byte source was closed');
  });

  describe('against the local gateway', function () {
    this.timeout(20_000);
    let gateway: LocalGateway;
    before(async () => {
      gateway = await startGateway({});
    });
    after(async () => {
      await gateway.stop();
    });

    it('ac.abort() at chunk 2 of a normal chat stream ends the loop with AbortError at once', async () => {
      const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
      const controller = new AbortController();
      let seen = 0;
      await assert.rejects(
        (async () => {
          for await (const _ of client.chat.stream(chatReq, { signal: controller.signal }))
            if (++seen === 2) controller.abort();
        })(),
        { name: 'AbortError' },
      );
      assert.equal(seen, 2);
    });
  });
});

describe('core: abort while an async API key resolves (H2)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer((_req, res) => {
      if (_req.url?.includes('/chat/completions') && _req.headers.accept === 'text/event-stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          `${sseData({ choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] })}${sseData('[DONE]')}`,
        );
        return;
      }
      sendJson(res, 200, {
        choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'stop' }],
      });
    });
  });
  after(async () => {
    await server.stop();
  });

  function slowKeyClient(): GatewayClient {
    return new GatewayClient({
      baseUrl: server.url,
      apiKey: async () => {
        await delay(50);
        return 'slow-key';
      },
    });
  }

  it('an Exchange made with an already aborted signal is aborted at once', () => {
    const exchange = new Exchange(AbortSignal.abort(), { connectMs: 0, firstByteMs: 0, idleMs: 0 }, 'localhost');
    assert.equal(exchange.signal.aborted, true);
    exchange.detach();
  });

  it('a promise method rejects with AbortError and sends nothing', async () => {
    const before = server.requests.length;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    await assert.rejects(slowKeyClient().chat.create(chatReq, { signal: controller.signal }), { name: 'AbortError' });
    await delay(50);
    assert.equal(server.requests.length, before);
  });

  it('a stream throws AbortError and sends nothing', async () => {
    const before = server.requests.length;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    await assert.rejects(
      (async () => {
        for await (const _ of slowKeyClient().chat.stream(chatReq, { signal: controller.signal })) {
          // nothing: the abort comes before the request
        }
      })(),
      { name: 'AbortError' },
    );
    await delay(50);
    assert.equal(server.requests.length, before);
  });
});
