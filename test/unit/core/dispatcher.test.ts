// createDispatcher used by a real GatewayClient: direct, and through the local CONNECT proxy
// (test/harness/connectProxy.ts) to the local gateway (plain http: absolute-URI requests) and to
// an https server (CONNECT tunnels), with proxy authentication and the TLS policy.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as tls from 'node:tls';
import { startConnectProxy } from '../../harness/connectProxy';
import type { ConnectProxy } from '../../harness/connectProxy';
import { startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';
import { ConnectionError } from '../../../src/core/errors';
import { createDispatcher, InvalidProxyUrlError, isValidProxyUrl } from '../../../src/core/net/dispatcher';
import { diagnoseConnectionError } from '../../../src/core/net/diagnose';
import { GatewayClient } from '../../../src/core/transport/client';
import { ProxyError } from '../../../src/core/net/proxyError';
import type { Dispatcher } from 'undici';
import { tlsConnectOptions } from '../../../src/core/net/dispatcher';
import { closedPort, selfSignedCertificate, startHttpsServer } from './netFixtures';
import { rejectionOf } from './testUtil';
import type { HttpsTestServer, SelfSigned } from './netFixtures';

const PASSWORD = 'pr0xy-s3cret';

describe('core: createDispatcher', function () {
  this.timeout(20_000);
  let gateway: LocalGateway;
  const dispatchers: Dispatcher[] = [];
  /** A client through `dispatcher`, closed after the test. No retries: one failure, one answer. */
  const clientFor = (
    baseUrl: string,
    options: Parameters<typeof createDispatcher>[0],
    apiKey = gateway.apiKey,
  ): GatewayClient => {
    const dispatcher = createDispatcher(options);
    dispatchers.push(dispatcher);
    return new GatewayClient({ baseUrl, apiKey, dispatcher, maxRetries: 0 });
  };

  before(async () => {
    gateway = await startGateway();
  });
  after(async () => {
    await gateway.stop();
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.destroy()));
  });

  it('direct (no proxy): a plain Agent reaches the gateway', async () => {
    const models = await clientFor(gateway.url, {}).models.list();
    assert.ok(models.length >= 6);
  });

  it('rejects a proxy setting that is not a URL without repeating it', () => {
    assert.throws(
      () => createDispatcher({ proxyUrl: 'http://user:secret@' }),
      (error: unknown) => error instanceof InvalidProxyUrlError && !error.message.includes('secret'),
    );
    assert.throws(() => createDispatcher({ proxyUrl: 'ftp://proxy:21' }), InvalidProxyUrlError);
    assert.equal(isValidProxyUrl('ftp://proxy:21'), false);
    assert.equal(isValidProxyUrl(' proxy.example:3128 '), true, 'a bare host:port is http');
  });

  it('a dispatcher that cannot be made fails the request as itself, tried once (not as an unreachable gateway, retried)', async () => {
    let attempts = 0;
    const client = new GatewayClient({
      baseUrl: gateway.url,
      apiKey: gateway.apiKey,
      maxRetries: 2,
      dispatcher: () => {
        attempts++;
        return createDispatcher({ proxyUrl: 'ftp://user:secret@proxy:21' });
      },
    });
    await assert.rejects(
      client.models.list(),
      (error: unknown) => error instanceof InvalidProxyUrlError && !error.message.includes('secret'),
    );
    assert.equal(attempts, 1);
  });

  it('an extra CA is added to the default roots, never instead of them', () => {
    const extra = '-----BEGIN CERTIFICATE-----\nextra\n-----END CERTIFICATE-----\n';
    const withCa = tlsConnectOptions({ ca: extra });
    assert.equal(withCa.rejectUnauthorized, true);
    assert.ok(withCa.ca, 'ca set');
    assert.equal(withCa.ca.at(-1), extra);
    for (const root of tls.rootCertificates) assert.ok(withCa.ca.includes(root), 'every bundled root is still trusted');
    assert.deepEqual(tlsConnectOptions({}), { rejectUnauthorized: true }, 'no ca: Node keeps its own store');
    assert.deepEqual(tlsConnectOptions({ strictSSL: false, ca: '' }), { rejectUnauthorized: false });
  });

  describe('through the local proxy', () => {
    let proxy: ConnectProxy;
    let authProxy: ConnectProxy;
    beforeEach(async () => {
      proxy = await startConnectProxy();
      authProxy = await startConnectProxy({ auth: { user: 'alice', password: PASSWORD } });
    });
    afterEach(async () => {
      await Promise.all([proxy.stop(), authProxy.stop()]);
    });

    it('a dispatcher given as a function is made on the first request, once, and serves image links too', async () => {
      let made = 0;
      const client = new GatewayClient({
        baseUrl: gateway.url,
        apiKey: gateway.apiKey,
        maxRetries: 0,
        dispatcher: () => {
          made++;
          const dispatcher = createDispatcher({ proxyUrl: proxy.url });
          dispatchers.push(dispatcher);
          return dispatcher;
        },
      });
      assert.equal(made, 0, 'building the client makes no dispatcher (the extension activates without loading undici)');
      const models = await client.models.list();
      assert.ok(models.some((m) => m.id === 'sim-openai/gpt-sim-mini'));
      assert.equal(made, 1);
      const images = await client.images.generate({
        model: 'sim-openai/dall-e-sim-3',
        prompt: 'a lighthouse',
        response_format: 'url',
      });
      const link = images.data[0];
      assert.ok(link?.url, 'a link to download');
      await client.images.download(link);
      assert.equal(made, 1, 'one dispatcher for requests and image links');
      assert.ok(
        proxy.requests.includes(link.url),
        `the image link went through the proxy: ${proxy.requests.join(', ')}`,
      );
    });

    it("plain http goes to the proxy as an absolute-URI request, and the answer is the gateway's", async () => {
      const client = clientFor(gateway.url, { proxyUrl: proxy.url });
      const models = await client.models.list();
      assert.ok(models.some((m) => m.id === 'sim-openai/gpt-sim-mini'));
      assert.deepEqual(proxy.requests, [`${gateway.apiUrl}/models`]);
      assert.deepEqual(proxy.connects, []);
      const quota = await client.quota.get();
      assert.equal(quota.credits, gateway.credits(gateway.apiKey));
      assert.equal(proxy.requests.length, 2);
    });

    it('credentials in the proxy URL become Proxy-Authorization, seen by the proxy and not by the gateway', async () => {
      gateway.clearRequests();
      const client = clientFor(gateway.url, {
        proxyUrl: `http://alice:${encodeURIComponent(PASSWORD)}@127.0.0.1:${authProxy.port}`,
      });
      assert.ok((await client.models.list()).length >= 6);
      assert.equal(authProxy.requests.length, 1);
      const record = gateway.requests.at(-1);
      assert.equal(record?.path, '/api/v1/models');
      assert.equal(record?.headers['proxy-authorization'], undefined);
    });

    it('a wrong proxy password: a 407, diagnosed as a proxy problem that does not show the password', async () => {
      const proxyUrl = `http://alice:wrong-${PASSWORD}@127.0.0.1:${authProxy.port}`;
      const error = await rejectionOf(clientFor(gateway.url, { proxyUrl }).models.list());
      assert.ok(error instanceof ConnectionError, String(error));
      assert.ok(error.cause instanceof ProxyError);
      assert.equal(error.cause.statusCode, 407);
      assert.equal(authProxy.requests.length, 1, 'the proxy saw the request');
      const diagnosis = diagnoseConnectionError(error, { baseUrl: gateway.url, proxyUrl });
      assert.equal(diagnosis.kind, 'proxy');
      assert.match(diagnosis.title, /user name and password/);
      assert.match(diagnosis.detail, new RegExp(`127\\.0\\.0\\.1:${authProxy.port}`));
      assert.ok(!JSON.stringify(diagnosis).includes(PASSWORD), JSON.stringify(diagnosis));
    });

    it('no credentials at all against a proxy that wants them: the same 407 diagnosis', async () => {
      const error = await rejectionOf(clientFor(gateway.url, { proxyUrl: authProxy.url }).models.list());
      assert.equal(diagnoseConnectionError(error, { baseUrl: gateway.url, proxyUrl: authProxy.url }).kind, 'proxy');
      assert.ok(
        error instanceof ConnectionError && error.cause instanceof ProxyError && error.cause.statusCode === 407,
      );
    });

    it('a proxy that is not listening: diagnosed as the proxy, not the gateway', async () => {
      const proxyUrl = `http://127.0.0.1:${await closedPort()}`;
      const error = await rejectionOf(clientFor(gateway.url, { proxyUrl }).models.list());
      const diagnosis = diagnoseConnectionError(error, { baseUrl: gateway.url, proxyUrl });
      assert.equal(diagnosis.kind, 'proxy');
      assert.match(diagnosis.title, /Cannot reach the proxy/);
      assert.equal(
        diagnoseConnectionError(error, { baseUrl: gateway.url }).kind,
        'refused',
        'without a proxy in the context it is a refused port',
      );
    });

    it('a destination the proxy refuses (not loopback): a 403 from the CONNECT, and nothing leaves the machine', async () => {
      const proxyUrl = `http://alice:${PASSWORD}@127.0.0.1:${authProxy.port}`;
      const error = await rejectionOf(clientFor('https://gateway.example.com', { proxyUrl }).models.list());
      assert.deepEqual(authProxy.connects, ['gateway.example.com:443']);
      assert.ok(error instanceof ConnectionError && error.cause instanceof ProxyError, String(error));
      assert.equal(error.cause.statusCode, 403);
      const diagnosis = diagnoseConnectionError(error, { baseUrl: 'https://gateway.example.com', proxyUrl });
      assert.equal(diagnosis.kind, 'proxy');
      assert.match(diagnosis.title, /does not allow gateway\.example\.com/);
    });

    it('a proxy that closes the CONNECT without answering: one attempt and a proxy diagnosis (undici alone reconnects forever)', async () => {
      let connects = 0;
      const mute = createServer();
      mute.on('connect', (_req, socket: import('node:stream').Duplex) => {
        connects++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', () => resolve()));
      try {
        const proxyUrl = `http://127.0.0.1:${(mute.address() as AddressInfo).port}`;
        const target = `https://127.0.0.1:${await closedPort()}`;
        const error = await rejectionOf(clientFor(target, { proxyUrl }, 'any-key').models.list());
        assert.ok(error instanceof ConnectionError && error.cause instanceof ProxyError, String(error));
        assert.equal(error.cause.statusCode, undefined);
        assert.equal(connects, 1);
        const diagnosis = diagnoseConnectionError(error, { baseUrl: target, proxyUrl });
        assert.equal(diagnosis.kind, 'proxy');
        assert.match(diagnosis.title, /closed the connection/);
      } finally {
        mute.closeAllConnections();
        await new Promise<void>((resolve) => mute.close(() => resolve()));
      }
    });

    describe('https targets (CONNECT tunnels)', () => {
      let certificate: SelfSigned;
      let server: HttpsTestServer;
      before(function () {
        const made = selfSignedCertificate();
        if (typeof made === 'string') {
          // Visible in the report as pending, with the reason in the title of the skipped tests' hook.
          console.warn(`    TLS cases skipped: ${made}`);
          this.skip();
        } else {
          certificate = made;
        }
      });
      beforeEach(async () => {
        server = await startHttpsServer(certificate);
      });
      afterEach(async () => {
        await server.stop();
      });

      it('strictSSL false: a self-signed gateway answers, through the tunnel', async () => {
        const models = await clientFor(server.url, { proxyUrl: proxy.url, strictSSL: false }, 'any-key').models.list();
        assert.deepEqual(
          models.map((m) => m.id),
          ['tls/model'],
        );
        assert.deepEqual(proxy.connects, [`127.0.0.1:${server.port}`]);
        assert.deepEqual(proxy.requests, []);
        assert.equal(server.hits, 1);
      });

      it('strictSSL true (the default): the self-signed certificate is refused, diagnosed as tls', async () => {
        const error = await rejectionOf(clientFor(server.url, { proxyUrl: proxy.url }, 'any-key').models.list());
        assert.deepEqual(proxy.connects, [`127.0.0.1:${server.port}`], 'the tunnel was opened');
        assert.equal(server.hits, 0);
        const diagnosis = diagnoseConnectionError(error, { baseUrl: server.url, proxyUrl: proxy.url });
        assert.equal(diagnosis.kind, 'tls', JSON.stringify(diagnosis));
        assert.match(diagnosis.title, /not trusted/);
        assert.match(diagnosis.nextStep, /CA certificate/);
      });

      it('strictSSL true with the certificate as an extra CA: trusted, directly and through the proxy', async () => {
        assert.equal((await clientFor(server.url, { ca: certificate.cert }, 'any-key').models.list()).length, 1);
        assert.equal(
          (
            await clientFor(
              server.url,
              { proxyUrl: proxy.url, ca: Buffer.from(certificate.cert) },
              'any-key',
            ).models.list()
          ).length,
          1,
        );
        assert.equal(server.hits, 2);
        assert.equal(proxy.connects.length, 1);
      });

      it('wrong proxy credentials on a tunnel: the 407 is a proxy diagnosis, not a cancelled request', async () => {
        const proxyUrl = `http://alice:nope@127.0.0.1:${authProxy.port}`;
        const error = await rejectionOf(clientFor(server.url, { proxyUrl, strictSSL: false }, 'any-key').models.list());
        assert.ok(
          error instanceof ConnectionError && error.cause instanceof ProxyError,
          `${String(error)} (undici names a refused tunnel AbortError)`,
        );
        assert.equal(diagnoseConnectionError(error, { baseUrl: server.url, proxyUrl }).kind, 'proxy');
        assert.equal(server.hits, 0);
      });

      it('the proxy cannot reach the destination: 502 from the CONNECT', async () => {
        const port = await closedPort();
        const error = await rejectionOf(
          clientFor(`https://127.0.0.1:${port}`, { proxyUrl: proxy.url }, 'any-key').models.list(),
        );
        assert.ok(
          error instanceof ConnectionError && error.cause instanceof ProxyError && error.cause.statusCode === 502,
          String(error),
        );
        const diagnosis = diagnoseConnectionError(error, { baseUrl: `https://127.0.0.1:${port}`, proxyUrl: proxy.url });
        assert.equal(diagnosis.kind, 'proxy');
        assert.match(diagnosis.title, /could not reach/);
      });
    });
  });
});
