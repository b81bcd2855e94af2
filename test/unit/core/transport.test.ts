// The client against tiny throwaway servers: auth headers, retries, Retry-After, timeouts, abort.
import * as assert from 'node:assert/strict';
import {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  RateLimitError,
  StreamError,
  TimeoutError,
} from '../../../src/core/errors';
import { ChatStreamAccumulator } from '../../../src/core/streams/chatAccumulator';
import { GatewayClient } from '../../../src/core/transport/client';
import type { ChatCompletionRequest } from '../../../src/core/types/chat';
import { chatChunk } from './fixtures';
import { collect, delay, sendJson, sseData, startServer, within } from './testUtil';
import type { Handler, TestServer } from './testUtil';

const KEY = 'sk-test-1234567890-secret';
const chatReq: ChatCompletionRequest = { model: 'local/sim', messages: [{ role: 'user', content: 'hi' }] };
const completion = {
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model: 'local/sim',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
};

let server: TestServer | undefined;
async function serve(handler: Handler): Promise<TestServer> {
  server = await startServer(handler);
  return server;
}
async function stopServer(): Promise<void> {
  await server?.stop();
  server = undefined;
}

function client(url: string, extra: Partial<ConstructorParameters<typeof GatewayClient>[0]> = {}): GatewayClient {
  return new GatewayClient({ baseUrl: url, apiKey: KEY, ...extra });
}

/** A stream that sends one chunk every `everyMs` until the client goes away. */
const endlessStream: Handler = async (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (let i = 0; i < 2000 && !res.destroyed; i++) {
    res.write(sseData(JSON.parse(chatChunk({ content: `${i} ` }))));
    await delay(20);
  }
  res.end();
};

