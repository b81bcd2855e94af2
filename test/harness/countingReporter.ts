// A mocha reporter: the usual spec output, then one closing line `<layer>: N passed, N failed`,
// and (when UNIFIED_INFERENCE_TEST_REPORT names a file) a JSON report that the test runner sums.
// Inside the extension host stdout goes nowhere visible, so the report carries each test's line.
import { writeFileSync } from 'node:fs';
import Mocha = require('mocha');
import type { TestReport } from './testReport';

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    const label = process.env.UNIFIED_INFERENCE_TEST_LABEL ?? 'tests';
    const report: TestReport = { label, passed: 0, failed: 0, pending: 0, lines: [] };
    runner.on('pass', (test) => {
      report.passed++;
      // The duration of a slow test, as the spec output gives it: the integration layer's only timing per test.
      const slow = test.duration !== undefined && test.duration > test.slow() ? ` (${test.duration} ms)` : '';
      report.lines.push(`  ✔ ${test.fullTitle()}${slow}`);
    });
    runner.on('fail', (test, error: Error) => {
      report.failed++;
      report.lines.push(`  ✘ ${test.fullTitle()}\n      ${failureLines(error).join('\n      ')}`);
    });
    runner.on('pending', (test) => {
      report.pending++;
      report.lines.push(`  - ${test.fullTitle()} (skipped)`);
    });
    runner.once('end', () => {
      const file = process.env.UNIFIED_INFERENCE_TEST_REPORT;
      if (file) writeFileSync(file, JSON.stringify(report));
      const skipped = report.pending ? `, ${report.pending} skipped` : '';
      console.log(`\n${label}: ${report.passed} passed, ${report.failed} failed${skipped}`);
    });
  }
}

/**
 * The start of a failure's message and the first frames of its stack: an assertion's diff can be
 * long, and the frame that names the failing line must survive the cut.
 */
function failureLines(error: Error | undefined): string[] {
  const lines = String(error?.stack ?? error).split('\n');
  const frames = lines.filter((line) => /^\s+at /.test(line));
  const message = lines.filter((line) => !/^\s+at /.test(line));
  return [...message.slice(0, 12), ...(message.length > 12 ? ['…'] : []), ...frames.slice(0, 4)];
}

export = CountingReporter;
