import * as assert from 'node:assert/strict';
import { describeProxy } from '../../../src/core/net/dispatcher';
import { matchesNoProxy, selectProxy } from '../../../src/core/net/proxy';

describe('core: proxy selection', () => {
  it('matchesNoProxy: a table of hosts, ports and entries', () => {
    // [host, port, NO_PROXY, expected]
    const cases: [string, number, string, boolean][] = [
      ['gateway.example.com', 443, '', false],
      ['gateway.example.com', 443, '*', true],
      ['gateway.example.com', 443, ' * ', true],
      ['example.com', 443, 'example.com', true],
      ['gateway.example.com', 443, 'example.com', true],
      ['a.b.example.com', 443, 'example.com', true],
      ['example.com', 443, '.example.com', true],
      ['gateway.example.com', 443, '.example.com', true],
      ['gateway.example.com', 443, '*.example.com', true],
      ['notexample.com', 443, 'example.com', false],
      ['notexample.com', 443, '.example.com', false],
      ['example.com.evil.net', 443, 'example.com', false],
      ['example.co', 443, 'example.com', false],
      ['GATEWAY.Example.COM', 443, 'example.com', true],
      ['gateway.example.com', 443, 'EXAMPLE.COM', true],
      ['gateway.example.com.', 443, 'example.com', true],
      ['gateway.example.com', 443, 'other.org, example.com', true],
      ['gateway.example.com', 443, 'other.org example.com', true],
      ['gateway.example.com', 443, ' other.org ,\texample.com ', true],
      ['gateway.example.com', 443, 'other.org,,', false],
      ['gateway.example.com', 8443, 'example.com:8443', true],
      ['gateway.example.com', 443, 'example.com:8443', false],
      ['localhost', 3000, 'localhost:3000', true],
      ['localhost', 3001, 'localhost:3000', false],
      ['localhost', 80, 'localhost', true],
      ['127.0.0.1', 80, '127.0.0.1', true],
      ['127.0.0.1', 80, 'localhost', false],
      ['127.0.0.2', 80, '127.0.0.1', false],
      ['127.0.0.1', 8080, '127.0.0.1:8080', true],
      ['127.0.0.1', 8081, '127.0.0.1:8080', false],
      ['10.1.2.3', 443, '10.0.0.0/8', true],
      ['11.1.2.3', 443, '10.0.0.0/8', false],
      ['192.168.1.200', 443, '192.168.1.128/25', true],
      ['192.168.1.100', 443, '192.168.1.128/25', false],
      ['gateway.example.com', 443, '10.0.0.0/8', false],
      ['10.1.2.3', 443, 'example.com', false],
      ['::1', 443, '::1', true],
      ['[::1]', 443, '::1', true],
      ['::1', 443, '0:0:0:0:0:0:0:1', true],
      ['::1', 8080, '[::1]:8080', true],
      ['::1', 8081, '[::1]:8080', false],
      ['fd00::5', 443, 'fd00::/8', true],
      ['fe80::5', 443, 'fd00::/8', false],
      ['10.1.2.3', 443, '10.0.0.0/99', false],
      ['', 443, '*', false],
    ];
    for (const [host, port, noProxy, expected] of cases) {
      assert.equal(matchesNoProxy(host, port, noProxy), expected, `${host}:${port} vs "${noProxy}"`);
    }
  });

  it('selectProxy: the setting wins, then the variables of the target scheme, then ALL_PROXY', () => {
    const env = {
      HTTPS_PROXY: 'http://secure-proxy:3128',
      HTTP_PROXY: 'http://plain-proxy:3128',
      ALL_PROXY: 'http://all-proxy:1080',
    };
    // [target, config, expected]
    const cases: [string, Parameters<typeof selectProxy>[1], string | undefined][] = [
      ['https://gw.example', { env: {} }, undefined],
      ['https://gw.example', { env }, 'http://secure-proxy:3128'],
      ['http://gw.example', { env }, 'http://plain-proxy:3128'],
      ['https://gw.example', { proxy: 'http://setting-proxy:8080', env }, 'http://setting-proxy:8080'],
      ['https://gw.example', { proxy: '   ', env }, 'http://secure-proxy:3128'],
      [
        'https://gw.example',
        { env: { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' } },
        'http://lower:1',
      ],
      ['https://gw.example', { env: { https_proxy: '', HTTPS_PROXY: 'http://upper:2' } }, 'http://upper:2'],
      ['http://gw.example', { env: { http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:2' } }, 'http://lower:1'],
      // The other scheme's variable does not apply.
      ['https://gw.example', { env: { HTTP_PROXY: 'http://plain-proxy:3128' } }, undefined],
      ['http://gw.example', { env: { HTTPS_PROXY: 'http://secure-proxy:3128' } }, undefined],
      ['https://gw.example', { env: { ALL_PROXY: 'http://all:1' } }, 'http://all:1'],
      ['http://gw.example', { env: { all_proxy: 'http://all:1' } }, 'http://all:1'],
      ['https://gw.example', { env: { all_proxy: 'http://lower:1', ALL_PROXY: 'http://upper:2' } }, 'http://lower:1'],
      ['https://gw.example', { env: { HTTPS_PROXY: 'proxy.corp:3128' } }, 'http://proxy.corp:3128'],
      ['https://gw.example', { proxy: 'https://user:pw@proxy.corp:443' }, 'https://user:pw@proxy.corp:443'],
      // NO_PROXY applies to every source, the setting included; so does http.noProxy.
      ['https://gw.example', { env: { ...env, NO_PROXY: 'gw.example' } }, undefined],
      ['https://gw.example', { env: { ...env, no_proxy: '.example' } }, undefined],
      ['https://gw.example', { proxy: 'http://setting-proxy:8080', env: { NO_PROXY: 'gw.example' } }, undefined],
      ['https://gw.example', { proxy: 'http://setting-proxy:8080', noProxy: ['gw.example'], env: {} }, undefined],
      ['https://gw.example', { env, noProxy: ['other.example'] }, 'http://secure-proxy:3128'],
      // Ports: the default port of the scheme when the URL has none.
      ['https://gw.example', { env: { ...env, NO_PROXY: 'gw.example:443' } }, undefined],
      ['http://gw.example', { env: { ...env, NO_PROXY: 'gw.example:443' } }, 'http://plain-proxy:3128'],
      ['http://127.0.0.1:8787', { env: { ...env, NO_PROXY: '127.0.0.1:8787' } }, undefined],
      ['http://127.0.0.1:8787', { env: { ...env, NO_PROXY: '127.0.0.0/8' } }, undefined],
      ['http://[::1]:8787', { env: { ...env, NO_PROXY: '::1' } }, undefined],
      // Not something a proxy applies to.
      ['ftp://gw.example', { env }, undefined],
      ['not a url', { env }, undefined],
    ];
    for (const [target, config, expected] of cases)
      assert.equal(selectProxy(target, config), expected, `${target} ${JSON.stringify(config)}`);
    assert.equal(
      selectProxy(new URL('https://gw.example/api/v1'), { env }),
      'http://secure-proxy:3128',
      'a URL object',
    );
  });

  it('selectProxy reads process.env when no env is given', () => {
    const saved = { ...process.env };
    try {
      for (const name of ['https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY', 'no_proxy', 'NO_PROXY'])
        delete process.env[name];
      process.env.HTTPS_PROXY = 'http://from-process-env:3128';
      assert.equal(selectProxy('https://gw.example', {}), 'http://from-process-env:3128');
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });

  it('describeProxy strips credentials for display', () => {
    const cases: [string, string][] = [
      ['http://user:secret@proxy.corp:3128', 'http://proxy.corp:3128'],
      ['http://user:secret@proxy.corp:3128/', 'http://proxy.corp:3128'],
      ['https://only-user@proxy.corp', 'https://proxy.corp'],
      ['http://proxy.corp:3128', 'http://proxy.corp:3128'],
      ['proxy.corp:3128', 'http://proxy.corp:3128'],
      ['user:secret@proxy.corp:3128', 'http://proxy.corp:3128'],
      ['  http://u:p%40ss@[::1]:8080  ', 'http://[::1]:8080'],
      ['http://user:secret@bad host', 'http://bad host'],
    ];
    for (const [input, expected] of cases) {
      const shown = describeProxy(input);
      assert.equal(shown, expected, input);
      assert.ok(!shown.includes('secret') && !shown.includes('p%40ss'), shown);
    }
  });
});
