import * as assert from 'node:assert/strict';
import { FAULT_HEADER } from '../../gateway/index';
import { chatChunks, get, json, parseSse, post, useGateway, type Json } from './helpers';

const MODEL = 'sim-openai/gpt-sim-mini';
const chat = (extra: Json = {}): Json => ({
  model: MODEL,
  messages: [{ role: 'user', content: 'fault test' }],
  ...extra,
});

describe('local gateway: fault injection', () => {
  const gw = useGateway();

  it('answers status=503 with retry-after, and status=429 with retry-after-ms, in the endpoint error shape', async () => {
    const unavailable = await post(gw(), '/chat/completions', chat(), { [FAULT_HEADER]: 'status=503;retry-after=2' });
    assert.equal(unavailable.status, 503);
    assert.equal(unavailable.headers.get('retry-after'), '2');
    assert.equal(typeof (await json(unavailable)).error.message, 'string');
    const limited = await post(
      gw(),
      '/embeddings',
      { model: 'sim-openai/text-embedding-sim-small', input: 'x' },
      { [FAULT_HEADER]: 'status=429;retry-after-ms=1500' },
    );
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after-ms'), '1500');
    const body = await json(limited);
    assert.doesNotMatch(JSON.stringify(body), /quota|credit|insufficient/i, 'a plain rate limit, retryable');
    const messages = await post(
      gw(),
      '/messages',
      { model: 'sim-anthropic/claude-sim-sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] },
      { [FAULT_HEADER]: 'status=500' },
    );
    assert.equal(messages.status, 500);
    assert.equal((await json(messages)).type, 'error', 'Anthropic shape on /messages');
    const quota = await post(gw(), '/chat/completions', chat(), {
      [FAULT_HEADER]: 'status=429;code=insufficient_quota',
    });
    assert.equal((await json(quota)).error.type, 'insufficient_quota');
  });

  it('applies a model-name suffix fault, and with times=n only to the first n requests of that spec', async () => {
    const suffixed = chat({ model: `${MODEL}::status=500;times=2` });
    assert.equal((await post(gw(), '/chat/completions', suffixed)).status, 500);
    assert.equal((await post(gw(), '/chat/completions', suffixed)).status, 500);
    const third = await post(gw(), '/chat/completions', suffixed);
    assert.equal(third.status, 200);
    assert.equal((await json(third)).model, MODEL, 'the suffix is stripped before model lookup');
    const records = gw().requests.filter((r) => (r.body as Json | undefined)?.model === suffixed.model);
    assert.deepEqual(
      records.map((r) => [r.status, r.fault]),
      [
        [500, 'status=500;times=2'],
        [500, 'status=500;times=2'],
        [200, undefined],
      ],
    );
    gw().resetFaultCounters();
    assert.equal((await post(gw(), '/chat/completions', suffixed)).status, 500);
  });

  it('applies a header fault to GET endpoints too, and rejects an unknown fault item', async () => {
    assert.equal((await get(gw(), '/models', { [FAULT_HEADER]: 'status=502' })).status, 502);
    const typo = await get(gw(), '/models', { [FAULT_HEADER]: 'stauts=502' });
    assert.equal(typo.status, 400);
    assert.equal((await json(typo)).error.param, FAULT_HEADER);
  });

  it('wire variants: whole-json answers a stream with JSON, html-200 with a portal page; they take no value', async () => {
    const whole = await post(gw(), '/chat/completions', chat({ stream: true }), { [FAULT_HEADER]: 'whole-json' });
    assert.match(whole.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal((await json(whole)).object, 'chat.completion');
    const portal = await post(
      gw(),
      '/messages',
      {
        model: 'sim-anthropic/claude-sim-sonnet',
        max_tokens: 10,
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      },
      { [FAULT_HEADER]: 'html-200' },
    );
    assert.equal(portal.status, 200);
    assert.match(portal.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await portal.text(), /<title>Hotel Wi-Fi/);
    const parts = chatChunks(
      await (
        await post(gw(), '/chat/completions', chat({ stream: true }), { [FAULT_HEADER]: 'content-parts;no-choices' })
      ).text(),
    );
    assert.ok(
      parts.some((c) => c.choices === null),
      'a choices: null chunk',
    );
    assert.ok(
      parts.some((c) => Array.isArray((c.choices as Json[] | null)?.[0]?.delta?.content)),
      'content as parts',
    );
    assert.equal((await post(gw(), '/chat/completions', chat(), { [FAULT_HEADER]: 'whole-json=1' })).status, 400);
  });

  it('delays the headers by delay-headers', async () => {
    const started = Date.now();
    const res = await get(gw(), '/quota', { [FAULT_HEADER]: 'delay-headers=600' });
    assert.equal(res.status, 200);
    assert.ok(Date.now() - started >= 550, `took ${Date.now() - started} ms`);
  });

  it('spaces stream events by delay-chunks', async () => {
    const started = Date.now();
    const text = await (
      await post(gw(), '/chat/completions', chat({ stream: true, max_tokens: 5 }), {
        [FAULT_HEADER]: 'delay-chunks=150',
      })
    ).text();
    const events = parseSse(text).length; // role, 5 content, finish, [DONE]
    assert.equal(events, 8);
    assert.ok(Date.now() - started >= (events - 1) * 150 * 0.9, `took ${Date.now() - started} ms`);
  });

  it('cuts the connection after N body bytes (stream and plain JSON), and records it', async () => {
    const res = await post(gw(), '/chat/completions', chat({ stream: true }), { [FAULT_HEADER]: 'cut-after=300' });
    assert.equal(res.status, 200);
    await assert.rejects(res.text(), 'reading a cut stream fails');
    const record = await gw().waitForRequest((r) => r.fault === 'cut-after=300');
    assert.equal(await record.closed, 'aborted');
    assert.equal(record.cutByFault, true);
    assert.equal(record.bytesWritten, 300);
    const plain = await post(gw(), '/chat/completions', chat(), { [FAULT_HEADER]: 'cut-after=20' });
    await assert.rejects(plain.text());
  });

  it('inserts one malformed JSON event mid-stream and still ends with [DONE]', async () => {
    const text = await (
      await post(gw(), '/chat/completions', chat({ stream: true }), { [FAULT_HEADER]: 'malformed-chunk' })
    ).text();
    const events = parseSse(text);
    const broken = events.filter((e) => {
      if (e.data === '[DONE]') return false;
      try {
        JSON.parse(e.data);
        return false;
      } catch {
        return true;
      }
    });
    assert.equal(broken.length, 1);
    assert.equal(events[events.length - 1]?.data, '[DONE]');
  });

  it('sends an error event mid-stream in each endpoint shape and ends without the normal terminator', async () => {
    const chatText = await (
      await post(gw(), '/chat/completions', chat({ stream: true }), { [FAULT_HEADER]: 'error-event' })
    ).text();
    assert.doesNotMatch(chatText, /\[DONE\]/);
    const chunks = chatChunks(chatText);
    assert.equal((chunks[chunks.length - 1] as Json).error.type, 'server_error');
    assert.ok(
      chunks.some((c) => (c.choices as Json[] | undefined)?.[0]?.delta?.content),
      'some text came before the error',
    );
    const messagesText = await (
      await post(gw(), '/messages', {
        model: 'sim-anthropic/claude-sim-sonnet::error-event',
        max_tokens: 500,
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      })
    ).text();
    const events = parseSse(messagesText);
    assert.equal(events[events.length - 1]?.event, 'error');
    assert.equal((JSON.parse(events[events.length - 1]?.data ?? '{}') as Json).error.type, 'overloaded_error');
    assert.ok(!events.some((e) => e.event === 'message_stop'));
  });

  it('sends half a JSON body for malformed-chunk on a non-streaming answer', async () => {
    const res = await post(gw(), '/chat/completions', chat(), { [FAULT_HEADER]: 'malformed-chunk' });
    assert.equal(res.status, 200);
    await assert.rejects(res.json());
  });
});

describe('local gateway: connection-closed records', () => {
  const gw = useGateway();

  it("records 'aborted' when the client aborts mid-stream, and 'completed' when it reads to the end", async () => {
    const controller = new AbortController();
    const res = await post(
      gw(),
      '/chat/completions',
      chat({ model: 'sim-bench/stream-bench', stream: true, max_tokens: 200 }),
      { [FAULT_HEADER]: 'delay-chunks=100', 'x-test': 'abort-me' },
      controller.signal,
    );
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    const record = await gw().waitForRequest((r) => r.headers['x-test'] === 'abort-me');
    assert.equal(await record.closed, 'aborted');
    assert.equal(record.outcome, 'aborted');
    assert.equal(record.cutByFault, false);

    await (await post(gw(), '/chat/completions', chat({ stream: true }), { 'x-test': 'read-all' })).text();
    const full = await gw().waitForRequest((r) => r.headers['x-test'] === 'read-all');
    assert.equal(await full.closed, 'completed');
  });

  it("records 'aborted' when the client gives up while waiting for headers", async () => {
    const controller = new AbortController();
    const pending = fetch(`${gw().apiUrl}/quota`, {
      headers: { authorization: `Bearer ${gw().apiKey}`, [FAULT_HEADER]: 'delay-headers=5000', 'x-test': 'impatient' },
      signal: controller.signal,
    });
    const record = await gw().waitForRequest((r) => r.headers['x-test'] === 'impatient');
    controller.abort();
    await assert.rejects(pending, (error: Error) => error.name === 'AbortError');
    assert.equal(await record.closed, 'aborted');
    assert.equal(record.status, undefined, 'no status line was sent');
  });

  it('waitForRequest waits for a request that has not arrived yet', async () => {
    const waiting = gw().waitForRequest((r) => r.headers['x-test'] === 'later', 10_000);
    setTimeout(() => void get(gw(), '/models', { 'x-test': 'later' }).then((r) => r.arrayBuffer()), 50);
    const record = await waiting;
    assert.equal(record.path, '/api/v1/models');
  });
});
