// Activation benchmark: the production build (as the .vsix ships it) installed in a real VS Code
// (the server of test/harness with headless Chromium, as the integration and UI tests use), one
// fresh VS Code per launch (an extension activates once per extension host). Each launch records
// two views of the same activation:
//   - the extension's own (performance.now() at the start of activate(), before its first await,
//     and when it resolves), read from the line it writes to its log;
//   - VS Code's (Developer: Startup Performance: Load Code, Call Activate, Finish Activate).
// The local gateway answers the extension (any connection work at startup stays on this machine).
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { ActivationTiming } from '../../src/shared/activationTiming';
import { startGateway } from '../gateway/index';
import { DEMO_FOLDER_FILES } from '../harness/demoFolder';
import {
  ensureTestHost,
  launchBrowser,
  removeRunDir,
  startVsCodeServer,
  waitForWorkbench,
  workbenchUrl,
} from '../harness/testHost';
import { parseActivationLine } from './activation/activationLine';
import { stageProductionBuild } from './activation/stageProduction';
import { ACTIVATION_TARGETS, summarize, verdict, verdictTable } from './activation/targets';
import { readVsCodeActivationTimes, type VsCodeActivationTimes } from './activation/vscodeTimes';

export interface ActivationBenchOptions {
  readonly outDir: string;
  /** Fresh VS Code launches (default 5). */
  readonly launches: number;
}

interface Launch {
  readonly self: ActivationTiming;
  readonly vscode: VsCodeActivationTimes;
  readonly seconds: number;
}

const LOG_WAIT_MS = 20_000;

function logFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return logFiles(full);
    return entry.name.endsWith('.log') ? [full] : [];
  });
}

