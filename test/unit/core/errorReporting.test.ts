// L1, L2, L3, L6 of the review: what an error says and carries. Error messages follow the wire
// conventions exactly, never quote the key, tell "could not reach" apart from "closed mid-answer",
// and stream errors carry the response's status and request id.
import * as assert from 'node:assert/strict';
import { AuthenticationError, ConnectionError, GatewayError, StreamError } from '../../../src/core/errors';
import { GatewayClient } from '../../../src/core/transport/client';
import { parseErrorBody } from '../../../src/core/parse/errorBody';
import type { ChatCompletionRequest } from '../../../src/core/types/chat';
import { collect, delay, sendJson, sseData, useTestServer } from './testUtil';

const chatReq: ChatCompletionRequest = { model: 'local/sim', messages: [{ role: 'user', content: 'hi' }] };

describe('core: error reporting (review L1, L2, L3, L6)', () => {
  const serve = useTestServer();

  it('L1: a non-JSON error body gives exactly "HTTP <status>"; the text stays on the error as body', async () => {
    assert.deepEqual(parseErrorBody(502, 'Bad Gateway'), { message: 'HTTP 502' });
    const s = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('Bad Gateway');
    });
    const error = await new GatewayClient({ baseUrl: s.url, apiKey: 'k', maxRetries: 0 }).models.list().then(
      () => assert.fail('should reject'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof GatewayError);
    assert.equal(error.message, 'HTTP 502');
    assert.equal(error.status, 502);
    assert.equal(error.body, 'Bad Gateway');
  });

  it('L2: a key outside Latin-1 is refused before sending, without the key in the message, and not retried', async () => {
    const s = await serve((_req, res) => sendJson(res, 200, { data: [] }));
    for (const key of ['ключ-секрет-123', 'sk-😀-abc']) {
      const error = await new GatewayClient({ baseUrl: s.url, apiKey: key }).models.list().then(
        () => assert.fail('should reject'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof AuthenticationError, String(error));
      assert.ok(!error.message.includes(key) && !error.message.includes('секрет'), error.message);
    }
    await delay(20);
    assert.equal(s.requests.length, 0);
    // Latin-1 letters and tabs inside are fine.
    await new GatewayClient({ baseUrl: s.url, apiKey: 'clé-ñ' }).models.list();
    assert.equal(s.requests.length, 1);
  });

  it('L3: a body cut after the answer started says the connection closed while reading, not "could not reach"', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data": [');
      setTimeout(() => res.destroy(), 20);
    });
    const error = await new GatewayClient({ baseUrl: s.url, apiKey: 'k' }).models.list().then(
      () => assert.fail('should reject'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ConnectionError, String(error));
    const host = new URL(s.url).host;
    assert.match(
      error.message,
      new RegExp(`^The connection to ${host.replace(/\./g, '\\.')} closed while the answer was being read`),
    );
    assert.doesNotMatch(error.message, /Could not reach/);
  });

  it('L6: a StreamError carries the status and x-request-id of the stream response', async () => {
    const s = await serve((req, res) => {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'x-request-id': `req-${req.headers['x-case'] as string}`,
      });
      if (req.headers['x-case'] === 'error')
        res.end(
          `${sseData({ choices: [{ index: 0, delta: { content: 'a' } }] })}${sseData({ error: { message: 'boom', type: 'server_error' } })}`,
        );
      else res.end(sseData({ choices: [{ index: 0, delta: { content: 'a' } }] }));
    });
    const client = new GatewayClient({ baseUrl: s.url, apiKey: 'k', maxRetries: 0 });
    const errored = await collect(client.chat.stream(chatReq, { headers: { 'x-case': 'error' } }));
    assert.ok(errored.error instanceof StreamError, String(errored.error));
    assert.equal(errored.error.message, 'boom');
    assert.equal(errored.error.type, 'server_error');
    assert.equal(errored.error.status, 200);
    assert.equal(errored.error.requestId, 'req-error');
    const cut = await collect(client.chat.stream(chatReq, { headers: { 'x-case': 'cut' } }));
    assert.ok(cut.error instanceof StreamError && cut.error.interrupted, String(cut.error));
    assert.equal(cut.error.requestId, 'req-cut');
  });
});
