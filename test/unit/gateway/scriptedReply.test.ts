// The `reply=<base64url>` mode: the text answer is exactly the scripted text, streamed in pieces,
// on both chat endpoints, by header or model-name suffix; bad values are a 400 naming the header.
import * as assert from 'node:assert/strict';
import { FAULT_HEADER } from '../../gateway/index';
import { scriptedReplyItem } from '../../gateway/scriptedReply';
import { chatChunks, json, parseSse, post, useGateway, type Json } from './helpers';

const MODEL = 'sim-openai/gpt-sim-mini';
const FILE = 'export function add(a: number, b: number): number {\n  return a + b; // naïve → 🚀\n}\n';
const ANSWER = `Here is the file:\n\n\`\`\`ts\n${FILE}\`\`\`\n`;

describe('local gateway: scripted replies (reply=)', () => {
  const gw = useGateway();

  it('streams exactly the scripted text on /chat/completions, in several pieces, by model suffix', async () => {
    const response = await post(gw(), '/chat/completions', {
      model: `${MODEL}::${scriptedReplyItem(ANSWER)}`,
      stream: true,
      messages: [{ role: 'user', content: 'merge' }],
    });
    assert.equal(response.status, 200);
    const deltas = chatChunks(await response.text())
      .flatMap((chunk) => ((chunk as Json).choices ?? []).map((c: Json) => c.delta?.content ?? ''))
      .filter(Boolean);
    assert.ok(deltas.length > 3, 'streamed in pieces');
    assert.equal(deltas.join(''), ANSWER);
  });

  it('answers the scripted text whole on /chat/completions and /messages, by header', async () => {
    const whole = await json(
      await post(
        gw(),
        '/chat/completions',
        { model: MODEL, messages: [{ role: 'user', content: 'x' }] },
        { [FAULT_HEADER]: scriptedReplyItem(FILE) },
      ),
    );
    assert.equal(whole.choices[0].message.content, FILE);
    const messages = await post(
      gw(),
      '/messages',
      {
        model: 'sim-anthropic/claude-sim-sonnet',
        max_tokens: 4096,
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      },
      { [FAULT_HEADER]: scriptedReplyItem(FILE) },
    );
    const text = parseSse(await messages.text()).flatMap((event) => {
      const data = JSON.parse(event.data) as Json;
      return data.type === 'content_block_delta' && data.delta.type === 'text_delta' ? [data.delta.text as string] : [];
    });
    assert.equal(text.join(''), FILE);
  });

  it('refuses a value that is not base64url, naming the header', async () => {
    const bad = await post(
      gw(),
      '/chat/completions',
      { model: MODEL, messages: [{ role: 'user', content: 'x' }] },
      { [FAULT_HEADER]: 'reply=not base64!' },
    );
    assert.equal(bad.status, 400);
    assert.equal((await json(bad)).error.param, FAULT_HEADER);
  });
});
