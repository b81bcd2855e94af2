import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { buildCsp, escapeHtml, webviewDocument } from '../../src/shared/csp';
import { createNonce } from '../../src/extension/webview/nonce';

describe('webview security helpers', () => {
  it('makes a fresh, long, base64 nonce each time', () => {
    const nonces = new Set(Array.from({ length: 200 }, () => createNonce()));
    assert.equal(nonces.size, 200);
    for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9+/]{32}$/);
  });

  it('builds a CSP that allows only nonce scripts and local resources', () => {
    const csp = buildCsp({
      cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
      nonce: 'abcdefghijklmnopqrstuvwx',
    });
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    assert.deepEqual(directives['default-src'], ["'none'"]);
    assert.deepEqual(directives['script-src'], ["'nonce-abcdefghijklmnopqrstuvwx'"]);
    assert.deepEqual(directives['style-src'], ['https://file+.vscode-resource.vscode-cdn.net']);
    assert.deepEqual(directives['img-src'], ['https://file+.vscode-resource.vscode-cdn.net', 'data:']);
    assert.equal(directives['connect-src'], undefined, 'the webview may not reach the network');
    assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'));
  });

  it('accepts a cspSource listing several origins, as the web workbench gives', () => {
    const csp = buildCsp({ cspSource: "'self' https://*.vscode-cdn.net", nonce: createNonce() });
    assert.match(csp, /style-src 'self' https:\/\/\*\.vscode-cdn\.net;/);
  });

  it('refuses a weak nonce or a source that could inject directives', () => {
    assert.throws(() => buildCsp({ cspSource: 'x', nonce: 'short' }), /nonce/);
    assert.throws(() => buildCsp({ cspSource: "x; script-src 'unsafe-inline'", nonce: createNonce() }), /cspSource/);
    assert.throws(() => buildCsp({ cspSource: "'self' 'unsafe-inline'", nonce: createNonce() }), /cspSource/);
    assert.throws(() => buildCsp({ cspSource: '  ', nonce: createNonce() }), /cspSource/);
  });

  it('escapes HTML special characters', () => {
    assert.equal(
      escapeHtml(`<img src=x onerror="a('b')">&`),
      '&#60;img src=x onerror=&#34;a(&#39;b&#39;)&#34;&#62;&#38;',
    );
  });

  it('writes a webview page: the CSP first, escaped styles and title, every script by nonce, an empty #root', () => {
    const nonce = createNonce();
    const html = webviewDocument({
      cspSource: 'https://res.example',
      nonce,
      title: 'Chat "<x>"',
      styles: ['https://res.example/a.css?x="><script>'],
      scripts: [{ src: 'https://res.example/b.js' }, { inline: 'window.ok = 1;' }],
    });
    const { document } = new JSDOM(html).window;
    const policy = document.head.firstElementChild?.nextElementSibling;
    assert.equal(policy?.getAttribute('http-equiv'), 'Content-Security-Policy');
    assert.equal(policy?.getAttribute('content'), buildCsp({ cspSource: 'https://res.example', nonce }));
    assert.equal(document.title, 'Chat "<x>"');
    assert.deepEqual(
      Array.from(document.querySelectorAll('link[rel=stylesheet]'), (link) => link.getAttribute('href')),
      ['https://res.example/a.css?x="><script>'],
    );
    const scripts = Array.from(document.querySelectorAll('script'));
    assert.deepEqual(
      scripts.map((script) => [script.getAttribute('nonce'), script.getAttribute('src'), script.textContent]),
      [
        [nonce, 'https://res.example/b.js', ''],
        [nonce, null, 'window.ok = 1;'],
      ],
    );
    assert.equal(document.querySelector('#root')?.childNodes.length, 0);
  });
});
