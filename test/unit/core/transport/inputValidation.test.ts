import * as assert from 'node:assert/strict';
import { validateApiKeyInput } from '../../../../src/core/transport/apiKeyInput';
import { sendsKeyInClearText } from '../../../../src/core/transport/baseUrl';
import { baseUrlInputWarning, validateBaseUrlInput } from '../../../../src/core/transport/baseUrlInput';
import { ENGLISH, type Translator } from '../../../../src/shared/translator';

describe('what a user types', () => {
  it('accepts an API key with surrounding spaces, refuses empty or split keys', () => {
    assert.equal(validateApiKeyInput('  sk-abc123  '), undefined);
    assert.match(String(validateApiKeyInput('   ')), /Enter the API key/);
    assert.match(String(validateApiKeyInput('sk-abc 123')), /no spaces or line breaks/);
  });

  it('accepts http(s) gateway addresses, with or without /api/v1', () => {
    for (const ok of ['https://gateway.example.com', 'http://127.0.0.1:4000/', ' https://gw.example.com/api/v1 '])
      assert.equal(validateBaseUrlInput(ok), undefined, ok);
  });

  it('warns when the key would travel in clear text: http:// to anything but this machine', () => {
    for (const clear of [
      'http://gateway.example.com',
      'http://10.0.0.5:4000',
      'http://192.168.1.10/api/v1',
      'HTTP://GW.EXAMPLE.COM',
      'http://[2001:db8::1]:8080',
      'http://127.0.0.1.nip.io',
      'http://localhost.example.com',
    ]) {
      assert.equal(sendsKeyInClearText(clear), true, clear);
      assert.match(String(baseUrlInputWarning(clear)), /clear text/, clear);
    }
    for (const local of [
      'https://gateway.example.com',
      'http://127.0.0.1:4000',
      'http://127.8.9.10',
      'http://localhost:8787',
      'http://gw.localhost',
      'http://[::1]:4000',
      'http://[::ffff:127.0.0.1]',
      'http://0.0.0.0:4000',
      'not a url',
    ]) {
      assert.equal(sendsKeyInClearText(local), false, local);
      assert.equal(baseUrlInputWarning(local), undefined, local);
    }
  });

  it('refuses addresses that cannot work, saying why', () => {
    assert.match(String(validateBaseUrlInput('')), /Enter the gateway address/);
    assert.match(String(validateBaseUrlInput('gateway.example.com')), /start with https:\/\//);
    assert.match(String(validateBaseUrlInput('ftp://gateway.example.com')), /https:\/\/ or http:\/\//);
    assert.match(String(validateBaseUrlInput('https://user:secret@gateway.example.com')), /credentials/);
    assert.match(String(validateBaseUrlInput('https://gateway.example.com/?key=1')), /no \?query/);
  });

  it('says why in the display language when the input box passes vscode.l10n', () => {
    const marked: Translator = { t: (message, ...args) => `«${ENGLISH.t(message, ...args)}»` };
    assert.equal(validateApiKeyInput('sk a', marked), '«An API key has no spaces or line breaks inside it.»');
    assert.equal(validateBaseUrlInput('', marked), '«Enter the gateway address, e.g. https://gateway.example.com»');
    for (const bad of ['x', 'ftp://a.example', 'https://u:p@a.example', 'https://a.example/#f'])
      assert.match(String(validateBaseUrlInput(bad, marked)), /^«.*»$/, bad);
  });
});