describe('core client: auth', () => {
  afterEach(stopServer);

  it('sends Authorization: Bearer by default and x-api-key when chosen, to {base}/api/v1/...', async () => {
    const s = await serve((_req, res) => sendJson(res, 200, { credits: 12.5, reset: '2030-01-01T00:00:00.000Z' }));
    assert.deepEqual(await client(`${s.url}/`).quota.get(), { credits: 12.5, reset: '2030-01-01T00:00:00.000Z' });
    await client(`${s.url}/api/v1`, { authHeader: 'x-api-key' }).quota.get();
    assert.equal(s.requests[0]?.url, '/api/v1/quota');
    assert.equal(s.requests[0]?.headers.authorization, `Bearer ${KEY}`);
    assert.equal(s.requests[0]?.headers['x-api-key'], undefined);
    assert.equal(s.requests[1]?.url, '/api/v1/quota');
    assert.equal(s.requests[1]?.headers['x-api-key'], KEY);
    assert.equal(s.requests[1]?.headers.authorization, undefined);
  });

  it('asks a key function before every request, so a changed key applies at once; caller headers cannot override it', async () => {
    const s = await serve((_req, res) => sendJson(res, 200, { object: 'list', data: [] }));
    let key = 'first-key-0001';
    const c = new GatewayClient({
      baseUrl: s.url,
      apiKey: async () => key,
      headers: { Authorization: 'Bearer other', 'x-extra': '1' },
    });
    await c.models.list();
    key = 'second-key-0002';
    await c.models.list();
    assert.deepEqual(
      s.requests.map((r) => r.headers.authorization),
      ['Bearer first-key-0001', 'Bearer second-key-0002'],
    );
    assert.equal(s.requests[0]?.headers['x-extra'], '1');
  });

  it('without a key rejects with AuthenticationError and sends nothing', async () => {
    const s = await serve((_req, res) => sendJson(res, 200, {}));
    await assert.rejects(
      new GatewayClient({ baseUrl: s.url, apiKey: async () => undefined }).quota.get(),
      AuthenticationError,
    );
    await assert.rejects(new GatewayClient({ baseUrl: s.url, apiKey: '  ' }).quota.get(), AuthenticationError);
    assert.equal(s.requests.length, 0);
  });

  it('401 is an AuthenticationError with the server message, never the key (even when the server echoes it)', async () => {
    const s = await serve((req, res) =>
      sendJson(
        res,
        401,
        { error: `Invalid API key: ${String(req.headers.authorization)}` },
        { 'x-request-id': 'req-42' },
      ),
    );
    const error = await client(s.url)
      .models.list()
      .then(
        () => assert.fail('should reject'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof AuthenticationError);
    assert.equal(error.status, 401);
    assert.equal(error.requestId, 'req-42');
    assert.match(error.message, /Invalid API key/);
    assert.ok(!error.message.includes(KEY), error.message);
    assert.ok(!JSON.stringify({ ...error, stack: error.stack }).includes(KEY));
    assert.equal(s.requests.length, 1, '401 is not retried');
  });
});

describe('core client: retries', () => {
  afterEach(stopServer);

  it('retries 503 and then succeeds (default 2 retries)', async () => {
    const s = await serve((_req, res, _b, i) =>
      i < 2
        ? sendJson(res, 503, { error: { message: 'busy' } }, { 'retry-after-ms': '10' })
        : sendJson(res, 200, completion),
    );
    const result = await client(s.url).chat.create(chatReq);
    assert.equal(result.choices[0]?.message.content, 'hello');
    assert.equal(s.requests.length, 3);
  });

  it('gives up after maxRetries with the last error; maxRetries 0 sends once', async () => {
    const s = await serve((_req, res) => sendJson(res, 500, { message: 'kaputt' }, { 'retry-after-ms': '5' }));
    await assert.rejects(
      client(s.url).embeddings.create({ model: 'e', input: 'x' }),
      (e: unknown) => e instanceof GatewayError && e.status === 500 && e.message === 'kaputt',
    );
    assert.equal(s.requests.length, 3);
    await assert.rejects(
      client(s.url, { maxRetries: 0 }).rerank.create({ model: 'r', query: 'q', documents: ['a'] }),
      GatewayError,
    );
    assert.equal(s.requests.length, 4);
    await assert.rejects(client(s.url).models.list({ maxRetries: 1 }), GatewayError);
    assert.equal(s.requests.length, 6);
  });

  it('waits as long as Retry-After says (retry-after-ms, retry-after seconds)', async () => {
    const s = await serve((_req, res, _b, i) => {
      if (i === 0)
        return sendJson(
          res,
          429,
          { error: { message: 'slow down', type: 'rate_limit_error' } },
          { 'retry-after-ms': '700' },
        );
      if (i === 2) return sendJson(res, 408, { error: 'timeout' }, { 'retry-after': '1' });
      return sendJson(res, 200, { object: 'list', data: [{ id: 'a/b' }] });
    });
    const started = Date.now();
    await client(s.url).models.list();
    assert.ok(Date.now() - started >= 650, `retried after ${Date.now() - started} ms`);
    const second = Date.now();
    await client(s.url).models.list();
    assert.ok(Date.now() - second >= 950, `retried after ${Date.now() - second} ms`);
    assert.equal(s.requests.length, 4);
  });

  it('does not wait for a Retry-After beyond 60 s: the error carries retryAfterMs', async () => {
    const s = await serve((_req, res) =>
      sendJson(res, 429, { error: { message: 'later', type: 'rate_limit_error' } }, { 'retry-after': '3600' }),
    );
    await assert.rejects(
      client(s.url).models.list(),
      (e: unknown) => e instanceof RateLimitError && e.retryAfterMs === 3_600_000 && !e.quotaExhausted,
    );
    assert.equal(s.requests.length, 1);
  });

  it('never retries out of credits (429 with quota/credit/insufficient in code or type) nor 402', async () => {
    const s = await serve((_req, res, _b, i) =>
      i === 0
        ? sendJson(
            res,
            429,
            { error: { message: 'Out of credits', type: 'insufficient_quota', code: 'insufficient_quota' } },
            { 'retry-after': '0' },
          )
        : sendJson(res, 402, { error: 'Payment required' }),
    );
    await assert.rejects(
      client(s.url).chat.create(chatReq),
      (e: unknown) =>
        e instanceof RateLimitError && e.quotaExhausted && e.status === 429 && e.message === 'Out of credits',
    );
    assert.equal(s.requests.length, 1);
    await assert.rejects(
      client(s.url).chat.create(chatReq),
      (e: unknown) => e instanceof RateLimitError && e.status === 402,
    );
    assert.equal(s.requests.length, 2);
  });

  it('never retries research creation, images, speech or transcription', async () => {
    const s = await serve((_req, res) => sendJson(res, 503, { error: 'busy' }, { 'retry-after-ms': '1' }));
    const c = client(s.url);
    await assert.rejects(c.research.create('a topic'), (e: unknown) => e instanceof GatewayError && e.status === 503);
    await assert.rejects(c.images.generate({ model: 'i', prompt: 'p' }), GatewayError);
    await assert.rejects(c.audio.speech({ model: 's', input: 'hi', voice: 'alloy' }), GatewayError);
    await assert.rejects(
      c.audio.transcribe({ model: 't', file: { data: new Uint8Array([1, 2]), filename: 'a.wav' } }),
      GatewayError,
    );
    assert.deepEqual(
      s.requests.map((r) => r.url),
      ['/api/v1/research', '/api/v1/images/generations', '/api/v1/audio/speech', '/api/v1/audio/transcriptions'],
    );
    // ...while research reads are retried.
    await assert.rejects(c.research.get('job-1'), GatewayError);
    assert.equal(s.requests.length, 7);
  });

  it('a refused connection is a ConnectionError, retried, naming the host but not the key', async () => {
    const s = await serve((_req, res) => sendJson(res, 200, {}));
    const url = s.url;
    await s.stop();
    server = undefined;
    const error = await client(url, { maxRetries: 1 })
      .quota.get()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(error instanceof ConnectionError, String(error));
    assert.match(error.message, /127\.0\.0\.1/);
    assert.ok(!error.message.includes(KEY));
  });

  it('falls back without stream_options after a 400 naming it, and remembers that for this base URL', async () => {
    const s = await serve((_req, res, body) => {
      const json = JSON.parse(body.toString()) as { stream_options?: unknown };
      if (json.stream_options !== undefined)
        return sendJson(res, 400, {
          error: { message: 'Unrecognized request argument supplied: stream_options', param: 'stream_options' },
        });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sseData(JSON.parse(chatChunk({ content: 'ok' }, 'stop'))) + sseData('[DONE]'));
    });
    const c = client(s.url);
    const first = await collect(c.chat.stream(chatReq));
    assert.equal(first.error, undefined);
    assert.equal(first.items[0]?.choices[0]?.delta.content, 'ok');
    const again = await collect(client(`${s.url}/`).chat.stream(chatReq));
    assert.equal(again.error, undefined);
    const sent = s.requests.map((r) => (JSON.parse(r.body.toString()) as { stream_options?: unknown }).stream_options);
    assert.deepEqual(sent, [{ include_usage: true }, undefined, undefined]);
  });

  it('retries a stream that closed before any body byte, but not one that broke after some (text kept)', async () => {
    const s = await serve((_req, res, _b, i) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (i === 0) {
        res.flushHeaders();
        setTimeout(() => res.destroy(), 20);
        return;
      }
      if (i === 1) {
        res.end(sseData(JSON.parse(chatChunk({ content: 'whole' }, 'stop'))) + sseData('[DONE]'));
        return;
      }
      res.write(sseData(JSON.parse(chatChunk({ content: 'half ' }))));
      setTimeout(() => res.destroy(), 50);
    });
    const whole = await collect(client(s.url).chat.stream(chatReq));
    assert.equal(whole.error, undefined);
    assert.equal(whole.items[0]?.choices[0]?.delta.content, 'whole');
    assert.equal(s.requests.length, 2);

    const accumulator = new ChatStreamAccumulator();
    const error = await (async () => {
      for await (const chunk of client(s.url).chat.stream(chatReq)) accumulator.add(chunk);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof StreamError && error.interrupted, String(error));
    assert.equal(accumulator.snapshot().content, 'half ');
    assert.equal(s.requests.length, 3);
  });
});

