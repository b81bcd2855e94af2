import * as assert from 'node:assert/strict';
import { FAULT_HEADER } from '../../gateway/index';
import { LIMIT_WORDS_MESSAGE } from '../../gateway/limitWords';
import { json, parseSse, post, useGateway, type Json } from './helpers';

const MODEL = 'sim-anthropic/claude-sim-sonnet';
const H = { 'anthropic-version': '2023-06-01' };
const streamReq = (model = MODEL): Json => ({
  model,
  max_tokens: 1000,
  stream: true,
  messages: [{ role: 'user', content: 'Hello there, a longer question to answer' }],
});

describe('local gateway: /messages modes and 429s in words', () => {
  const gw = useGateway();

  it('ping: a ping before, between and after every event; the rest unchanged', async () => {
    const events = parseSse(await (await post(gw(), '/messages', streamReq(`${MODEL}::ping`), H)).text());
    const pings = events.filter((e) => e.event === 'ping').length;
    const others = events.filter((e) => e.event !== 'ping');
    assert.equal(events[0]?.event, 'ping');
    assert.equal(events.at(-1)?.event, 'ping');
    assert.ok(pings > others.length, `${pings} pings for ${others.length} events`);
    assert.equal(others.at(-1)?.event, 'message_stop');
  });

  it('overloaded-mid: some text, then an overloaded_error event, and no message_stop', async () => {
    const events = parseSse(await (await post(gw(), '/messages', streamReq(`${MODEL}::overloaded-mid`), H)).text());
    const datas = events.map((e) => JSON.parse(e.data) as Json);
    assert.ok(datas.some((d) => d.delta?.type === 'text_delta'));
    assert.deepEqual(datas.at(-1), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    assert.equal(events.at(-1)?.event, 'error');
    assert.ok(!datas.some((d) => d.type === 'message_stop'));
  });

  it('redacted-thinking: a whole redacted_thinking block first, accepted back intact, 400 when altered or on a user turn', async () => {
    const body = await json(
      await post(
        gw(),
        '/messages',
        { model: `${MODEL}::redacted-thinking`, max_tokens: 500, messages: [{ role: 'user', content: 'hi' }] },
        H,
      ),
    );
    const block = body.content[0] as Json;
    assert.equal(block.type, 'redacted_thinking');
    const events = parseSse(
      await (await post(gw(), '/messages', streamReq(`${MODEL}::redacted-thinking`), H)).text(),
    ).map((e) => JSON.parse(e.data) as Json);
    assert.equal(events.find((d) => d.type === 'content_block_start')?.content_block.type, 'redacted_thinking');
    const next = (data: unknown, role = 'assistant'): Promise<Response> =>
      post(
        gw(),
        '/messages',
        {
          model: MODEL,
          max_tokens: 500,
          messages: [
            { role: 'user', content: 'hi' },
            {
              role,
              content: [
                { type: 'redacted_thinking', data },
                { type: 'text', text: 'ok' },
              ],
            },
            { role: 'user', content: 'more' },
          ],
        },
        H,
      );
    assert.equal((await next(block.data)).status, 200);
    for (const bad of [`${block.data as string}x`, (block.data as string).slice(0, -4), 'AAAA', 42]) {
      const res = await next(bad);
      assert.equal(res.status, 400);
      assert.match(((await json(res)).error as Json).message as string, /messages\.1\.content\.0\.data/);
    }
    assert.equal((await next(block.data, 'user')).status, 400);
  });

  it('records mcp_servers on /messages and answers with MCP connector blocks; a bad address is a 400', async () => {
    const body = await json(
      await post(
        gw(),
        '/messages',
        {
          model: MODEL,
          max_tokens: 500,
          mcp_servers: ['https://mcp.example/sse'],
          messages: [{ role: 'user', content: 'find it' }],
        },
        H,
      ),
    );
    assert.deepEqual((gw().requests.at(-1)?.body as Json).mcp_servers, ['https://mcp.example/sse']);
    const types = (body.content as Json[]).map((b) => b.type);
    assert.deepEqual(types, ['mcp_tool_use', 'mcp_tool_result', 'text']);
    assert.equal(body.content[0].server_name, 'https://mcp.example/sse');
    assert.equal(body.content[1].tool_use_id, body.content[0].id);
    assert.equal(
      (
        await post(
          gw(),
          '/messages',
          { model: MODEL, max_tokens: 500, mcp_servers: [7], messages: [{ role: 'user', content: 'x' }] },
          H,
        )
      ).status,
      400,
    );
  });

  it('limit-words: a 429 whose body only says it in words (three shapes), no Retry-After; rate-words likewise', async () => {
    const ask = (spec: string): Promise<Response> =>
      post(
        gw(),
        '/chat/completions',
        { model: 'sim-openai/gpt-sim-mini', messages: [{ role: 'user', content: 'x' }] },
        { [FAULT_HEADER]: spec },
      );
    const plain = await ask('limit-words');
    assert.equal(plain.status, 429);
    assert.equal(plain.headers.get('retry-after'), null);
    assert.deepEqual(await plain.json(), { error: LIMIT_WORDS_MESSAGE });
    assert.deepEqual(await (await ask('limit-words=nested')).json(), {
      error: { message: 'Usage limit reached for this billing period' },
    });
    const text = await ask('limit-words=text');
    assert.match(text.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await text.text(), 'Usage limit reached');
    const rate = await ask('rate-words');
    assert.equal(rate.status, 429);
    assert.deepEqual(await rate.json(), { error: { message: 'Rate limit exceeded' } });
    assert.equal((await ask('limit-words=loud')).status, 400, 'an unknown variant is refused');
  });
});
