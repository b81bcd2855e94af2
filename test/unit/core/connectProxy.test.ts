// The test proxy itself (test/harness/connectProxy.ts): what it records, its 407, and that it never
// connects anywhere but this machine.
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { startConnectProxy } from '../../harness/connectProxy';
import type { ConnectProxy } from '../../harness/connectProxy';
import { startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';

/** A raw request to the proxy: the status line it answers, and the body. */
function viaProxy(
  proxy: ConnectProxy,
  options: { method: string; path: string; headers?: Record<string, string> },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: proxy.port, agent: false, ...options });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('test harness: startConnectProxy', function () {
  this.timeout(20_000);
  let gateway: LocalGateway;
  let proxy: ConnectProxy;
  before(async () => {
    gateway = await startGateway();
    proxy = await startConnectProxy({ auth: { user: 'bob', password: 'pw' } });
  });
  after(async () => {
    await proxy.stop();
    await gateway.stop();
  });
  const auth = { 'proxy-authorization': `Basic ${Buffer.from('bob:pw').toString('base64')}` };

  it('forwards absolute-URI requests to loopback and records them', async () => {
    const uri = `${gateway.apiUrl}/models`;
    const answer = await viaProxy(proxy, {
      method: 'GET',
      path: uri,
      headers: { ...auth, authorization: `Bearer ${gateway.apiKey}` },
    });
    assert.equal(answer.status, 200);
    assert.ok((JSON.parse(answer.body) as { data: unknown[] }).data.length >= 6);
    assert.equal(proxy.requests.at(-1), uri);
    assert.equal(
      gateway.requests.at(-1)?.headers['proxy-authorization'],
      undefined,
      'its own credentials stay with the proxy',
    );
  });

  it('answers 407 without (or with wrong) credentials, for both kinds of request', async () => {
    assert.equal((await viaProxy(proxy, { method: 'GET', path: `${gateway.apiUrl}/models` })).status, 407);
    assert.equal(
      (
        await viaProxy(proxy, {
          method: 'CONNECT',
          path: `127.0.0.1:${gateway.port}`,
          headers: { 'proxy-authorization': 'Basic d3Jvbmc6d3Jvbmc=' },
        })
      ).status,
      407,
    );
    assert.equal(
      (await viaProxy(proxy, { method: 'CONNECT', path: `127.0.0.1:${gateway.port}`, headers: auth })).status,
      200,
    );
    assert.deepEqual(proxy.connects.slice(-2), [`127.0.0.1:${gateway.port}`, `127.0.0.1:${gateway.port}`]);
  });

  it('refuses destinations off this machine (403) and malformed ones (400), without connecting', async () => {
    assert.equal((await viaProxy(proxy, { method: 'GET', path: 'http://example.com/', headers: auth })).status, 403);
    assert.equal((await viaProxy(proxy, { method: 'CONNECT', path: 'example.com:443', headers: auth })).status, 403);
    assert.equal((await viaProxy(proxy, { method: 'CONNECT', path: '10.0.0.1:443', headers: auth })).status, 403);
    assert.equal((await viaProxy(proxy, { method: 'CONNECT', path: 'no-port', headers: auth })).status, 400);
    assert.equal((await viaProxy(proxy, { method: 'GET', path: '/relative', headers: auth })).status, 400);
    assert.equal(proxy.requests.at(-2), 'http://example.com/');
  });
});
