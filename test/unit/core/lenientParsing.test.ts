// L4 and L5 of the review: lenient parsing that keeps the server's meaning (a string index is
// still an index) and refuses to invent one (no credits value is not "0 credits").
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/core/transport/client';
import { GatewayError } from '../../../src/core/errors';
import { normalizeChatChunk } from '../../../src/core/parse/chat';
import { parseQuota } from '../../../src/core/parse/resources';
import { sendJson, useTestServer } from './testUtil';

describe('core: lenient parsing (review L4, L5)', () => {
  const serve = useTestServer();

  it('L4: a numeric string index on a choice or a tool-call delta is read as its number', () => {
    const chunk = normalizeChatChunk({ choices: [{ index: '1', delta: { tool_calls: [{ index: '3', id: 'c' }] } }] });
    assert.equal(chunk.choices[0]?.index, 1);
    assert.equal(chunk.choices[0]?.delta.tool_calls?.[0]?.index, 3);
    const fallback = normalizeChatChunk({ choices: [{ index: 'x', delta: { tool_calls: [{ index: null }] } }] });
    assert.equal(fallback.choices[0]?.index, 0);
    assert.equal(fallback.choices[0]?.delta.tool_calls?.[0]?.index, 0);
  });

  it('L5: a quota answer without a numeric credits value is an error, not "0 credits"; "12.5" is read', async () => {
    for (const body of [null, 'x', [], {}, { credits: 'lots' }, { credits: null, reset: '2030-01-01T00:00:00Z' }]) {
      assert.throws(
        () => parseQuota(body),
        (e: unknown) => e instanceof GatewayError && e.message === "The gateway's quota answer has no credits value",
        JSON.stringify(body),
      );
    }
    assert.deepEqual(parseQuota({ credits: '12.5', reset: '2030-01-01T00:00:00Z' }), {
      credits: 12.5,
      reset: '2030-01-01T00:00:00Z',
    });
    const s = await serve((_req, res) => sendJson(res, 200, { reset: '2030-01-01T00:00:00Z' }));
    await assert.rejects(new GatewayClient({ baseUrl: s.url, apiKey: 'k' }).quota.get(), {
      name: 'GatewayError',
      message: "The gateway's quota answer has no credits value",
    });
  });
});
