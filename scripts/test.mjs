// `npm test`: layer check + build, strict type-check, the checks (lint, format, unused exports),
// then the three test layers
//   unit         mocha in plain Node over test/unit/**
//   integration  mocha inside a real VS Code extension host (test/harness/runIntegration)
//   ui           playwright-core driving the real workbench in Chromium (test/ui/**)
// Each layer prints `<layer>: N passed, N failed`; the run ends with `total: N passed, N failed`
// and exits non-zero when anything failed. `npm test -- unit` (or integration, ui) runs one layer
// without the checks; `npm test -- checks` runs the build, the type-check and the checks alone.
// A red check counts as one failure; the layers still run, so one run reports everything.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const mochaBin = require.resolve('mocha/bin/mocha.js');
const all = ['unit', 'integration', 'ui'];
const layers = process.argv.slice(2).filter((arg) => all.includes(arg));
const checksOnly = process.argv.slice(2).includes('checks');
const selected = checksOnly ? layers : layers.length ? layers : all;
const withChecks = checksOnly || layers.length === 0;
const reportDir = mkdtempSync(join(tmpdir(), 'ui-test-'));
const started = Date.now();

function run(command, args, env = {}) {
  return spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
}

function step(name, command, args) {
  const t = Date.now();
  const status = run(command, args);
  console.log(`[test] ${name} ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return status === 0;
}

const mochaArgs = (glob, timeout) => [mochaBin, glob, '--reporter', './out/test/harness/countingReporter.js', '--timeout', String(timeout), '--exit'];
// Not require.resolve: knip's package exports neither its bin nor its package.json.
const bin = (pkg, path) => join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', pkg, path);
/** Each check is its own step; `npm run lint -- --fix` and `npm run format` fix what they find. */
const checks = [
  ['lint', [bin('eslint', 'bin/eslint.js'), '--cache', '--cache-strategy', 'content', '--cache-location', 'out/.eslintcache', '.']],
  ['format check', [bin('prettier', 'bin/prettier.cjs'), '--check', '--log-level', 'warn', '--cache', '--cache-location', 'out/.prettiercache', '.']],
  ['unused exports and files', [bin('knip', 'bin/knip.js'), '--no-progress']],
];
const commands = {
  unit: [process.execPath, mochaArgs('out/test/unit/**/*.test.js', 20_000)],
  integration: [process.execPath, ['out/test/harness/runIntegration.js']],
  ui: [process.execPath, mochaArgs('out/test/ui/**/*.test.js', 180_000)],
};

let passed = 0;
let failed = 0;
// The integration and UI layers need the VS Code server, Node 24 and Chromium: install them once
// here (first run on a machine), not inside a test's time-limited hook.
const needsHost = selected.some((layer) => layer !== 'unit');
const built = step('build (layer check + esbuild)', process.execPath, ['esbuild.js']) && step('typecheck', process.execPath, ['scripts/typecheck.mjs']);
if (built && withChecks) {
  for (const [name, args] of checks) if (!step(name, process.execPath, args)) failed++;
}
if (!built) {
  failed++;
} else if (needsHost && !step('test host (VS Code server, Node 24, Chromium)', 'bash', ['test/harness/installTestHost.sh'])) {
  failed++;
} else {
  for (const layer of selected) {
    const report = join(reportDir, `${layer}.json`);
    const t = Date.now();
    const [command, args] = commands[layer];
    const status = run(command, args, { UNIFIED_INFERENCE_TEST_REPORT: report, UNIFIED_INFERENCE_TEST_LABEL: layer });
    if (existsSync(report)) {
      const result = JSON.parse(readFileSync(report, 'utf8'));
      passed += result.passed;
      failed += result.failed;
      if (status !== 0 && result.failed === 0) failed++; // crashed after the tests, or the secret scan failed
    } else {
      console.log(`\n${layer}: 0 passed, 1 failed`);
      failed++;
    }
    console.log(`[test] ${layer} layer took ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
}
rmSync(reportDir, { recursive: true, force: true });
console.log(`[test] everything took ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`\ntotal: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
