// `npm test`: layer check + build, then side by side the checks (strict type-check, lint, format,
// unused exports) and the three test layers
//   unit         mocha in plain Node over test/unit/**
//   integration  mocha inside a real VS Code extension host (test/harness/runIntegration)
//   ui           playwright-core driving the real workbench in Chromium (test/ui/**)
// Each layer prints `<layer>: N passed, N failed` (the UI layer, run in two processes, a line for
// each and then their sum); the run ends with `total: N passed, N failed` and exits non-zero when
// anything failed. `npm test -- unit` (or integration, ui) runs one layer after the type-check,
// without the other checks; `npm test -- checks` runs the build and the checks alone.
// A red check counts as one failure; the layers still run, so one run reports everything.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority, tmpdir } from 'node:os';
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

const mochaArgs = (files, timeout) => [
  mochaBin,
  ...[files].flat(),
  '--reporter',
  './out/test/harness/countingReporter.js',
  '--timeout',
  String(timeout),
  '--exit',
];
// Not require.resolve: knip's package exports neither its bin nor its package.json.
const bin = (pkg, path) => join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', pkg, path);
/** Each check is its own step; `npm run lint -- --fix` and `npm run format` fix what they find. */
const checks = [
  ['typecheck', ['scripts/typecheck.mjs']],
  [
    'lint',
    [
      bin('eslint', 'bin/eslint.js'),
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      'out/.eslintcache',
      '.',
    ],
  ],
  [
    'format check',
    [
      bin('prettier', 'bin/prettier.cjs'),
      '--check',
      '--log-level',
      'warn',
      '--cache',
      '--cache-location',
      'out/.prettiercache',
      '.',
    ],
  ],
  ['unused exports and files', [bin('knip', 'bin/knip.js'), '--no-progress']],
];
/**
 * UI suites that start a VS Code of their own, or none: they share nothing with the other suites
 * (which share one workbench, test/ui/chatSuite.ts), so they run in a second mocha process beside
 * the first, where they wait on their own launches while the first works. A suite missing from the
 * list still runs, in the first process.
 */
const UI_OWN_WORKBENCH = [
  'approvals',
  'chatCrash',
  'checkpoints',
  'codebase',
  'commitMessage',
  'failures',
  'foundation',
  'participant',
  'spend',
  'walkthrough',
  'xssCorpus',
].map((name) => `out/test/ui/${name}.test.js`);
/** Each layer's processes: a name (its report's and its output's) and the command's arguments. */
const commands = {
  unit: [['unit', mochaArgs('out/test/unit/**/*.test.js', 20_000)]],
  integration: [['integration', ['out/test/harness/runIntegration.js']]],
  ui: [
    [
      'ui (shared workbench)',
      [...mochaArgs('out/test/ui/**/*.test.js', 180_000), ...UI_OWN_WORKBENCH.flatMap((file) => ['--ignore', file])],
    ],
    ['ui (own workbenches)', mochaArgs(UI_OWN_WORKBENCH, 180_000)],
  ],
};

let passed = 0;
let failed = 0;
/**
 * Every failed test's title and first lines, repeated at the very end: a CI log is often read from
 * its tail, where the layers' long outputs would otherwise have pushed the failure out of view.
 */
const failureLines = [];

/**
 * Runs one job (a layer, or the checks one after another) with its output in a file, and prints
 * that output whole when the job ends, so jobs running side by side never interleave their lines.
 */
function job(name, parts) {
  const log = join(reportDir, `${name}.log`);
  const t = Date.now();
  return (async () => {
    const statuses = [];
    for (const { command, args, env = {}, label, background = false } of parts) {
      const out = openSync(log, 'a');
      const s0 = Date.now();
      const child = spawn(command, args, { stdio: ['ignore', out, out], env: { ...process.env, ...env } });
      // The checks take what the layers leave: on two cores they would otherwise stretch the
      // layers (the UI layer, the longest, waits on Chromium and VS Code a third of its time).
      if (background && child.pid !== undefined) setPriority(child.pid, 10);
      const status = await new Promise((done) => child.on('close', (code) => done(code ?? 1)));
      closeSync(out);
      if (label)
        appendFileSync(
          log,
          `[test] ${label} ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - s0) / 1000).toFixed(1)} s\n`,
        );
      statuses.push(status);
    }
    console.log(`\n----- ${name} -----`);
    process.stdout.write(existsSync(log) ? readFileSync(log, 'utf8') : '');
    console.log(`[test] ${name} took ${((Date.now() - t) / 1000).toFixed(1)} s`);
    return statuses;
  })();
}

