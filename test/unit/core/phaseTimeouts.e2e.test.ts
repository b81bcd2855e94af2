// The three timed waits of a request (src/core/transport/timeouts.ts), each against something that stalls in
// exactly that phase: a server that accepts TCP but never completes TLS (connect), the local
// gateway's delay-headers (first byte) and delay-chunks (silence mid-stream). Small values; the
// tests wait for the error and read its phase, never measure time.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { FAULT_HEADER, startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';
import { ChatStreamAccumulator } from '../../../src/core/streams/chatAccumulator';
import { createDispatcher } from '../../../src/core/net/dispatcher';
import { GatewayClient } from '../../../src/core/transport/client';
import { TimeoutError } from '../../../src/core/errors';
import type { ChatCompletionRequest } from '../../../src/core/types/chat';
import { resolveTimeouts } from '../../../src/core/transport/timeouts';
import { describeChatError } from '../../../src/core/failures/describeError';
import { rejectionOf } from './testUtil';

const CHAT = 'sim-openai/gpt-sim-mini';
const chatReq = (model: string): ChatCompletionRequest => ({
  model,
  messages: [{ role: 'user', content: 'Tell me something long' }],
});

async function drain(
  client: GatewayClient,
  req: ChatCompletionRequest,
): Promise<{ accumulator: ChatStreamAccumulator; error?: unknown }> {
  const accumulator = new ChatStreamAccumulator();
  try {
    for await (const chunk of client.chat.stream(req)) accumulator.add(chunk);
    return { accumulator };
  } catch (error) {
    return { accumulator, error };
  }
}

