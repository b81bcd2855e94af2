import * as assert from 'node:assert/strict';
import { json, parseSse, post, useGateway, type Json } from './helpers';

const MODEL = 'sim-anthropic/claude-sim-sonnet';
const H = { 'anthropic-version': '2023-06-01' };

describe('local gateway: messages (Anthropic shape)', () => {
  const gw = useGateway();

  it('answers non-streaming with content blocks, stop_reason and usage', async () => {
    const res = await post(
      gw(),
      '/messages',
      { model: MODEL, max_tokens: 1000, system: 'Be brief', messages: [{ role: 'user', content: 'Hello Claude sim' }] },
      H,
    );
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.equal(body.type, 'message');
    assert.equal(body.role, 'assistant');
    assert.equal(body.content[0].type, 'text');
    assert.match(body.content[0].text as string, /simulation[\s\S]*Hello Claude sim/i);
    assert.equal(body.stop_reason, 'end_turn');
    assert.ok(body.usage.input_tokens > 0 && body.usage.output_tokens > 0);
  });

  it('streams the event sequence with event: lines equal to data.type, thinking with a signature, and cumulative usage', async () => {
    const text = await (
      await post(
        gw(),
        '/messages',
        {
          model: MODEL,
          max_tokens: 4000,
          stream: true,
          thinking: { type: 'enabled', budget_tokens: 1024 },
          messages: [{ role: 'user', content: 'Hi' }],
        },
        H,
      )
    ).text();
    const events = parseSse(text);
    for (const e of events) assert.equal(e.event, (JSON.parse(e.data) as Json).type);
    const types = events.map((e) => e.event);
    assert.equal(types[0], 'message_start');
    assert.ok(types.includes('ping'));
    assert.equal(types[types.length - 1], 'message_stop');
    assert.equal(types[types.length - 2], 'message_delta');
    const datas = events.map((e) => JSON.parse(e.data) as Json);
    const deltas = datas.filter((d) => d.type === 'content_block_delta').map((d) => d.delta as Json);
    const thinking = deltas
      .filter((d) => d.type === 'thinking_delta')
      .map((d) => d.thinking as string)
      .join('');
    const signature = deltas.find((d) => d.type === 'signature_delta')?.signature as string;
    assert.ok(thinking.length > 10);
    assert.equal(signature, gw().signThinking(thinking), 'the signature is the HMAC of the thinking text');
    assert.ok(deltas.some((d) => d.type === 'text_delta'));
    const messageDelta = datas.find((d) => d.type === 'message_delta') as Json;
    assert.equal(messageDelta.delta.stop_reason, 'end_turn');
    assert.ok(
      messageDelta.usage.output_tokens > (datas[0] as Json).message.usage.output_tokens,
      'cumulative output tokens',
    );
  });

  it('accepts a thinking block sent back intact and rejects a tampered one with 400', async () => {
    const first = await json(
      await post(
        gw(),
        '/messages',
        {
          model: MODEL,
          max_tokens: 3000,
          thinking: { type: 'enabled', budget_tokens: 2000 },
          messages: [{ role: 'user', content: 'Plan a trip' }],
        },
        H,
      ),
    );
    const thinkingBlock = (first.content as Json[]).find((b) => b.type === 'thinking') as Json;
    assert.ok(thinkingBlock.signature);
    const turn = (block: Json): Json => ({
      model: MODEL,
      max_tokens: 3000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      messages: [
        { role: 'user', content: 'Plan a trip' },
        { role: 'assistant', content: [block, ...(first.content as Json[]).filter((b) => b.type !== 'thinking')] },
        { role: 'user', content: 'And back?' },
      ],
    });
    assert.equal((await post(gw(), '/messages', turn(thinkingBlock), H)).status, 200);
    const tampered = await post(
      gw(),
      '/messages',
      turn({ ...thinkingBlock, thinking: `${thinkingBlock.thinking as string} (edited)` }),
      H,
    );
    assert.equal(tampered.status, 400);
    const error = await json(tampered);
    assert.equal(error.type, 'error');
    assert.equal(error.error.type, 'invalid_request_error');
    assert.match(error.error.message as string, /messages\.1\.content\.0\.signature/);
  });

  it('streams a tool_use block with input_json_delta pieces and stop_reason tool_use', async () => {
    const tools = [
      {
        name: 'lookup_order',
        description: 'Find an order',
        input_schema: { type: 'object', properties: { order_id: { type: 'integer' } } },
      },
    ];
    const text = await (
      await post(
        gw(),
        '/messages',
        {
          model: MODEL,
          max_tokens: 500,
          stream: true,
          tools,
          messages: [{ role: 'user', content: 'Please lookup_order 42' }],
        },
        H,
      )
    ).text();
    const datas = parseSse(text).map((e) => JSON.parse(e.data) as Json);
    const start = datas.find((d) => d.type === 'content_block_start' && d.content_block.type === 'tool_use') as Json;
    assert.equal(start.content_block.name, 'lookup_order');
    const pieces = datas
      .filter((d) => d.type === 'content_block_delta' && d.index === start.index)
      .map((d) => d.delta as Json);
    assert.ok(pieces.length >= 2 && pieces.every((p) => p.type === 'input_json_delta'));
    assert.deepEqual(JSON.parse(pieces.map((p) => p.partial_json as string).join('')), { order_id: 42 });
    assert.equal((datas.find((d) => d.type === 'message_delta') as Json).delta.stop_reason, 'tool_use');
  });

  it('answers a tool_result in text', async () => {
    const body = await json(
      await post(
        gw(),
        '/messages',
        {
          model: MODEL,
          max_tokens: 500,
          tools: [{ name: 'lookup_order', input_schema: { type: 'object' } }],
          messages: [
            { role: 'user', content: 'lookup_order 7' },
            {
              role: 'assistant',
              content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup_order', input: { order_id: 7 } }],
            },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Order 7 shipped' }] },
          ],
        },
        H,
      ),
    );
    assert.equal(body.stop_reason, 'end_turn');
    assert.match(body.content[0].text as string, /lookup_order.*Order 7 shipped/s);
  });

  it('validates max_tokens and the thinking budget, naming the field, in the Anthropic error shape', async () => {
    const messages = [{ role: 'user', content: 'x' }];
    const cases: [Json, string][] = [
      [{ model: MODEL, messages }, 'max_tokens'],
      [
        { model: MODEL, max_tokens: 5000, thinking: { type: 'enabled', budget_tokens: 500 }, messages },
        'budget_tokens',
      ],
      [{ model: MODEL, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 2000 }, messages }, 'max_tokens'],
    ];
    for (const [body, word] of cases) {
      const res = await post(gw(), '/messages', body, H);
      assert.equal(res.status, 400, word);
      const error = await json(res);
      assert.equal(error.error.type, 'invalid_request_error');
      assert.match(error.error.message as string, new RegExp(word));
    }
  });

  it('stops at max_tokens with stop_reason max_tokens', async () => {
    const body = await json(
      await post(gw(), '/messages', { model: MODEL, max_tokens: 3, messages: [{ role: 'user', content: 'Hello' }] }, H),
    );
    assert.equal(body.stop_reason, 'max_tokens');
    assert.equal((body.content[0].text as string).trim().split(/\s+/).length, 3);
  });
});
