import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { findSecretLeaks } from '../harness/secretScan';

describe("the suite's secret scan of the files a run wrote", () => {
  const key = 'uik-test/0a1b2c3d4e5f/abcdef012345';
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'secret-scan-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the key in every re-encoded form and letter case, as UTF-8 or UTF-16LE, and nothing in clean files', () => {
    const files: Record<string, string | Buffer> = {
      'plain.log': `a ${key} b`,
      'upper.json': `{"k":"${key.toUpperCase()}"}`,
      'base64.txt': `token=${Buffer.from(key).toString('base64')}`,
      'basic.txt': `authorization: Basic ${Buffer.from(`user:${key}`).toString('base64')}`,
      'inside.txt': Buffer.from(`xy${key}tail`).toString('base64url'),
      'hex.txt': Buffer.from(key).toString('hex').toUpperCase(),
      'wide.bin': Buffer.from(`note ${key.toUpperCase()}`, 'utf16le'),
      'clean.txt': `uik-test/ and ${Buffer.from('uik-test/').toString('base64')} and [redacted]`,
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const leaks = findSecretLeaks(dir, key)
      .map((path) => basename(path))
      .sort();
    assert.deepEqual(
      leaks,
      Object.keys(files)
        .filter((name) => name !== 'clean.txt')
        .sort(),
    );
  });
});
