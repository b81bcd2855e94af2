// Stands in for a desktop VS Code executable for @vscode/test-electron's runTests: it takes the
// `--extensionDevelopmentPath=` (one or more) and `--extensionTestsPath=` flags, runs the suite in a real
// VS Code server + headless Chromium, and exits with the suite's code (0 = all passed).
// The suite's own report reaches us through the file named by UNIFIED_INFERENCE_TEST_REPORT.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ensureTestHost,
  launchBrowser,
  removeRunDir,
  startVsCodeServer,
  waitForWorkbench,
  workbenchUrl,
} from './testHost';
import { findSecretLeaks } from './secretScan';

const SUITE_TIMEOUT_MS = 10 * 60_000;

function flags(name: string): string[] {
  const prefix = `--${name}=`;
  return process.argv.filter((arg) => arg.startsWith(prefix)).map((arg) => arg.slice(prefix.length));
}

function flag(name: string): string | undefined {
  return flags(name)[0];
}

async function main(): Promise<number> {
  // The first development path is the extension under development; any further ones are loaded as
  // installed extensions (the web workbench keeps only one development path from its payload).
  const [developmentPath, ...otherExtensions] = flags('extensionDevelopmentPath');
  const testsPath = flag('extensionTestsPath');
  if (!developmentPath || !testsPath) {
    console.error(
      'usage: vscodeLauncher --extensionDevelopmentPath=DIR [--extensionDevelopmentPath=DIR2 ...] --extensionTestsPath=FILE',
    );
    return 2;
  }
  const host = ensureTestHost();
  const server = await startVsCodeServer(host, {
    workspaceFiles: JSON.parse(process.env.UNIFIED_INFERENCE_TEST_WORKSPACE ?? '{}') as Record<string, string>,
    userSettings: JSON.parse(process.env.UNIFIED_INFERENCE_TEST_SETTINGS ?? '{}') as Record<string, unknown>,
    installedExtensions: otherExtensions,
  });
  const profile = join(server.runDir, 'browser');
  mkdirSync(profile);
  const context = await launchBrowser(host, profile);
  let code: number;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const exitCode = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (value: number) => resolve(Number(value)));
    });
    await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => {
      if (process.env.UNIFIED_INFERENCE_TEST_VERBOSE) console.log('[workbench]', ...args);
    });
    const remote = (path: string): string => `vscode-remote://127.0.0.1:${server.port}${path}`;
    await page.goto(
      workbenchUrl(server, [
        ['extensionDevelopmentPath', remote(developmentPath)],
        ['extensionTestsPath', remote(testsPath)],
      ]),
    );
    await waitForWorkbench(page);
    const timeout = new Promise<number>((resolve) =>
      setTimeout(() => {
        console.error(`The integration suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s.`);
        resolve(1);
      }, SUITE_TIMEOUT_MS).unref(),
    );
    code = await Promise.race([exitCode, timeout]);
  } finally {
    await context.close().catch(() => undefined);
    await server.stop();
  }
  // After the run: no file the run wrote (logs, settings, state, the browser profile) may hold
  // the key the suite used.
  const secret = process.env.UNIFIED_INFERENCE_TEST_SECRET;
  if (secret) {
    const leaks = findSecretLeaks(server.runDir, secret);
    const report = process.env.UNIFIED_INFERENCE_TEST_REPORT;
    if (leaks.length) {
      console.error(
        `The API key used by the suite was found in ${leaks.length} file(s) after the run:\n  ${leaks.join('\n  ')}`,
      );
      code = 1;
    }
    if (report && existsSync(report)) {
      const summary = JSON.parse(readFileSync(report, 'utf8')) as {
        passed: number;
        failed: number;
        secretScan?: unknown;
      };
      summary.secretScan = { filesWithKey: leaks.length };
      writeFileSync(report, JSON.stringify(summary));
    }
  }
  if (code === 0 || !process.env.UNIFIED_INFERENCE_KEEP_RUN_DIR) removeRunDir(server);
  else console.error(`Run folder kept for inspection: ${server.runDir}`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
