// `npm test`: layer check + build, strict type-check, then the three test layers
//   unit         mocha in plain Node over test/unit/**
//   integration  mocha inside a real VS Code extension host (test/harness/runIntegration)
//   ui           playwright-core driving the real workbench in Chromium (test/ui/**)
// Each layer prints `<layer>: N passed, N failed`; the run ends with `total: N passed, N failed`
// and exits non-zero when anything failed. `npm test -- unit` (or integration, ui) runs one layer.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const mochaBin = require.resolve('mocha/bin/mocha.js');
const all = ['unit', 'integration', 'ui'];
const layers = process.argv.slice(2).filter((arg) => all.includes(arg));
const selected = layers.length ? layers : all;
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
if (!step('build (layer check + esbuild)', process.execPath, ['esbuild.js']) || !step('typecheck', process.execPath, ['scripts/typecheck.mjs'])) {
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
