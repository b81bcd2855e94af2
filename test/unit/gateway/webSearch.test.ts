// The local gateway's `web-search` and `mcp-error` items on the raw wire: the events and bodies in the
// order and shape real providers send them (the client's reading of them is tested elsewhere).
import * as assert from 'node:assert/strict';
import { chatChunks, json, parseSse, post, useGateway, type Json } from './helpers';

const MESSAGES = 'sim-anthropic/claude-sim-sonnet';
const CHAT = 'sim-openai/gpt-sim-mini';
const H = { 'anthropic-version': '2023-06-01' };
const ask = (model: string, extra: Json = {}): Json => ({
  model,
  max_tokens: 1000,
  messages: [{ role: 'user', content: 'rust news' }],
  ...extra,
});

describe('local gateway: web-search and mcp-error', () => {
  const gw = useGateway();

  it('messages stream: server_tool_use with its query in input_json_delta pieces, the result whole, then citations_delta before the text', async () => {
    const text = await (await post(gw(), '/messages', ask(`${MESSAGES}::web-search`, { stream: true }), H)).text();
    const datas = parseSse(text).map((e) => JSON.parse(e.data) as Json);
    const starts = datas.filter((d) => d.type === 'content_block_start');
    assert.deepEqual(
      starts.map((d) => d.content_block.type),
      ['server_tool_use', 'web_search_tool_result', 'text'],
    );
    const [use, result, cited] = starts.map((d) => d.content_block);
    assert.deepEqual(use.input, {}, 'the input starts empty');
    const pieces = datas.filter((d) => d.type === 'content_block_delta' && d.index === 0).map((d) => d.delta as Json);
    assert.ok(pieces.length > 1 && pieces.every((p) => p.type === 'input_json_delta'));
    assert.deepEqual(JSON.parse(pieces.map((p) => p.partial_json).join('')), { query: 'rust news' });
    assert.equal(result.tool_use_id, use.id);
    assert.equal(result.content.length, 3);
    assert.ok(result.content.every((r: Json) => r.type === 'web_search_result' && r.url.startsWith('https://')));
    assert.deepEqual(cited, { type: 'text', text: '', citations: [] });
    const textDeltas = datas.filter((d) => d.type === 'content_block_delta' && d.index === 2).map((d) => d.delta.type);
    assert.deepEqual(textDeltas.slice(0, 3), ['citations_delta', 'citations_delta', 'citations_delta']);
    assert.ok(textDeltas.slice(3).every((t: string) => t === 'text_delta'));
    const citation = datas.find((d) => d.delta?.type === 'citations_delta')?.delta.citation as Json;
    assert.equal(citation.type, 'web_search_result_location');
    assert.equal(citation.url, result.content[0].url);
    const closing = datas.find((d) => d.type === 'message_delta') as Json;
    assert.deepEqual(closing.usage.server_tool_use, { web_search_requests: 1 });
  });

  it('messages whole: the same blocks, the text with its citations; error: an error result and no citations', async () => {
    const body = await json(await post(gw(), '/messages', ask(`${MESSAGES}::web-search`), H));
    assert.deepEqual(
      body.content.map((b: Json) => b.type),
      ['server_tool_use', 'web_search_tool_result', 'text'],
    );
    assert.deepEqual(body.content[0].input, { query: 'rust news' });
    assert.equal(body.content[2].citations.length, 3);
    const failed = await json(await post(gw(), '/messages', ask(`${MESSAGES}::web-search=error`), H));
    assert.deepEqual(failed.content[1].content, {
      type: 'web_search_tool_result_error',
      error_code: 'max_uses_exceeded',
    });
    assert.equal(failed.content[2].citations, undefined);
  });

  it('chat: url_citation annotations in a delta after the text (message.annotations when whole); hostile: 306 of them', async () => {
    const chunks = chatChunks(
      await (await post(gw(), '/chat/completions', ask(`${CHAT}::web-search`, { stream: true }))).text(),
    );
    const deltas = chunks.map((c) => (c.choices as Json[] | undefined)?.[0]?.delta as Json | undefined);
    const at = deltas.findIndex((d) => d?.annotations !== undefined);
    assert.ok(at > deltas.findLastIndex((d) => typeof d?.content === 'string' && d.content !== ''));
    const annotations = deltas[at]?.annotations as Json[];
    assert.equal(annotations.length, 3);
    assert.equal(annotations[0]?.type, 'url_citation');
    assert.deepEqual(Object.keys(annotations[0]?.url_citation ?? {}).sort(), [
      'end_index',
      'start_index',
      'title',
      'url',
    ]);
    const whole = await json(await post(gw(), '/chat/completions', ask(`${CHAT}::web-search=hostile`)));
    const hostile = whole.choices[0].message.annotations as Json[];
    assert.equal(hostile.length, 306);
    assert.ok(hostile.some((a) => String(a.url_citation.url).startsWith('javascript:')));
  });

  it('mcp-error: every mcp_tool_result is an error with the tool server named', async () => {
    const body = await json(
      await post(gw(), '/messages', ask(`${MESSAGES}::mcp-error`, { mcp_servers: ['https://tools.example/mcp'] }), H),
    );
    const result = body.content.find((b: Json) => b.type === 'mcp_tool_result');
    assert.equal(result.is_error, true);
    assert.match(result.content[0].text, /tools\.example\/mcp refused the call/);
  });

  it('refuses an unknown web-search value', async () => {
    const res = await post(gw(), '/chat/completions', ask(`${CHAT}::web-search=maybe`));
    assert.equal(res.status, 400);
    assert.match(JSON.stringify(await json(res)), /web-search/);
  });
});
