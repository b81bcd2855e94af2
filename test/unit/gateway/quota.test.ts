import * as assert from 'node:assert/strict';
import { get, json, post, useGateway } from './helpers';

describe('local gateway: quota', () => {
  const gw = useGateway({ keys: { 'poor-key': { credits: 0.002 } } });
  const poor = { authorization: 'Bearer poor-key' };

  it('reports credits and an ISO reset time, and credits fall with model use', async () => {
    const before = await json(await get(gw(), '/quota'));
    assert.equal(typeof before.credits, 'number');
    assert.ok(Number.isFinite(Date.parse(before.reset as string)) && Date.parse(before.reset as string) > Date.now());
    await post(gw(), '/chat/completions', { model: 'sim-openai/gpt-sim', messages: [{ role: 'user', content: 'spend a little' }] }).then((r) => r.arrayBuffer());
    await post(gw(), '/embeddings', { model: 'sim-openai/text-embedding-sim-large', input: 'and a bit more' }).then((r) => r.arrayBuffer());
    const after = await json(await get(gw(), '/quota'));
    assert.ok((after.credits as number) < (before.credits as number), `${after.credits} < ${before.credits}`);
    await get(gw(), '/models').then((r) => r.arrayBuffer());
    assert.equal((await json(await get(gw(), '/quota'))).credits, after.credits, 'listing models is free');
  });

  it('answers 429 insufficient_quota on model-using endpoints once credits are exhausted', async () => {
    let last = 0;
    let previous = Infinity;
    for (let i = 0; i < 100 && last !== 429; i++) {
      const res = await post(gw(), '/chat/completions', { model: 'sim-openai/gpt-sim', messages: [{ role: 'user', content: 'spend spend spend' }] }, poor);
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
    for (const [path, body] of [['/embeddings', { model: 'sim-openai/text-embedding-sim-small', input: 'x' }], ['/research', { topic: 'x' }], ['/messages', { model: 'sim-anthropic/claude-sim-sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }]] as const) {
      const res = await post(gw(), path, body, poor);
      assert.equal(res.status, 429, path);
      assert.match(JSON.stringify(await json(res)), /insufficient_quota/);
    }
    assert.equal((await get(gw(), '/models', poor)).status, 200, 'non-model endpoints still work');
  });

  it('setCredits refills a key', async () => {
    gw().setCredits('poor-key', 1);
    assert.equal((await post(gw(), '/embeddings', { model: 'sim-openai/text-embedding-sim-small', input: 'x' }, poor)).status, 200);
  });
});
