// diagnoseConnectionError on real failures: a closed port, a name that cannot resolve, TLS
// mismatches, and the local gateway's 401, 404, out-of-credits, 429, 5xx and timeouts, plus the
// shapes undici produces that are hard to provoke on one machine (built like undici builds them).
import * as assert from 'node:assert/strict';
import { FAULT_HEADER, startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';
import {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  RateLimitError,
  TimeoutError,
} from '../../../src/core/errors';
import { diagnoseConnectionError } from '../../../src/core/net/diagnose';
import { chatErrorInfo, describeError } from '../../../src/core/failures/describeError';
import { GatewayClient } from '../../../src/core/transport/client';
import { ProxyError } from '../../../src/core/net/proxyError';
import type { ConnectionDiagnosis } from '../../../src/core/net/diagnose';
import type { GatewayClientOptions } from '../../../src/core/types/common';
import { closedPort, selfSignedCertificate, startHttpsServer } from './netFixtures';
import { rejectionOf } from './testUtil';

const BROKE_KEY = 'sim-broke-key-0001';
const WRONG_KEY = 'sk-wrong-key-that-must-never-show';

/** Every diagnosis is complete, names the host, and never shows a secret. */
function checked(diagnosis: ConnectionDiagnosis, host: string, secrets: string[] = [WRONG_KEY]): ConnectionDiagnosis {
  for (const field of ['title', 'detail', 'nextStep'] as const)
    assert.ok(diagnosis[field].length > 5, `${field} of ${JSON.stringify(diagnosis)}`);
  assert.ok(`${diagnosis.title} ${diagnosis.detail}`.includes(host), `names ${host}: ${JSON.stringify(diagnosis)}`);
  for (const secret of secrets) assert.ok(!JSON.stringify(diagnosis).includes(secret), `leaks ${secret}`);
  return diagnosis;
}

function codeError(code: string, message = code, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { code }, extra);
}

