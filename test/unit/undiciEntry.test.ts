// The extension bundle gets scripts/undiciEntry.js for `undici` (esbuild.js): it must offer every
// member src/ imports from undici, and each must be the very object undici itself exports, so the
// bundle behaves as the unit tests (which use undici directly) say.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as undici from 'undici';
import { REPO_ROOT } from '../harness/testHost';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const entry = require(join(REPO_ROOT, 'scripts', 'undiciEntry.js')) as Record<string, unknown>;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The value members src/ imports from 'undici' (type-only imports need nothing at run time). */
function importedMembers(): string[] {
  const names = new Set<string>();
  for (const file of sources(join(REPO_ROOT, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'undici'/g)) {
      if (match[1]) continue;
      for (const part of (match[2] ?? '').split(',')) {
        const name = part.trim();
        if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0] as string);
      }
    }
  }
  return [...names].sort();
}

describe("the bundle's undici entry", () => {
  it('offers every member src/ imports, as the same object undici exports', () => {
    const members = importedMembers();
    assert.ok(members.includes('Agent') && members.includes('request'), `src/ imports: ${members.join(', ')}`);
    for (const name of members) {
      if (name === 'request' || name === 'interceptors') continue; // its own function and object (checked below)
      assert.equal(entry[name], (undici as unknown as Record<string, unknown>)[name], `undici.${name}`);
    }
    const interceptors = entry.interceptors as Record<string, unknown>;
    assert.equal(interceptors.dns, undici.interceptors.dns);
    assert.equal(interceptors.redirect, undici.interceptors.redirect);
  });

  it("gives dispatchers undici's request methods, and request() reaches a server", async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => res.end(`${req.method} ${req.url}`));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    const Agent = entry.Agent as typeof undici.Agent;
    const agent = new Agent();
    try {
      assert.equal(typeof agent.request, 'function');
      const request = entry.request as typeof undici.request;
      const response = await request(`http://127.0.0.1:${port}/path?q=1`, { dispatcher: agent });
      assert.equal(await response.body.text(), 'GET /path?q=1');
      await assert.rejects(async () => request(`http://127.0.0.1:${port}/`, { agent: {} } as never), /opts\.agent/);
    } finally {
      await agent.close();
      server.close();
    }
  });
});
