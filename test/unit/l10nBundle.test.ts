// The message bundle (l10n/bundle.l10n.json) holds every vscode.l10n.t message of the extension:
// a translator works from it, and a message missing from it would stay English in every language.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRawManifest, REPO_ROOT } from './manifest';

const SCRIPT = join(REPO_ROOT, 'scripts', 'l10nBundle.mjs');

function bundleScript(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('message bundle (l10n/bundle.l10n.json)', function () {
  this.timeout(60_000);
  let scratch = '';
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'l10n-bundle-'));
    mkdirSync(join(scratch, 'src'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  /** Runs the check on one source file against a bundle that holds `bundle`. */
  function check(source: string, bundle: Record<string, string>): { status: number | null; output: string } {
    writeFileSync(join(scratch, 'src', 'feature.ts'), source);
    writeFileSync(join(scratch, 'bundle.l10n.json'), `${JSON.stringify(bundle, null, 2)}\n`);
    return bundleScript('--check', '--src', join(scratch, 'src'), '--bundle', join(scratch, 'bundle.l10n.json'));
  }

  it('is in sync with the vscode.l10n.t calls in src/extension (run node scripts/l10nBundle.mjs after adding a message)', () => {
    const result = bundleScript('--check');
    assert.equal(result.status, 0, result.output);
    const bundle = JSON.parse(readFileSync(join(REPO_ROOT, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<
      string,
      string
    >;
    assert.ok(Object.keys(bundle).length > 100, "the extension's messages are in it");
    assert.equal(bundle['Unified Inference: API key saved.'], 'Unified Inference: API key saved.');
  });

  it('is the bundle package.json points VS Code at', () => {
    assert.equal((readRawManifest() as { l10n?: string }).l10n, './l10n');
  });

  it('fails for a new message that is not in the bundle, and names it', () => {
    const source =
      "import * as vscode from 'vscode';\nexport const note = (n: string): string => vscode.l10n.t('Saved {0}.', n);\n";
    const missing = check(source, {});
    assert.equal(missing.status, 1);
    assert.match(missing.output, /missing: "Saved \{0\}\."/);
    assert.equal(check(source, { 'Saved {0}.': 'Saved {0}.' }).status, 0);
  });

  it('fails for a message no call uses any more', () => {
    const result = check("import * as vscode from 'vscode';\nvscode.l10n.t('Kept');\n", { Kept: 'Kept', Gone: 'Gone' });
    assert.equal(result.status, 1);
    assert.match(result.output, /unused: "Gone"/);
  });

  it('refuses a message it cannot read (a template with values, a variable) and a {n} with no value', () => {
    const templated = check(
      "import { l10n } from 'vscode';\nexport const f = (n: string): string => l10n.t(`Saved ${n}.`);\n",
      {},
    );
    assert.equal(templated.status, 1);
    assert.match(templated.output, /feature\.ts:2: the first argument of l10n\.t must be a literal string/);
    const unfilled = check("import * as vscode from 'vscode';\nvscode.l10n.t('Saved {0} of {1}.', 3);\n", {
      'Saved {0} of {1}.': 'Saved {0} of {1}.',
    });
    assert.equal(unfilled.status, 1);
    assert.match(unfilled.output, /uses \{1\} but l10n\.t gets 1 value/);
  });

  it('writes the bundle the way @vscode/l10n-dev does: message to itself, with a comment in the key', () => {
    writeFileSync(
      join(scratch, 'src', 'feature.ts'),
      "import * as vscode from 'vscode';\nvscode.l10n.t('B {0}', 1);\nvscode.l10n.t({ message: 'A', comment: ['the letter'] });\n",
    );
    const result = bundleScript('--src', join(scratch, 'src'), '--bundle', join(scratch, 'out', 'bundle.l10n.json'));
    assert.equal(result.status, 0, result.output);
    assert.deepEqual(JSON.parse(readFileSync(join(scratch, 'out', 'bundle.l10n.json'), 'utf8')), {
      'A/the letter': { message: 'A', comment: ['the letter'] },
      'B {0}': 'B {0}',
    });
  });
});
