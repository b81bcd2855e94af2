import * as assert from 'node:assert/strict';
import { json, useGateway } from './helpers';

describe('local gateway: auth, catalog, unknown paths', () => {
  const gw = useGateway({ keys: { 'second-key': { credits: 3 } } });

  it('accepts the key as Authorization: Bearer and as x-api-key, and records which one', async () => {
    const bearer = await fetch(`${gw().apiUrl}/quota`, { headers: { authorization: `Bearer ${gw().apiKey}` } });
    assert.equal(bearer.status, 200);
    const xKey = await fetch(`${gw().apiUrl}/quota`, { headers: { 'x-api-key': 'second-key' } });
    assert.equal(xKey.status, 200);
    assert.equal((await json(xKey)).credits, 3);
    const record = await gw().waitForRequest((r) => r.headers['x-api-key'] !== undefined);
    assert.equal(record.authHeader, 'x-api-key');
    assert.equal(record.headers['x-api-key'], '[redacted]', 'the key itself is never recorded');
  });

  it('answers 401 with {error: string} for a missing or invalid key on every kind of endpoint', async () => {
    for (const [method, path] of [
      ['GET', '/models'],
      ['GET', '/quota'],
      ['POST', '/chat/completions'],
      ['POST', '/messages'],
      ['GET', '/research'],
    ] as const) {
      const missing = await fetch(`${gw().apiUrl}${path}`, { method, body: method === 'POST' ? '{}' : undefined });
      assert.equal(missing.status, 401, path);
      const body = await json(missing);
      assert.equal(typeof body.error, 'string', path);
      const wrong = await fetch(`${gw().apiUrl}${path}`, {
        method,
        headers: { authorization: 'Bearer nope' },
        body: method === 'POST' ? '{}' : undefined,
      });
      assert.equal(wrong.status, 401, path);
      assert.match((await json(wrong)).error as string, /invalid api key/i);
    }
  });

  it('answers 404 with an error object for unknown paths', async () => {
    const res = await fetch(`${gw().apiUrl}/no-such-thing`, { headers: { authorization: `Bearer ${gw().apiKey}` } });
    assert.equal(res.status, 404);
    assert.equal((await json(res)).error.code, 'unknown_path');
  });

  it('lists models of all six categories with provider/name ids, provider and provider_info.status', async () => {
    const res = await fetch(`${gw().apiUrl}/models`, { headers: { authorization: `Bearer ${gw().apiKey}` } });
    const body = await json(res);
    assert.equal(body.object, 'list');
    const models = body.data as {
      id: string;
      provider: string;
      provider_info: { status: string };
      type?: string;
      capabilities?: string[];
    }[];
    for (const model of models) {
      assert.match(model.id, /^sim-[a-z]+\/[a-z0-9.-]+$/);
      assert.equal(typeof model.provider, 'string');
      assert.equal(typeof model.provider_info.status, 'string');
    }
    const types = new Set(models.map((m) => m.type).filter(Boolean));
    for (const category of ['chat', 'embedding', 'rerank', 'transcription', 'speech', 'image'])
      assert.ok(types.has(category), category);
    assert.ok(
      models.some((m) => m.capabilities?.includes('reasoning')),
      'a reasoning model',
    );
    assert.ok(
      models.some((m) => m.id.startsWith('sim-anthropic/')),
      'an Anthropic-style model',
    );
  });

  it('records method, path, status and completion of each request', async () => {
    gw().clearRequests();
    await fetch(`${gw().apiUrl}/models`, { headers: { authorization: `Bearer ${gw().apiKey}` } }).then((r) =>
      r.arrayBuffer(),
    );
    const record = await gw().waitForRequest('/api/v1/models');
    assert.equal(record.method, 'GET');
    assert.equal(record.status, 200);
    assert.equal(record.headers.authorization, 'Bearer [redacted]');
    assert.equal(await record.closed, 'completed');
  });
});