/** A process's counts from its report; one that crashed or wrote no report counts as a failure. */
function countPart(name, status) {
  const report = join(reportDir, `${name}.json`);
  if (!existsSync(report)) {
    console.log(`\n${name}: 0 passed, 1 failed`);
    return { passed: 0, failed: 1 };
  }
  const result = JSON.parse(readFileSync(report, 'utf8'));
  failureLines.push(...(result.lines ?? []).filter((line) => line.startsWith('  ✘')));
  // Crashed after the tests, or the secret scan failed: one failure more.
  return { passed: result.passed, failed: result.failed + (status !== 0 && result.failed === 0 ? 1 : 0) };
}

// The integration and UI layers need the VS Code server, Node 24 and Chromium: install them once
// here (first run on a machine), not inside a test's time-limited hook.
const needsHost = selected.some((layer) => layer !== 'unit');
// With the checks, the type-check is one of them (the layers run esbuild's output, which does not
// wait for types); a single layer is type-checked first, as a developer running it expects.
const built =
  step('build (layer check + esbuild)', process.execPath, ['esbuild.js']) &&
  (withChecks || step('typecheck', process.execPath, ['scripts/typecheck.mjs']));
if (!built) {
  failed++;
} else if (
  needsHost &&
  !step('test host (VS Code server, Node 24, Chromium)', 'bash', ['test/harness/installTestHost.sh'])
) {
  failed++;
} else {
  // The checks and the layers run side by side (UNIFIED_INFERENCE_TEST_SERIAL=1: one after
  // another). Every test waits on state, never on time, so a loaded machine slows the run but does
  // not change its outcome; much of the integration and UI layers' time is spent waiting on VS
  // Code and Chromium, which the other jobs use.
  const jobs = [];
  if (withChecks)
    jobs.push([
      'checks',
      () =>
        job(
          'checks',
          checks.map(([label, args]) => ({ command: process.execPath, args, label, background: true })),
        ),
    ]);
  for (const layer of selected)
    for (const [name, args] of commands[layer]) {
      const env = {
        UNIFIED_INFERENCE_TEST_REPORT: join(reportDir, `${name}.json`),
        UNIFIED_INFERENCE_TEST_LABEL: name,
      };
      const title = name === layer ? `${layer} layer` : name;
      jobs.push([name, () => job(title, [{ command: process.execPath, args, env }])]);
    }
  const serial = process.env.UNIFIED_INFERENCE_TEST_SERIAL === '1';
  const results = [];
  if (serial) for (const [name, start] of jobs) results.push([name, await start()]);
  else results.push(...(await Promise.all(jobs.map(async ([name, start]) => [name, await start()]))));
  const statusOf = new Map(results);
  failed += (statusOf.get('checks') ?? []).filter((status) => status !== 0).length;
  for (const layer of selected) {
    const counts = commands[layer].map(([name]) => countPart(name, statusOf.get(name)?.[0] ?? 1));
    const layerPassed = counts.reduce((sum, count) => sum + count.passed, 0);
    const layerFailed = counts.reduce((sum, count) => sum + count.failed, 0);
    // A layer run in several processes: its own line, the sum of theirs.
    if (counts.length > 1) console.log(`\n${layer}: ${layerPassed} passed, ${layerFailed} failed`);
    passed += layerPassed;
    failed += layerFailed;
  }
}
rmSync(reportDir, { recursive: true, force: true });
if (failureLines.length) console.log(`\n[test] what failed:\n${failureLines.join('\n')}`);
console.log(`[test] everything took ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`\ntotal: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
