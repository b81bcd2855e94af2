// Runs the integration suite inside a real VS Code extension host through @vscode/test-electron's
// runTests, with our launcher (a VS Code server + headless Chromium) as the executable.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import type { TestReport } from './testReport';
import { REPO_ROOT } from './testHost';
import { INTEGRATION_WORKSPACE } from '../integration/workspace';

async function main(): Promise<number> {
  const report = process.env.UNIFIED_INFERENCE_TEST_REPORT ?? join('/tmp', `ui-integration-${process.pid}.json`);
  // A fresh key per run: the suite stores it, and afterwards every file the run wrote is searched for
  // it. Slashes in it, because JSON may escape them (`\/`): the scan looks for that form too.
  const secret = `uik-test/${randomBytes(6).toString('hex')}/${randomBytes(6).toString('hex')}`;
  let failedToRun = false;
  try {
    await runTests({
      vscodeExecutablePath: join(REPO_ROOT, 'test', 'harness', 'launch-vscode'),
      // The extension, and a second one that uses its language models as any other extension would.
      extensionDevelopmentPath: [REPO_ROOT, join(REPO_ROOT, 'test', 'consumerExtension')],
      extensionTestsPath: join(REPO_ROOT, 'out', 'test', 'integration', 'index.js'),
      reuseMachineInstall: true,
      extensionTestsEnv: {
        UNIFIED_INFERENCE_TEST_REPORT: report,
        UNIFIED_INFERENCE_TEST_LABEL: 'integration',
        UNIFIED_INFERENCE_TEST_SECRET: secret,
        UNIFIED_INFERENCE_TEST_WORKSPACE: JSON.stringify(INTEGRATION_WORKSPACE),
      },
    });
  } catch (error) {
    failedToRun = true;
    console.error(String(error));
  }
  if (!existsSync(report)) {
    console.error('The integration suite wrote no report (it did not start, or crashed).');
    console.log('\nintegration: 0 passed, 1 failed');
    return 1;
  }
  const result = JSON.parse(readFileSync(report, 'utf8')) as TestReport;
  console.log(result.lines.join('\n'));
  console.log(`\nintegration: ${result.passed} passed, ${result.failed} failed`);
  return failedToRun || result.failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
