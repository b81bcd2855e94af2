// M1: an iterator abandoned without return() must not keep the process alive. A child process takes
// one chunk and walks away; it must exit long before timeoutMs (60 s here) would let it.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { sseData, startServer } from './testUtil';
import type { TestServer } from './testUtil';

const CHILD = `
const { GatewayClient } = require(process.env.CORE_INDEX);
(async () => {
  const client = new GatewayClient({ baseUrl: process.env.BASE_URL, apiKey: 'k', timeoutMs: 60000 });
  const iterator = client.chat.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })[Symbol.asyncIterator]();
  const first = await iterator.next();
  process.stdout.write(first.done ? 'done' : 'chunk');
})();
`;

function runChild(baseUrl: string): Promise<{ code: number | null; stdout: string; ms: number }> {
  const started = Date.now();
  // Compiled layout: out/test/unit/core -> out/src/core/transport/client.js
  const coreIndex = path.resolve(__dirname, '../../../src/core/transport/client.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD], {
      env: { ...process.env, CORE_INDEX: coreIndex, BASE_URL: baseUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    // Generous: a healthy exit takes well under a second; the bug keeps it for 60 s.
    const limit = setTimeout(() => {
      child.kill();
      reject(new Error('the child did not exit within 10 s'));
    }, 10_000);
    child.on('exit', (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, ms: Date.now() - started });
    });
  });
}

describe('core: an abandoned stream iterator (M1)', function () {
  this.timeout(20_000);
  let server: TestServer;
  before(async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunks = ['a', 'b', 'c'].map((content) =>
        sseData({ choices: [{ index: 0, delta: { content }, finish_reason: null }] }),
      );
      res.end(
        `${chunks.join('')}${sseData({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}${sseData('[DONE]')}`,
      );
    });
  });
  after(async () => {
    await server.stop();
  });

  it('lets the process exit promptly after one chunk', async () => {
    const result = await runChild(server.url);
    assert.equal(result.stdout, 'chunk');
    assert.equal(result.code, 0);
  });
});