describe('timeouts per phase', function () {
  this.timeout(30_000);

  describe('against the local gateway', () => {
    let gateway: LocalGateway;
    before(async () => {
      gateway = await startGateway();
    });
    after(async () => {
      await gateway.stop();
    });
    const client = (options: Partial<ConstructorParameters<typeof GatewayClient>[0]>): GatewayClient =>
      new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, maxRetries: 0, ...options });

    it('first byte: no answer in time is a first-byte timeout that says so, and the socket is closed', async () => {
      const error = await rejectionOf(
        client({ firstByteTimeoutMs: 300 }).models.list({
          headers: { [FAULT_HEADER]: 'delay-headers=20000', 'x-test': 'first-byte' },
        }),
      );
      assert.ok(error instanceof TimeoutError, String(error));
      assert.equal(error.phase, 'firstByte');
      assert.match(error.message, /did not start answering within 300 ms \(first-byte timeout\)/);
      assert.match(error.message, /reasoning model/);
      const record = await gateway.waitForRequest((r) => r.headers['x-test'] === 'first-byte');
      assert.equal(await record.closed, 'aborted');
    });

    it('silence: a stream that stops mid-answer is a silence timeout; what arrived is kept', async () => {
      const { accumulator, error } = await drain(
        client({ idleTimeoutMs: 300, firstByteTimeoutMs: 20_000 }),
        chatReq(`${CHAT}::delay-chunks=20000`),
      );
      assert.ok(error instanceof TimeoutError, String(error));
      assert.equal(error.phase, 'idle');
      assert.match(error.message, /sent nothing for 300 ms in the middle of the answer \(silence timeout\)/);
      assert.equal(accumulator.snapshot().content, '', 'the first chunk (role only) arrived and nothing else');
      const info = describeChatError(error, { baseUrl: gateway.url });
      assert.equal(info.kind, 'timeout');
      assert.equal(info.message, error.message, 'the chat shows the phase and the advice as they are');
    });

    it('timeoutMs, the older single bound, still bounds the first byte and the silence', async () => {
      const first = await rejectionOf(
        client({ timeoutMs: 300 }).models.list({ headers: { [FAULT_HEADER]: 'delay-headers=20000' } }),
      );
      assert.ok(first instanceof TimeoutError && first.phase === 'firstByte', String(first));
      const silent = await drain(client({ timeoutMs: 300 }), chatReq(`${CHAT}::delay-chunks=20000`));
      assert.ok(silent.error instanceof TimeoutError && silent.error.phase === 'idle', String(silent.error));
    });

    it('the first-byte wait ends with the first byte: a stream may flow for longer than it', async () => {
      // About 65 events at least 20 ms apart: the whole stream takes over the 1 s first-byte bound.
      const started = Date.now();
      const { accumulator, error } = await drain(
        client({ firstByteTimeoutMs: 1000, idleTimeoutMs: 15_000 }),
        chatReq(`${CHAT}::delay-chunks=20`),
      );
      assert.equal(error, undefined);
      assert.ok(
        Date.now() - started > 1000,
        `the stream flowed past the first-byte bound (${Date.now() - started} ms)`,
      );
      assert.equal(accumulator.snapshot().finishReason, 'stop');
      const record = gateway.requests.at(-1);
      assert.equal(await record?.closed, 'completed');
    });
  });

  describe('connect', () => {
    let server: net.Server;
    const sockets = new Set<net.Socket>();
    before(async () => {
      // Accepts TCP and then says nothing: a TLS handshake with it never completes.
      server = net.createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('a connection that never opens is a connect timeout with its own advice, shown with openSettings', async () => {
      const { port } = server.address() as net.AddressInfo;
      const client = new GatewayClient({
        baseUrl: `https://127.0.0.1:${port}`,
        apiKey: 'k',
        maxRetries: 0,
        connectTimeoutMs: 300,
        dispatcher: createDispatcher(),
      });
      const error = await rejectionOf(client.models.list());
      assert.ok(error instanceof TimeoutError, String(error));
      assert.equal(error.phase, 'connect');
      assert.match(
        error.message,
        new RegExp(`Could not connect to 127\\.0\\.0\\.1:${port} within 300 ms \\(connect timeout\\)`),
      );
      assert.match(error.message, /gateway address/);
      const info = describeChatError(error, { baseUrl: `https://127.0.0.1:${port}` });
      assert.deepEqual(info.actions, ['retry', 'openSettings', 'showLog']);
    });

    it('a connect timeout is tried again, as a refused connection is (the request never reached the server)', async () => {
      const { port } = server.address() as net.AddressInfo;
      let connections = 0;
      const count = (): void => void connections++;
      server.on('connection', count);
      try {
        const client = new GatewayClient({
          baseUrl: `https://127.0.0.1:${port}`,
          apiKey: 'k',
          maxRetries: 1,
          connectTimeoutMs: 200,
          dispatcher: createDispatcher(),
        });
        const error = await rejectionOf(client.models.list());
        assert.ok(error instanceof TimeoutError && error.phase === 'connect', String(error));
        assert.equal(connections, 2, 'one try and one retry');
      } finally {
        server.off('connection', count);
      }
    });
  });

  describe('resolveTimeouts', () => {
    it('per call over client, a phase of its own over timeoutMs, then the defaults', () => {
      assert.deepEqual(resolveTimeouts({}, {}), { connectMs: 15_000, firstByteMs: 300_000, idleMs: 120_000 });
      assert.deepEqual(resolveTimeouts({}, { timeoutMs: 1000 }), {
        connectMs: 15_000,
        firstByteMs: 1000,
        idleMs: 1000,
      });
      assert.deepEqual(resolveTimeouts({ timeoutMs: 50 }, { idleTimeoutMs: 7, connectTimeoutMs: 9 }), {
        connectMs: 9,
        firstByteMs: 50,
        idleMs: 50,
      });
      assert.deepEqual(resolveTimeouts({ idleTimeoutMs: 5, timeoutMs: 50 }, { firstByteTimeoutMs: 8 }), {
        connectMs: 15_000,
        firstByteMs: 50,
        idleMs: 5,
      });
    });
  });
});
