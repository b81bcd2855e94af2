import * as assert from 'node:assert/strict';
import { get, json, pollUntil, post, useGateway } from './helpers';

describe('local gateway: quota', () => {
  const gw = useGateway({ keys: { 'poor-key': { credits: 0.002 }, 'late-key': { credits: 10 } } });
  const poor = { authorization: 'Bearer poor-key' };
  const late = { authorization: 'Bearer late-key' };

  it('settle-ms charges chat and messages only that long after the response ended', async () => {
    const credits = async (): Promise<number> => (await json(await get(gw(), '/quota', late))).credits as number;
    // A charge far in the future: the balance read after the whole reply arrived has not moved.
    const streamed = await post(
      gw(),
      '/chat/completions',
      {
        model: 'sim-openai/gpt-sim::settle-ms=600000',
        stream: true,
        messages: [{ role: 'user', content: 'settle later' }],
      },
      late,
    );
    assert.equal(streamed.status, 200);
    await streamed.text();
    assert.equal(await credits(), 10, 'not charged when the reply ended');
    // A short one: the balance falls by itself afterwards (waited for by polling, not by sleeping a guess).
    const messages = await post(
      gw(),
      '/messages',
      {
        model: 'sim-anthropic/claude-sim-sonnet',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'settle soon' }],
      },
      { ...late, 'x-gateway-fault': 'settle-ms=50' },
    );
    assert.equal(messages.status, 200);
    await messages.arrayBuffer();
    const settled = await pollUntil(async () => ((await credits()) < 10 ? credits() : undefined));
    assert.ok(settled < 10 && settled > 9.9, String(settled));
    assert.equal(
      (
        await post(
          gw(),
          '/chat/completions',
          { model: 'sim-openai/gpt-sim::settle-ms=soon', messages: [{ role: 'user', content: 'x' }] },
          late,
        )
      ).status,
      400,
      'a bad value is a 400',
    );
  });

  it('reports credits and an ISO reset time, and credits fall with model use', async () => {
    const before = await json(await get(gw(), '/quota'));
    assert.equal(typeof before.credits, 'number');
    assert.ok(Number.isFinite(Date.parse(before.reset as string)) && Date.parse(before.reset as string) > Date.now());
    await post(gw(), '/chat/completions', {
      model: 'sim-openai/gpt-sim',
      messages: [{ role: 'user', content: 'spend a little' }],
    }).then((r) => r.arrayBuffer());
    await post(gw(), '/embeddings', { model: 'sim-openai/text-embedding-sim-large', input: 'and a bit more' }).then(
      (r) => r.arrayBuffer(),
    );
    const after = await json(await get(gw(), '/quota'));
    assert.ok((after.credits as number) < (before.credits as number), `${after.credits} < ${before.credits}`);
    await get(gw(), '/models').then((r) => r.arrayBuffer());
    assert.equal((await json(await get(gw(), '/quota'))).credits, after.credits, 'listing models is free');
  });

  it('answers 429 insufficient_quota on model-using endpoints once credits are exhausted', async () => {
    let last = 0;
    let previous = Infinity;
    for (let i = 0; i < 100 && last !== 429; i++) {
      const res = await post(
        gw(),
        '/chat/completions',
        { model: 'sim-openai/gpt-sim', messages: [{ role: 'user', content: 'spend spend spend' }] },
        poor,
      );
      last = res.status;
      if (res.status === 200) {
        await res.arrayBuffer();
        const credits = (await json(await get(gw(), '/quota', poor))).credits as number;
        assert.ok(credits < previous, 'falls with every request');
        previous = credits;
      } else {
        const body = await json(res);
        assert.equal(body.error.code, 'insufficient_quota');
        assert.equal(body.error.type, 'insufficient_quota');
      }
    }
    assert.equal(last, 429);
    assert.equal((await json(await get(gw(), '/quota', poor))).credits, 0);
    for (const [path, body] of [
      ['/embeddings', { model: 'sim-openai/text-embedding-sim-small', input: 'x' }],
      ['/research', { topic: 'x' }],
      [
        '/messages',
        { model: 'sim-anthropic/claude-sim-sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] },
      ],
    ] as const) {
      const res = await post(gw(), path, body, poor);
      assert.equal(res.status, 429, path);
      assert.match(JSON.stringify(await json(res)), /insufficient_quota/);
    }
    assert.equal((await get(gw(), '/models', poor)).status, 200, 'non-model endpoints still work');
  });

  it('setCredits refills a key', async () => {
    gw().setCredits('poor-key', 1);
    assert.equal(
      (await post(gw(), '/embeddings', { model: 'sim-openai/text-embedding-sim-small', input: 'x' }, poor)).status,
      200,
    );
  });
});
