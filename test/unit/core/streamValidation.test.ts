// M4: chat.stream() and messages.stream() reject a bad request synchronously, before returning an
// iterable, and send nothing; a good request still waits for the loop to start.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/core/transport/client';
import { InvalidRequestError } from '../../../src/core/errors';
import type { ChatCompletionRequest } from '../../../src/core/types/chat';
import type { MessageCreateRequest } from '../../../src/core/types/messages';
import { delay, sendJson, startServer } from './testUtil';
import type { TestServer } from './testUtil';

describe('core: stream() validates synchronously (M4)', () => {
  let server: TestServer;
  let client: GatewayClient;
  before(async () => {
    server = await startServer((_req, res) => sendJson(res, 500, { error: 'should not be called' }));
    client = new GatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
  });
  after(async () => {
    await server.stop();
  });

  it('chat.stream throws InvalidRequestError for a bad request before returning', async () => {
    const bad = { model: '', messages: [] } as ChatCompletionRequest;
    assert.throws(
      () => client.chat.stream(bad),
      (error: unknown) => error instanceof InvalidRequestError && error.field === 'model',
    );
    assert.throws(
      () => client.chat.stream({ model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 3 }),
      { name: 'InvalidRequestError' },
    );
    await delay(20);
    assert.equal(server.requests.length, 0);
  });

  it('messages.stream throws InvalidRequestError for a bad request before returning', async () => {
    const bad = { model: 'm', messages: [{ role: 'user', content: 'x' }] } as unknown as MessageCreateRequest;
    assert.throws(
      () => client.messages.stream(bad),
      (error: unknown) => error instanceof InvalidRequestError && error.field === 'max_tokens',
    );
    await delay(20);
    assert.equal(server.requests.length, 0);
  });

  it('a valid request is still sent lazily, on the first next()', async () => {
    const stream = client.chat.stream({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    await delay(20);
    assert.equal(server.requests.length, 0);
    await assert.rejects(stream[Symbol.asyncIterator]().next());
    assert.equal(server.requests.length, 1);
  });
});
