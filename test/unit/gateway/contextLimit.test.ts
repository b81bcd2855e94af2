// The local gateway enforces each model's context length the way providers do (a 400 with
// context_length_exceeded before anything is generated or charged).
import * as assert from 'node:assert/strict';
import { json, post, useGateway } from './helpers';

const TINY = 'sim-openai/gpt-sim-tiny';

describe('local gateway: context length', () => {
  const gw = useGateway();

  it('lists the small-context model with its context length', async () => {
    const models = await json(
      await fetch(`${gw().apiUrl}/models`, { headers: { authorization: `Bearer ${gw().apiKey}` } }),
    );
    const tiny = (models.data as { id: string; context_length?: number }[]).find((m) => m.id === TINY);
    assert.equal(tiny?.context_length, 2048);
  });

  it('answers a request that fits, and counts its prompt tokens in usage', async () => {
    const body = await json(
      await post(gw(), '/chat/completions', {
        model: TINY,
        messages: [{ role: 'user', content: 'word '.repeat(1000) }],
      }),
    );
    assert.ok(body.usage.prompt_tokens > 1000 && body.usage.prompt_tokens <= 2048);
  });

  it("refuses a chat request longer than the context with OpenAI's error, naming both counts", async () => {
    const response = await post(gw(), '/chat/completions', {
      model: TINY,
      stream: true,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'word '.repeat(2100) },
      ],
    });
    assert.equal(response.status, 400);
    const body = await json(response);
    assert.equal(body.error.code, 'context_length_exceeded');
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(
      body.error.message,
      /maximum context length is 2,048 tokens\. However, you requested [\d,]+ tokens \([\d,]+ in the messages, 0 in the completion\)/,
    );
  });

  it('counts max_tokens as part of the request', async () => {
    const fits = await post(gw(), '/chat/completions', {
      model: TINY,
      messages: [{ role: 'user', content: 'word '.repeat(1500) }],
    });
    assert.equal(fits.status, 200);
    const over = await post(gw(), '/chat/completions', {
      model: TINY,
      max_tokens: 1000,
      messages: [{ role: 'user', content: 'word '.repeat(1500) }],
    });
    assert.equal(over.status, 400);
    assert.match((await json(over)).error.message, /1,000 in the completion/);
  });

  it("counts punctuation as the gateway's tokenizer does (one token each), which a character estimate can miss", async () => {
    const response = await post(gw(), '/chat/completions', {
      model: TINY,
      messages: [{ role: 'user', content: '!'.repeat(2100) }],
    });
    assert.equal(response.status, 400);
  });

  it('leaves models with a large context alone', async () => {
    const response = await post(gw(), '/chat/completions', {
      model: 'sim-openai/gpt-sim-mini',
      messages: [{ role: 'user', content: 'word '.repeat(5000) }],
    });
    assert.equal(response.status, 200);
  });
});
