import * as assert from 'node:assert/strict';
import { redactSecrets, secretForms } from '../../../../src/core/secrets/redact';
import { StreamRedactor } from '../../../../src/core/secrets/streamRedactor';

const KEY = 'uik/abc-123/xyzKEY9';

/** Pushes the pieces through one redactor, then flushes; returns what came out, in order. */
function stream(pieces: readonly string[], secrets: readonly string[] = [KEY]): string {
  const redactor = new StreamRedactor(secrets);
  return pieces.map((piece) => redactor.push(piece)).join('') + redactor.flush();
}

function spells(text: string, key = KEY): boolean {
  const folded = text.toLowerCase();
  return secretForms(key).some((form) => folded.includes(form.toLowerCase()));
}

describe('StreamRedactor', () => {
  const text = `before ${KEY} after`;

  it('catches the key split at every position across two deltas', () => {
    for (let cut = 0; cut <= text.length; cut++) {
      const out = stream([text.slice(0, cut), text.slice(cut)]);
      assert.equal(out, 'before [redacted] after', `cut at ${cut}`);
    }
  });

  it('catches the key split at every pair of positions across three deltas', () => {
    for (let a = 0; a <= text.length; a++) {
      for (let b = a; b <= text.length; b++) {
        assert.equal(
          stream([text.slice(0, a), text.slice(a, b), text.slice(b)]),
          'before [redacted] after',
          `cuts at ${a}, ${b}`,
        );
      }
    }
  });

  it('catches the key one character per delta, and never hands on a piece of it before it is complete', () => {
    const redactor = new StreamRedactor([KEY]);
    let out = '';
    for (const char of text) {
      out += redactor.push(char);
      assert.ok(!out.includes(KEY.slice(0, 2)), `no start of the key went out: ${out}`);
    }
    assert.equal(out + redactor.flush(), 'before [redacted] after');
  });

  it('catches base64 (standard, URL-safe, inside a longer string at each alignment), hex in both cases and other letter cases, split', () => {
    const bytes = Buffer.from(KEY);
    const forms = [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      Buffer.from(`user:${KEY}`).toString('base64'),
      Buffer.from(`x${KEY}tail`).toString('base64'),
      Buffer.from(`xy${KEY}tail`).toString('base64url'),
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      KEY.toUpperCase(),
      KEY.toLowerCase(),
      JSON.stringify(KEY).replace(/\//g, '\\/'),
    ];
    for (const form of forms) {
      const echoed = `said ${form} here`;
      for (let cut = 0; cut <= echoed.length; cut++) {
        const out = stream([echoed.slice(0, cut), echoed.slice(cut)]);
        assert.ok(!spells(out), `${form} cut at ${cut}: ${out}`);
        assert.match(out, /^said .*\[redacted\].* here$/, `${form} cut at ${cut}: the rest is kept`);
      }
    }
  });

  it('loses no text: what a cut stream held back comes out on flush', () => {
    const redactor = new StreamRedactor([KEY]);
    const first = redactor.push(`partial ${KEY.slice(0, 6)}`);
    assert.equal(first, 'partial ', 'a possible start of the key is held');
    assert.equal(first + redactor.flush(), `partial ${KEY.slice(0, 6)}`, 'and handed on when the stream ends there');
    assert.equal(redactor.flush(), '', 'once');
  });

  it('hands on text without the key unchanged, piece for piece when no piece can begin a secret', () => {
    const plain = 'A reply with no secret in it: plenty of words, code `x = 1`, and ünïcödé.';
    for (let cut = 0; cut <= plain.length; cut++) assert.equal(stream([plain.slice(0, cut), plain.slice(cut)]), plain);
    const none = new StreamRedactor([]);
    assert.equal(none.push('uik/'), 'uik/', 'without secrets nothing is held');
    const short = new StreamRedactor(['ab']);
    assert.equal(short.push('a'), 'a', 'a secret too short to search for is ignored');
  });

  it('agrees with redacting the whole text, for a key that overlaps itself', () => {
    const key = 'abababab';
    const whole = 'x abababababab y abababa z';
    for (let cut = 0; cut <= whole.length; cut++) {
      assert.equal(
        stream([whole.slice(0, cut), whole.slice(cut)], [key]),
        redactSecrets(whole, [key]),
        `cut at ${cut}`,
      );
    }
  });
});
