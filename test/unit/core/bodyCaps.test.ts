// Response bodies have caps: a huge JSON answer (the local gateway's `huge-body` fault, chunked so
// the client must count) is refused once the cap is passed and the connection is closed; a
// declared Content-Length over the cap is refused before any byte is read.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/core/transport/client';
import { MAX_CATALOG_BYTES, MAX_SMALL_JSON_BYTES } from '../../../src/core/limits';
import { ResponseTooLargeError } from '../../../src/core/errors';
import { FAULT_HEADER, startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';
import { rejectionOf, useTestServer } from './testUtil';

const MiB = 1024 * 1024;
const huge = (bytes: number): { headers: Record<string, string> } => ({
  headers: { [FAULT_HEADER]: `huge-body=${bytes}` },
});

function assertTooLarge(error: unknown, pattern: RegExp): void {
  assert.ok(error instanceof ResponseTooLargeError, `expected ResponseTooLargeError, got ${String(error)}`);
  assert.match(error.message, pattern);
  assert.equal(error.code, 'response_too_large');
}

describe('response body caps (local gateway, huge-body fault)', function () {
  this.timeout(30_000);
  let gateway: LocalGateway;
  let client: GatewayClient;

  before(async () => {
    gateway = await startGateway();
    client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, maxRetries: 0 });
  });
  after(async () => {
    await gateway.stop();
  });

  it('reads a padded catalog under its cap whole (the padding is valid JSON)', async () => {
    const models = await client.models.list(huge(2 * MiB));
    assert.ok(models.length >= 16);
  });

  it('refuses a 64 MiB catalog once 16 MiB are read, and closes the connection', async () => {
    gateway.clearRequests();
    assertTooLarge(
      await rejectionOf(client.models.list(huge(64 * MiB))),
      /^The gateway's answer to GET \/models is larger than 16 MB, more than the 16 MB the extension reads for it, so it was not read\. .*gateway address/,
    );
    const record = await gateway.waitForRequest('/api/v1/models');
    assert.equal(await record.closed, 'aborted', 'the client hung up');
    assert.ok(
      record.bytesWritten < 64 * MiB,
      `the gateway wrote ${record.bytesWritten} bytes: the client stopped reading`,
    );
    assert.equal(MAX_CATALOG_BYTES, 16 * MiB);
  });

  it('caps the quota at 1 MiB and a research list page at 16 MiB', async () => {
    assertTooLarge(await rejectionOf(client.quota.get(huge(2 * MiB))), /answer to GET \/quota is larger than 1 MB/);
    assertTooLarge(
      await rejectionOf(client.research.list({}, huge(20 * MiB))),
      /answer to GET \/research is larger than 16 MB/,
    );
    assert.equal(MAX_SMALL_JSON_BYTES, MiB);
  });

  it('scales the embeddings cap with the inputs (1 MiB plus 128 KiB per input)', async () => {
    const model = 'sim-openai/text-embedding-sim-small';
    assertTooLarge(
      await rejectionOf(client.embeddings.create({ model, input: 'one' }, huge(4 * MiB))),
      /answer to POST \/embeddings is larger than 1\.1 MB/,
    );
    const many = await client.embeddings.create(
      { model, input: Array.from({ length: 64 }, (_, i) => `text ${i}`) },
      huge(4 * MiB),
    );
    assert.equal(many.data.length, 64, '64 inputs may take 9 MiB');
  });
});

describe('response body caps (declared Content-Length)', () => {
  const serve = useTestServer();

  it('refuses speech audio that declares more than 128 MiB before reading it, with advice', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(200 * MiB) });
      res.write(Buffer.alloc(1024));
    });
    const speech = new GatewayClient({ baseUrl: s.url, apiKey: 'k' }).audio.speech({
      model: 'm',
      input: 'hello',
      voice: 'nova',
    });
    assertTooLarge(
      await rejectionOf(speech),
      /^The speech audio the gateway sent is 200 MB, more than the 128 MB .*Read a shorter selection/,
    );
    assert.deepEqual(
      await s.requests[0]?.closed,
      { finished: false },
      'the connection was closed, not read to the end',
    );
  });

  it('refuses a transcript that declares more than 32 MiB', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(40 * MiB) });
      res.write('a');
    });
    const file = { data: new Uint8Array([1, 2, 3]), filename: 'a.wav' };
    const transcript = new GatewayClient({ baseUrl: s.url, apiKey: 'k' }).audio.transcribe({
      model: 'm',
      file,
      response_format: 'text',
    });
    assertTooLarge(await rejectionOf(transcript), /^The transcript the gateway sent is 40 MB, more than the 32 MB/);
  });
});