/** The extension's self-timing from its log file in the server's logs (waits, bounded, for the flush). */
async function readSelfTiming(serverDataDir: string): Promise<ActivationTiming> {
  const deadline = Date.now() + LOG_WAIT_MS;
  for (;;) {
    for (const file of logFiles(serverDataDir)) {
      if (!file.includes('Unified Inference') || statSync(file).size === 0) continue;
      const timing = parseActivationLine(readFileSync(file, 'utf8'));
      if (timing) return timing;
    }
    if (Date.now() > deadline)
      throw new Error(
        `No activation line in the extension's log under ${serverDataDir} within ${LOG_WAIT_MS / 1000} s; log files:\n  ${logFiles(serverDataDir).join('\n  ')}`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function launchOnce(
  extensionFolder: string,
  extensionId: string,
  gateway: { url: string; apiKey: string },
): Promise<Launch> {
  const started = Date.now();
  const host = ensureTestHost();
  const server = await startVsCodeServer(host, {
    installedExtensions: [extensionFolder],
    workspaceFiles: DEMO_FOLDER_FILES,
    userSettings: { 'unifiedInference.baseUrl': gateway.url },
    env: { UNIFIED_INFERENCE_API_KEY: gateway.apiKey },
  });
  const profile = join(server.runDir, 'browser');
  mkdirSync(profile);
  const context = await launchBrowser(host, profile);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    // Tall, so the perfview editor renders its extension table (Monaco draws only the lines in view).
    await page.setViewportSize({ width: 1400, height: 2400 });
    await page.goto(workbenchUrl(server));
    await waitForWorkbench(page);
    const vscode = await readVsCodeActivationTimes(page, extensionId);
    const self = await readSelfTiming(server.runDir);
    return { self, vscode, seconds: (Date.now() - started) / 1000 };
  } finally {
    await context.close().catch(() => undefined);
    await server.stop();
    removeRunDir(server);
  }
}

const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');

/** One row per phase name, in the order of their medians. */
function phaseRows(launches: readonly Launch[]): string[] {
  const names = [...new Set(launches.flatMap((l) => l.self.phases.map((p) => p.name)))];
  return names
    .map((name) => ({
      name,
      summary: summarize(launches.map((l) => l.self.phases.find((p) => p.name === name)?.ms ?? NaN)),
    }))
    .sort((a, b) => b.summary.median - a.summary.median)
    .map(({ name, summary }) => `| ${name} | ${ms(summary.median)} | ${ms(summary.max)} |`);
}

export async function runActivationBench(options: ActivationBenchOptions): Promise<string> {
  const started = Date.now();
  const loadStart = loadavg();
  ensureTestHost();
  const stage = stageProductionBuild();
  const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')) as { publisher: string; name: string };
  const extensionId = `${manifest.publisher}.${manifest.name}`;
  const gateway = await startGateway();
  const launches: Launch[] = [];
  try {
    for (let i = 0; i < options.launches; i++) launches.push(await launchOnce(stage, extensionId, gateway));
  } finally {
    await gateway.stop();
    rmSync(stage, { recursive: true, force: true });
  }

  const blocking = summarize(launches.map((l) => l.vscode.loadCodeMs + l.vscode.callActivateMs));
  const loadCode = summarize(launches.map((l) => l.vscode.loadCodeMs));
  const call = summarize(launches.map((l) => l.vscode.callActivateMs));
  const finish = summarize(launches.map((l) => l.vscode.finishActivateMs));
  const selfSync = summarize(launches.map((l) => l.self.untilFirstAwaitMs));
  const selfTotal = summarize(launches.map((l) => l.self.totalMs));
  const selfBusy = summarize(launches.map((l) => l.self.totalMs - l.self.awaitedMs));
  const rows = [
    ['VS Code: Load Code (read + evaluate dist/extension.js)', loadCode],
    ['VS Code: Call Activate (activate() until it returns)', call],
    ['VS Code: Load Code + Call Activate (Show Running Extensions)', blocking],
    ['VS Code: Finish Activate (awaited work)', finish],
    ['self: activate() until its first await', selfSync],
    ['self: activate() until resolved', selfTotal],
    ['self: of that, our own work (not awaiting)', selfBusy],
  ] as const;
  const verdicts = [
    verdict(ACTIVATION_TARGETS.blocking, blocking.median),
    verdict(ACTIVATION_TARGETS.busy, selfBusy.median),
    verdict(ACTIVATION_TARGETS.total, selfTotal.median),
  ];
  const perLaunch = launches.map(
    (l, i) =>
      `| ${i + 1} | ${l.vscode.loadCodeMs} | ${l.vscode.callActivateMs} | ${l.vscode.finishActivateMs} | ${ms(l.self.untilFirstAwaitMs)} | ${ms(l.self.totalMs)} | ${ms(l.self.awaitedMs)} | ${l.vscode.event} | ${l.seconds.toFixed(1)} |`,
  );
  const table = [
    '# Activation',
    '',
    `Production build (minified, as in the .vsix) installed in VS Code (the server of code-server, headless Chromium), ${launches.length} fresh launches, one activation each.`,
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${loadStart.map((n) => n.toFixed(2)).join(' ')} at start. ${new Date().toISOString()}.`,
    '',
    '| measure | median ms | max ms |',
    '| --- | --- | --- |',
    ...rows.map(([name, s]) => `| ${name} | ${ms(s.median)} | ${ms(s.max)} |`),
    '',
    '| launch | load code | call activate | finish activate | self sync | self total | self awaiting | event | launch s |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...perLaunch,
    '',
    '### Own work by phase (median over the launches, largest first)',
    '',
    "The phases activate() names (the extension's log has them per launch): where the next lazy load would pay.",
    '',
    '| phase | median ms | max ms |',
    '| --- | --- | --- |',
    ...phaseRows(launches),
    '',
    verdictTable(verdicts),
    '',
    `Took ${((Date.now() - started) / 1000).toFixed(0)} s. The bench reports; it does not fail on a budget. Every figure here grows with the machine's load (${cpus().length} cores, load average ${loadavg()[0]?.toFixed(2)} at the end): compare runs made at a similar load.`,
  ].join('\n');
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'activation.md'), `${table}\n`);
  return table;
}
