import { resolve } from 'node:path';
import { BENCH_DEFAULT_TOKENS, startGateway } from './index';

/**
 * `npm run gateway`: the local gateway on its own. Port and research timings come from flags or
 * the environment: --port / GATEWAY_PORT, --queued-ms / GATEWAY_RESEARCH_QUEUED_MS,
 * --running-ms / GATEWAY_RESEARCH_RUNNING_MS, --credits / GATEWAY_CREDITS; the folder the completion
 * model continues: --completion-files <dir> / GATEWAY_COMPLETION_FILES.
 */
function textSetting(flag: string, env: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  const raw =
    at < 0 ? process.env[env] : args[at]?.includes('=') ? args[at]?.slice(args[at].indexOf('=') + 1) : args[at + 1];
  return raw === undefined || raw === '' ? undefined : raw;
}

function setting(flag: string, env: string): number | undefined {
  const args = process.argv.slice(2);
  const at = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  const raw = at < 0 ? process.env[env] : args[at]?.includes('=') ? args[at]?.split('=')[1] : args[at + 1];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`Invalid value for ${flag} / ${env}: '${raw}'`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const folder = textSetting('--completion-files', 'GATEWAY_COMPLETION_FILES');
  const completionFolder = folder === undefined ? undefined : resolve(folder);
  const gateway = await startGateway({
    port: setting('--port', 'GATEWAY_PORT') ?? 0,
    demoCredits: setting('--credits', 'GATEWAY_CREDITS'),
    research: {
      queuedMs: setting('--queued-ms', 'GATEWAY_RESEARCH_QUEUED_MS'),
      runningMs: setting('--running-ms', 'GATEWAY_RESEARCH_RUNNING_MS'),
    },
    completionFiles: completionFolder,
  });
  console.log('Unified Inference local gateway (a simulation: no real model is called)');
  console.log(`  base URL : ${gateway.url}`);
  console.log(`  API      : ${gateway.apiUrl}`);
  console.log(`  API key  : ${gateway.apiKey}`);
  console.log(`  try      : curl -H "Authorization: Bearer ${gateway.apiKey}" ${gateway.apiUrl}/models`);
  console.log(
    `  completions: model sim-openai/gpt-sim-complete continues the files of ${completionFolder ?? '(no folder: --completion-files <dir>)'}`,
  );
  console.log(
    `  long stream for benchmarks: model sim-bench/stream-bench, max_tokens = chunk count (default ${BENCH_DEFAULT_TOKENS})`,
  );
  console.log('Press Ctrl+C to stop.');
  const stop = (): void => {
    void gateway.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