describe('core: connection diagnosis', function () {
  this.timeout(20_000);

  describe('real failures, without a gateway', () => {
    const client = (baseUrl: string, extra: Partial<GatewayClientOptions> = {}): GatewayClient =>
      new GatewayClient({ baseUrl, apiKey: WRONG_KEY, maxRetries: 0, ...extra });

    it('a closed port: refused', async () => {
      const port = await closedPort();
      const baseUrl = `http://127.0.0.1:${port}`;
      const error = await rejectionOf(client(baseUrl).models.list());
      assert.ok(error instanceof ConnectionError);
      const diagnosis = checked(diagnoseConnectionError(error, { baseUrl }), `127.0.0.1:${port}`);
      assert.equal(diagnosis.kind, 'refused');
      assert.match(diagnosis.nextStep, /Start the gateway|port/);
    });

    it('a name that cannot resolve (.invalid never does): dns', async () => {
      const baseUrl = 'https://gateway.unified-inference.invalid';
      const error = await rejectionOf(client(baseUrl).models.list());
      assert.ok(error instanceof ConnectionError);
      const diagnosis = checked(diagnoseConnectionError(error, { baseUrl }), 'gateway.unified-inference.invalid');
      // A resolver that cannot be asked at all answers EAI_AGAIN: that is "offline", and says so.
      assert.equal(diagnosis.kind, error.code === 'EAI_AGAIN' ? 'offline' : 'dns', `${error.code}`);
      if (diagnosis.kind === 'dns') assert.match(diagnosis.title, /Cannot find/);
    });

    it('https to a self-signed server: tls (untrusted); http to it: the connection is cut; https to an http port: "does not speak https"', async function () {
      const certificate = selfSignedCertificate();
      if (typeof certificate === 'string') {
        console.warn(`    skipped: ${certificate}`);
        this.skip();
      }
      const server = await startHttpsServer(certificate);
      const plain = await startGateway();
      try {
        const untrusted = await rejectionOf(client(server.url).models.list());
        const tls = checked(diagnoseConnectionError(untrusted, { baseUrl: server.url }), `127.0.0.1:${server.port}`);
        assert.equal(tls.kind, 'tls', JSON.stringify(tls));
        assert.match(tls.title, /not trusted/);

        const httpToHttps = `http://127.0.0.1:${server.port}`;
        const cut = await rejectionOf(client(httpToHttps).models.list());
        const cutDiagnosis = checked(
          diagnoseConnectionError(cut, { baseUrl: httpToHttps }),
          `127.0.0.1:${server.port}`,
        );
        assert.equal(cutDiagnosis.kind, 'refused', JSON.stringify(cutDiagnosis));
        assert.match(cutDiagnosis.nextStep, /scheme/);

        const httpsToHttp = `https://127.0.0.1:${plain.port}`;
        const wrongScheme = await rejectionOf(client(httpsToHttp).models.list());
        const wrong = checked(
          diagnoseConnectionError(wrongScheme, { baseUrl: httpsToHttp }),
          `127.0.0.1:${plain.port}`,
        );
        assert.equal(wrong.kind, 'tls');
        assert.match(wrong.title, /does not speak https/);
        assert.equal(server.hits, 0);
      } finally {
        await Promise.all([server.stop(), plain.stop()]);
      }
    });

    it('no key: noKey; an unusable base URL: invalidUrl', async () => {
      const noKey = await rejectionOf(new GatewayClient({ baseUrl: 'http://127.0.0.1:9', apiKey: '  ' }).models.list());
      const diagnosis = checked(diagnoseConnectionError(noKey, { baseUrl: 'http://127.0.0.1:9' }), '127.0.0.1:9');
      assert.equal(diagnosis.kind, 'noKey');
      assert.match(diagnosis.nextStep, /Set API Key/);

      const badUrl = await rejectionOf(
        Promise.resolve().then(() => new GatewayClient({ baseUrl: 'gateway example', apiKey: 'k' })),
      );
      assert.equal(diagnoseConnectionError(badUrl, { baseUrl: 'gateway example' }).kind, 'invalidUrl');
      assert.equal(diagnoseConnectionError(badUrl, { baseUrl: 'ftp://gateway.example' }).kind, 'invalidUrl');
      const empty = diagnoseConnectionError(new Error('anything'), { baseUrl: ' ' });
      assert.equal(empty.kind, 'invalidUrl');
      assert.match(empty.title, /No gateway address/);
    });
  });

  describe('answers of the local gateway', () => {
    let gateway: LocalGateway;
    let baseUrl: string;
    before(async () => {
      gateway = await startGateway({ keys: { [BROKE_KEY]: { credits: 0 } } });
      baseUrl = gateway.url;
    });
    after(async () => {
      await gateway.stop();
    });
    const client = (apiKey: string, extra: Partial<GatewayClientOptions> = {}): GatewayClient =>
      new GatewayClient({ baseUrl, apiKey, maxRetries: 0, ...extra });
    const host = (): string => `127.0.0.1:${gateway.port}`;

    it('a wrong key (either auth header): unauthorized, naming the auth header setting', async () => {
      for (const authHeader of ['authorization', 'x-api-key'] as const) {
        const error = await rejectionOf(client(WRONG_KEY, { authHeader }).quota.get());
        const diagnosis = checked(diagnoseConnectionError(error, { baseUrl }), host());
        assert.equal(diagnosis.kind, 'unauthorized');
        assert.match(diagnosis.nextStep, /auth header/);
      }
    });

    it('a base URL with a path the gateway does not serve: notFound, pointing at /api/v1', async () => {
      const wrongBase = `${gateway.url}/some/prefix`;
      const error = await rejectionOf(
        new GatewayClient({ baseUrl: wrongBase, apiKey: gateway.apiKey, maxRetries: 0 }).models.list(),
      );
      assert.ok(error instanceof GatewayError && error.status === 404);
      const diagnosis = checked(diagnoseConnectionError(error, { baseUrl: wrongBase }), host());
      assert.equal(diagnosis.kind, 'notFound');
      assert.match(diagnosis.nextStep, /\/api\/v1/);
    });

    it('no credits left: outOfCredits (the quota read itself still works)', async () => {
      const broke = client(BROKE_KEY);
      assert.equal((await broke.quota.get()).credits, 0);
      const error = await rejectionOf(
        broke.chat.create({ model: 'sim-openai/gpt-sim-mini', messages: [{ role: 'user', content: 'hi' }] }),
      );
      assert.ok(error instanceof RateLimitError && error.quotaExhausted);
      const diagnosis = checked(diagnoseConnectionError(error, { baseUrl }), host(), [BROKE_KEY]);
      assert.equal(diagnosis.kind, 'outOfCredits');
      assert.match(diagnosis.nextStep, /credits|resets/);
    });

    it('a plain 429: rateLimited (with the wait asked for); a 503: server', async () => {
      const limited = await rejectionOf(
        client(gateway.apiKey).models.list({ headers: { [FAULT_HEADER]: 'status=429;retry-after=7' } }),
      );
      assert.ok(limited instanceof RateLimitError && !limited.quotaExhausted);
      const rate = checked(diagnoseConnectionError(limited, { baseUrl }), host());
      assert.equal(rate.kind, 'rateLimited');
      assert.match(rate.detail, /7 s/);

      const down = await rejectionOf(client(gateway.apiKey).models.list({ headers: { [FAULT_HEADER]: 'status=503' } }));
      assert.equal(checked(diagnoseConnectionError(down, { baseUrl }), host()).kind, 'server');
      const viaProxy = diagnoseConnectionError(down, { baseUrl, proxyUrl: 'http://u:pw-secret@proxy.corp:3128' });
      assert.match(viaProxy.detail, /proxy\.corp:3128/);
      assert.ok(!JSON.stringify(viaProxy).includes('pw-secret'));
    });

    it('no answer in time: timeout', async () => {
      // The gateway holds the headers far longer than the client waits; only the kind is asserted.
      const error = await rejectionOf(
        client(gateway.apiKey, { timeoutMs: 300 }).models.list({ headers: { [FAULT_HEADER]: 'delay-headers=10000' } }),
      );
      assert.ok(error instanceof TimeoutError, String(error));
      assert.equal(checked(diagnoseConnectionError(error, { baseUrl }), host()).kind, 'timeout');
    });
  });

  describe('error shapes built like undici builds them', () => {
    const baseUrl = 'https://gw.example.com:8443/api/v1';
    const wrap = (cause: unknown): ConnectionError =>
      new ConnectionError('Could not reach the gateway at gw.example.com:8443', { cause });
    const cases: [string, unknown, ConnectionDiagnosis['kind'], RegExp?][] = [
      [
        'ENOTFOUND',
        wrap(codeError('ENOTFOUND', 'getaddrinfo ENOTFOUND gw.example.com', { hostname: 'gw.example.com' })),
        'dns',
      ],
      ['EAI_AGAIN', wrap(codeError('EAI_AGAIN')), 'offline', /DNS lookup/],
      ['ENETUNREACH', wrap(codeError('ENETUNREACH')), 'offline'],
      [
        'ECONNREFUSED in an AggregateError (happy eyeballs)',
        wrap(
          Object.assign(new AggregateError([codeError('ECONNREFUSED'), codeError('ECONNREFUSED')]), {
            code: undefined,
          }),
        ),
        'refused',
      ],
      ['ECONNRESET', wrap(codeError('ECONNRESET')), 'refused', /closed the connection/],
      ['ETIMEDOUT', wrap(codeError('ETIMEDOUT')), 'timeout'],
      ['UND_ERR_CONNECT_TIMEOUT', wrap(codeError('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error')), 'timeout'],
      ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', wrap(codeError('UNABLE_TO_VERIFY_LEAF_SIGNATURE')), 'tls', /not trusted/],
      ['SELF_SIGNED_CERT_IN_CHAIN', wrap(codeError('SELF_SIGNED_CERT_IN_CHAIN')), 'tls', /not trusted/],
      ['DEPTH_ZERO_SELF_SIGNED_CERT', wrap(codeError('DEPTH_ZERO_SELF_SIGNED_CERT')), 'tls', /not trusted/],
      ['CERT_HAS_EXPIRED', wrap(codeError('CERT_HAS_EXPIRED')), 'tls', /not valid now/],
      ['ERR_TLS_CERT_ALTNAME_INVALID', wrap(codeError('ERR_TLS_CERT_ALTNAME_INVALID')), 'tls', /does not match/],
      [
        'a bare undici error (fetch style: TypeError with cause)',
        Object.assign(new TypeError('fetch failed'), { cause: codeError('ECONNREFUSED') }),
        'refused',
      ],
      ['a refused tunnel', wrap(new ProxyError(502)), 'proxy', /could not reach/],
      [
        'a 407 passed through as a status',
        new GatewayError('Proxy Authentication Required', { status: 407 }),
        'proxy',
        /user name and password/,
      ],
      [
        'a 403 from the gateway (the client makes it an AuthenticationError)',
        new AuthenticationError('Forbidden', { status: 403 }),
        'unauthorized',
        /403/,
      ],
      ['another 4xx', new GatewayError('I am a teapot', { status: 418 }), 'unknown', /418/],
      [
        'a cancelled request',
        Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }),
        'unknown',
        /cancelled/,
      ],
      ['something else', new Error('boom at http://user:hunter2@gw.example.com:8443/x'), 'unknown', /boom/],
      ['not even an Error', 'a string', 'unknown'],
    ];
    for (const [name, error, kind, title] of cases) {
      it(`${name} -> ${kind}`, () => {
        const diagnosis = checked(diagnoseConnectionError(error, { baseUrl }), 'gw.example.com:8443', ['hunter2']);
        assert.equal(diagnosis.kind, kind, JSON.stringify(diagnosis));
        if (title) assert.match(`${diagnosis.title} ${diagnosis.detail}`, title);
      });
    }

    it('an untrusted certificate: asks to add a CA file only when none is set', () => {
      const untrusted = wrap(codeError('SELF_SIGNED_CERT_IN_CHAIN'));
      assert.match(
        diagnoseConnectionError(untrusted, { baseUrl }).nextStep,
        /Add your company's CA certificate in the CA certificate file setting/,
      );
      const inUse = diagnoseConnectionError(untrusted, { baseUrl, caCertificateFile: '/etc/corp-ca.pem' });
      assert.doesNotMatch(inUse.nextStep, /Add your company/);
      assert.match(inUse.nextStep, /\/etc\/corp-ca\.pem is in use but does not vouch for this certificate/);
      const unreadable = diagnoseConnectionError(untrusted, {
        baseUrl,
        caCertificateFile: '/etc/corp-ca.pem',
        caCertificateUnreadable: true,
      });
      assert.doesNotMatch(unreadable.nextStep, /Add your company/);
      assert.match(unreadable.nextStep, /\/etc\/corp-ca\.pem could not be read, so it was not used/);
    });

    it("with a proxy: refused / unknown-host / unreachable first hops are the proxy's; TLS stays tls and mentions the proxy", () => {
      const proxyUrl = 'http://user:pw-secret@proxy.corp:3128';
      const refused = diagnoseConnectionError(
        wrap(codeError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:3128', { address: '10.0.0.5', port: 3128 })),
        { baseUrl, proxyUrl },
      );
      assert.equal(refused.kind, 'proxy');
      assert.match(refused.title, /proxy\.corp:3128/);
      const dns = diagnoseConnectionError(
        wrap(codeError('ENOTFOUND', 'getaddrinfo ENOTFOUND proxy.corp', { hostname: 'proxy.corp' })),
        { baseUrl, proxyUrl },
      );
      assert.equal(dns.kind, 'proxy');
      // A DNS failure for another name (the proxy was bypassed for it) is not the proxy's.
      assert.equal(
        diagnoseConnectionError(wrap(codeError('ENOTFOUND', 'x', { hostname: 'gw.example.com' })), {
          baseUrl,
          proxyUrl,
        }).kind,
        'dns',
      );
      const tls = diagnoseConnectionError(wrap(codeError('SELF_SIGNED_CERT_IN_CHAIN')), { baseUrl, proxyUrl });
      assert.equal(tls.kind, 'tls');
      assert.match(tls.detail, /proxy\.corp:3128/);
      assert.equal(diagnoseConnectionError(wrap(codeError('UND_ERR_PRX_TLS')), { baseUrl, proxyUrl }).kind, 'proxy');
      for (const d of [refused, dns, tls]) assert.ok(!JSON.stringify(d).includes('pw-secret'));
    });

    it("names the setting its next step names, so Open Settings shows that one (a proxy's, the CA file's), and the error description carries it", () => {
      const proxyUrl = 'http://proxy.corp:3128';
      const refusedProxy = diagnoseConnectionError(
        wrap(codeError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:3128', { address: '10.0.0.5', port: 3128 })),
        { baseUrl, proxyUrl },
      );
      const cases: [string, ConnectionDiagnosis, string | undefined][] = [
        ['proxy refused', refusedProxy, 'http.proxy'],
        ['proxy 407', diagnoseConnectionError(new ProxyError(407), { baseUrl, proxyUrl }), 'http.proxy'],
        ['proxy 403', diagnoseConnectionError(new ProxyError(403), { baseUrl, proxyUrl }), 'http.noProxy'],
        [
          'untrusted certificate',
          diagnoseConnectionError(wrap(codeError('SELF_SIGNED_CERT_IN_CHAIN')), { baseUrl }),
          'unifiedInference.caCertificateFile',
        ],
        [
          'http port',
          diagnoseConnectionError(wrap(codeError('ERR_SSL_WRONG_VERSION_NUMBER')), { baseUrl }),
          'unifiedInference.baseUrl',
        ],
        ['expired', diagnoseConnectionError(wrap(codeError('CERT_HAS_EXPIRED')), { baseUrl }), undefined],
        ['refused', diagnoseConnectionError(wrap(codeError('ECONNREFUSED')), { baseUrl }), 'unifiedInference.baseUrl'],
      ];
      for (const [name, diagnosis, setting] of cases) {
        assert.equal(diagnosis.setting, setting, `${name}: ${JSON.stringify(diagnosis)}`);
        if (setting?.startsWith('http.')) assert.ok(diagnosis.nextStep.includes(setting), name);
      }
      const described = describeError(wrap(codeError('SELF_SIGNED_CERT_IN_CHAIN')), { baseUrl });
      assert.equal(described.setting, 'unifiedInference.caCertificateFile', JSON.stringify(described));
      // The chat's error carries it too: its Open Settings button shows the same setting.
      assert.equal(chatErrorInfo(described).setting, 'unifiedInference.caCertificateFile');
      assert.ok(described.actions.includes('openSettings'));
    });

    it('a cause chain that loops does not hang', () => {
      const a = new Error('a') as Error & { cause?: unknown };
      const b = new Error('b', { cause: a });
      a.cause = b;
      assert.equal(diagnoseConnectionError(a, { baseUrl }).kind, 'unknown');
    });
  });
});
