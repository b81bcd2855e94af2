// esbuild.js builds undici, marked and diff into dist/vendor/ and gives the extension bundle getters
// that load them on first use (what VS Code compiles before activate() is then about half as
// large). These check the built bundle: loading it loads no vendor file, and none of their code is
// in it. Loading them on first use is what every integration test does (all HTTP goes through
// dist/vendor/undici.js, replies with code blocks through marked, Apply through diff).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from '../harness/testHost';

const BUNDLE = join(REPO_ROOT, 'dist', 'extension.js');
const VENDOR = join(REPO_ROOT, 'dist', 'vendor');

/** A stand-in for the `vscode` module, enough for the bundle's top level (it defines, it does not call much). */
function vscodeStandIn(bundleText: string): Record<string, unknown> {
  const anything: unknown = new Proxy(function standIn() {}, {
    get: (_target, key) => (key === '__esModule' ? false : anything),
    apply: () => anything,
    construct: () => ({}),
  });
  const api: Record<string, unknown> = {};
  // The bundle copies the API's own properties once (esbuild.js's one vscode namespace): offer every name it reads.
  for (const match of bundleText.matchAll(/\.([A-Za-z_$][\w$]*)/g)) api[match[1] as string] = anything;
  return api;
}

const vendorFilesLoaded = (): string[] =>
  Object.keys(require.cache)
    .filter((file) => file.startsWith(VENDOR))
    .sort();

describe("the extension bundle's lazily loaded libraries", () => {
  type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
  const moduleInternals = Module as unknown as { _load: Load };
  const originalLoad = moduleInternals._load;
  let bundleExports: Record<string, unknown>;

  before(() => {
    const standIn = vscodeStandIn(readFileSync(BUNDLE, 'utf8'));
    moduleInternals._load = function (request, parent, isMain) {
      return request === 'vscode' ? standIn : originalLoad.call(this, request, parent, isMain);
    };
    for (const file of [BUNDLE, ...vendorFilesLoaded()]) delete require.cache[file];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS bundle, loaded again (fresh) with `vscode` stood in
    bundleExports = require(BUNDLE) as Record<string, unknown>;
  });

  after(() => {
    moduleInternals._load = originalLoad;
    for (const file of [BUNDLE, ...vendorFilesLoaded()]) delete require.cache[file];
  });

  it('loads the bundle without loading any of them', () => {
    assert.equal(typeof bundleExports.activate, 'function', 'the bundle loaded');
    assert.deepEqual(vendorFilesLoaded(), []);
  });

  it('holds none of their code: each library is in dist/vendor/ only', () => {
    const bundle = readFileSync(BUNDLE, 'utf8');
    // Text only these libraries carry (undici's HTTP/1 parser, marked's lexer rules, diff's algorithm).
    for (const marker of ['llhttp', 'blockSkip', 'diffWithOptionsObj']) {
      assert.ok(!bundle.includes(marker), `dist/extension.js holds ${marker}`);
      assert.ok(
        ['undici.js', 'marked.js', 'diff.js'].some((file) => readFileSync(join(VENDOR, file), 'utf8').includes(marker)),
        `dist/vendor/ holds ${marker}`,
      );
    }
  });
});
