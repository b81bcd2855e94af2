// An error merely named AbortError (undici uses the name for some proxy and socket failures) must
// not pass for the caller's cancellation: the caller would stay silent about a failed request.
import * as assert from 'node:assert/strict';
import { Agent } from 'undici';
import { ConnectionError } from '../../../src/core/errors';
import { GatewayClient } from '../../../src/core/transport/client';
import { rejectionOf } from './testUtil';

describe('core: errors named AbortError without a cancellation', () => {
  it('are reported as connection failures, not as AbortError', async () => {
    let attempts = 0;
    const dispatcher = new Agent({
      connect: (_options, callback) => {
        attempts++;
        callback(Object.assign(new Error('tunnel refused by the proxy'), { name: 'AbortError' }), null);
      },
    });
    try {
      const client = new GatewayClient({
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'k-0123456789',
        dispatcher,
        maxRetries: 0,
      });
      const error = await rejectionOf(client.models.list());
      assert.ok(error instanceof ConnectionError, `got ${String(error)}`);
      assert.notEqual((error as Error).name, 'AbortError');
      assert.match((error as Error).message, /tunnel refused by the proxy/);
      assert.equal(attempts, 1);
    } finally {
      await dispatcher.close();
    }
  });

  it('while a real cancellation still is an AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    const client = new GatewayClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k-0123456789' });
    const error = await rejectionOf(client.models.list({ signal: controller.signal }));
    assert.equal((error as Error).name, 'AbortError');
  });
});
