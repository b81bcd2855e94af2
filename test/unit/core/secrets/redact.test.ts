import * as assert from 'node:assert/strict';
import {
  AuthenticationError,
  ConnectionError,
  GatewayError,
  RateLimitError,
  StreamError,
} from '../../../../src/core/errors';
import { redactError, redactSecrets, redactValue } from '../../../../src/core/secrets/redact';
import { describeError } from '../../../../src/core/failures/describeError';
import { describeInWords } from '../../../../src/core/failures/errorWords';

const KEY = 'uik/abc-123/xyz';

describe('redactSecrets', () => {
  it('replaces every occurrence of each secret', () => {
    assert.equal(redactSecrets('key=abc123xyz; again abc123xyz', ['abc123xyz']), 'key=[redacted]; again [redacted]');
  });

  it('ignores missing and very short secrets (they would shred ordinary text)', () => {
    assert.equal(redactSecrets('a b c', [undefined, '', 'a']), 'a b c');
  });

  it('finds the key JSON-escaped (with \\/) and URL-encoded in text that was not parsed', () => {
    const text = `a ${JSON.stringify(KEY)} b "uik\\/abc-123\\/xyz" c ${encodeURIComponent(KEY)}`;
    assert.equal(redactSecrets(text, [KEY]), 'a "[redacted]" b "[redacted]" c [redacted]');
  });
});

describe('redactValue', () => {
  it('redacts every string and key of JSON-like data, and returns clean parts unchanged', () => {
    const clean = { text: 'nothing here', list: [1, 'two'] };
    const value = { clean, nested: { deep: [`see ${KEY}`], [KEY]: 1 }, n: 3, flag: true, nothing: null };
    const redacted = redactValue(value, [KEY]);
    assert.deepEqual(redacted, {
      clean,
      nested: { deep: ['see [redacted]'], '[redacted]': 1 },
      n: 3,
      flag: true,
      nothing: null,
    });
    assert.equal(redacted.clean, clean, 'a part without the key is the same object');
    assert.equal(value.nested.deep[0], `see ${KEY}`, 'the input is not changed');
    const untouched = { a: ['b', { c: 'd' }] };
    assert.equal(redactValue(untouched, [KEY]), untouched, 'nothing to redact: no copy');
  });

  it('never passes on unread a value nested deeper than it reads', () => {
    let deep: unknown = `the key: ${KEY}`;
    for (let i = 0; i < 200; i++) deep = { a: deep };
    const text = JSON.stringify(redactValue({ deep }, [KEY]));
    assert.ok(!text.includes(KEY), 'the key is not in what comes out');
    assert.ok(text.includes('[nested too deep to check]'));
  });
});

describe('redactError', () => {
  it('redacts message, stack, code, type, body, request id and causes, keeping the class', () => {
    const cause = new Error(`socket said ${KEY}`);
    const error = new StreamError(`bad ${KEY}`, {
      code: `c:${KEY}`,
      type: `t ${KEY}`,
      body: `{"k":"${KEY}"}`,
      requestId: KEY,
      cause,
    });
    assert.equal(redactError(error, [KEY]), error);
    assert.ok(error instanceof StreamError && error instanceof GatewayError);
    const exposed = [
      error.message,
      error.stack,
      error.code,
      error.type,
      error.body,
      error.requestId,
      cause.message,
      cause.stack,
    ].join('\n');
    assert.ok(!exposed.includes(KEY), exposed);
    assert.equal(error.message, 'bad [redacted]');
    assert.equal(error.requestId, '[redacted]');
  });
});

describe('the shared failure description never carries the key', () => {
  it('takes the key out of the message and the detail, whatever the error echoed', () => {
    const echoed = [
      new AuthenticationError(`Invalid key ${KEY}`, { status: 401 }),
      new RateLimitError(`no credits left for ${JSON.stringify(KEY).slice(1, -1).replace(/\//g, '\\/')}`, {
        status: 429,
        quotaExhausted: true,
      }),
      new ConnectionError(`proxy refused Bearer ${KEY}`),
      new GatewayError(`upstream said ${encodeURIComponent(KEY)}`, { status: 502 }),
      new Error(KEY),
    ];
    for (const error of echoed) {
      const shown = describeError(error, { baseUrl: `http://gw.local/${KEY}`, secrets: [KEY] });
      for (const text of [shown.message, shown.detail, describeInWords(shown)]) {
        assert.ok(
          !text.includes(KEY) && !text.includes(encodeURIComponent(KEY)) && !text.includes('uik\\/abc'),
          `${error.name}: ${text}`,
        );
      }
      assert.match(shown.detail, /\[redacted\]/);
    }
  });
});

describe('redactSecrets: the forms a proxy re-encodes the key into', () => {
  const key = 'sim/echo-key/0123456789abcdef';
  const bytes = Buffer.from(key);

  it('finds base64 (standard and URL-safe) of the key alone and inside a longer string at each of the three alignments', () => {
    const texts = [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      Buffer.from(`Basic user:${key}`).toString('base64'),
      Buffer.from(`a${key}`).toString('base64'),
      Buffer.from(`ab${key}zz`).toString('base64url'),
      Buffer.from(`abc${key}`).toString('base64'),
    ];
    for (const text of texts) {
      const redacted = redactSecrets(`header ${text} end`, [key]);
      assert.match(redacted, /^header \S*\[redacted\]\S* end$/, text);
      // All of the key's encoding went but a character or two at its edges (shared with its neighbours).
      const left = redacted.replace(/^header |\s*end$/g, '').replace('[redacted]', '');
      assert.ok(
        text.length - left.length >= Math.floor((key.length * 4) / 3) - 2,
        `${text}: only the edges stay (${left})`,
      );
    }
  });

  it('finds hex in either case, and the key in any letter case', () => {
    for (const text of [
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      key.toUpperCase(),
      'SIM/Echo-Key/0123456789ABCDEF',
    ]) {
      assert.equal(redactSecrets(`<${text}>`, [key]), '<[redacted]>', text);
    }
  });

  it('leaves text without the key as the same string, and does not search encodings of a short key', () => {
    const text = 'nothing to see: 73696d2f and c2lt and SIM/';
    assert.equal(redactSecrets(text, [key]), text);
    assert.equal(redactSecrets('abcd YWJjZA== 61626364', ['abcd']), '[redacted] YWJjZA== 61626364');
  });
});