describe('core client: timeouts and cancelling', () => {
  afterEach(stopServer);

  it('timeoutMs bounds the wait for response headers (TimeoutError, not retried)', async () => {
    const s = await serve(async (_req, res) => {
      await delay(3000);
      if (!res.destroyed) sendJson(res, 200, {});
    });
    const started = Date.now();
    await within(10_000, assert.rejects(client(s.url, { timeoutMs: 300 }).quota.get(), TimeoutError), 'the timeout');
    assert.ok(Date.now() - started >= 250);
    assert.equal(s.requests.length, 1);
    const closed = await within(
      5000,
      (s.requests[0] as { closed: Promise<{ finished: boolean }> }).closed,
      'the server seeing the close',
    );
    assert.equal(closed.finished, false);
  });

  it('timeoutMs bounds the silence between stream events; the text so far stays with the caller', async () => {
    const s = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseData(JSON.parse(chatChunk({ content: 'before silence' }))));
      await delay(4000);
      res.end();
    });
    const accumulator = new ChatStreamAccumulator();
    const run = (async () => {
      for await (const chunk of client(s.url).chat.stream(chatReq, { timeoutMs: 400 })) accumulator.add(chunk);
    })();
    await within(10_000, assert.rejects(run, TimeoutError), 'the stream timeout');
    assert.equal(accumulator.snapshot().content, 'before silence');
  });

  it('an abort before the response rejects with AbortError and closes the connection', async () => {
    const s = await serve(async (_req, res) => {
      await delay(5000);
      if (!res.destroyed) sendJson(res, 200, completion);
    });
    const controller = new AbortController();
    const pending = client(s.url).chat.create(chatReq, { signal: controller.signal });
    while (s.requests.length === 0) await delay(10);
    controller.abort();
    await within(
      5000,
      assert.rejects(pending, (e: unknown) => e instanceof Error && e.name === 'AbortError'),
      'the rejection',
    );
    const closed = await within(
      5000,
      (s.requests[0] as { closed: Promise<{ finished: boolean }> }).closed,
      'the server seeing the close',
    );
    assert.equal(closed.finished, false);
  });

  it('an already aborted signal sends nothing', async () => {
    const s = await serve((_req, res) => sendJson(res, 200, completion));
    await assert.rejects(client(s.url).chat.create(chatReq, { signal: AbortSignal.abort() }), { name: 'AbortError' });
    await assert.rejects(
      collect(client(s.url).chat.stream(chatReq, { signal: AbortSignal.abort() })).then((o) => Promise.reject(o.error)),
      { name: 'AbortError' },
    );
    assert.equal(s.requests.length, 0);
  });

  it('an abort mid-stream throws AbortError from the loop at once and the server sees the socket close', async () => {
    const s = await serve(endlessStream);
    const controller = new AbortController();
    let seen = 0;
    const run = (async () => {
      for await (const _ of client(s.url).chat.stream(chatReq, { signal: controller.signal }))
        if (++seen === 3) controller.abort();
    })();
    await within(5000, assert.rejects(run, { name: 'AbortError' }), 'the AbortError');
    assert.ok(seen >= 3 && seen < 10, String(seen));
    const closed = await within(
      5000,
      (s.requests[0] as { closed: Promise<{ finished: boolean }> }).closed,
      'the server seeing the close',
    );
    assert.equal(closed.finished, false);
  });

  it('breaking out of for await destroys the body: the server sees the socket close', async () => {
    const s = await serve(endlessStream);
    let seen = 0;
    for await (const _ of client(s.url).chat.stream(chatReq)) if (++seen === 3) break;
    const closed = await within(
      5000,
      (s.requests[0] as { closed: Promise<{ finished: boolean }> }).closed,
      'the server seeing the close',
    );
    assert.equal(closed.finished, false);
  });

  it('an abort during a retry wait rejects at once with AbortError', async () => {
    const s = await serve((_req, res) => sendJson(res, 503, { error: 'busy' }, { 'retry-after': '30' }));
    const controller = new AbortController();
    const pending = client(s.url).models.list({ signal: controller.signal });
    while (s.requests.length === 0) await delay(10);
    await delay(50);
    controller.abort();
    await within(3000, assert.rejects(pending, { name: 'AbortError' }), 'the rejection');
    assert.equal(s.requests.length, 1);
  });
});
