// F5 in a desktop VS Code ("Run Extension" in .vscode/launch.json) runs this as its pre-launch
// task: the local gateway on a fixed port, a demo folder, and the user settings of a profile kept
// for development (under .vscode-test/dev, which git ignores) pointing the extension at the
// gateway. The launch passes the demo key in the environment, as `npm start` does, so no key is
// written to a file. It prints the line the task waits for, then runs until the debug session's
// post-debug task stops it. UNIFIED_INFERENCE_DEV_PORT picks another port (0: a free one), and
// UNIFIED_INFERENCE_DEV_ROOT another folder (the unit test uses both).
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway } from '../gateway/index';
import { writeDemoFolder } from './demoFolder';
import { REPO_ROOT } from './testHost';

export const DEV_GATEWAY_PORT = 41741;
const DEV_ROOT = process.env.UNIFIED_INFERENCE_DEV_ROOT || join(REPO_ROOT, '.vscode-test', 'dev');
/** The task's problem matcher waits for this line (see .vscode/tasks.json). */
export const READY_LINE = 'Local gateway ready for Run Extension';

/** The development profile's settings, with the gateway's address set and the rest kept. */
function pointSettingsAt(baseUrl: string): string {
  const file = join(DEV_ROOT, 'user-data', 'User', 'settings.json');
  mkdirSync(join(DEV_ROOT, 'user-data', 'User'), { recursive: true });
  let settings: Record<string, unknown> = {};
  try {
    if (existsSync(file)) settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // A file edited into something that is not JSON is replaced: it belongs to this profile only.
  }
  writeFileSync(file, `${JSON.stringify({ ...settings, 'unifiedInference.baseUrl': baseUrl }, null, 2)}\n`);
  return file;
}

async function main(): Promise<void> {
  const port = Number(process.env.UNIFIED_INFERENCE_DEV_PORT ?? DEV_GATEWAY_PORT);
  // The completion model continues the demo folder's files (what the user opens and types in).
  const gateway = await startGateway({
    port,
    research: { queuedMs: 5_000, runningMs: 45_000 },
    completionFiles: join(DEV_ROOT, 'workspace'),
  }).catch((error: unknown) => {
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    console.error(
      inUse
        ? `Port ${port} is taken (a gateway from an earlier run still going?). Stop that task (Terminal > Terminate Task) or set UNIFIED_INFERENCE_DEV_PORT.`
        : String(error),
    );
    process.exit(1);
  });
  writeDemoFolder(join(DEV_ROOT, 'workspace'));
  const settings = pointSettingsAt(gateway.url);
  console.log(`Gateway: the local gateway (a simulation) at ${gateway.url}`);
  console.log(`Settings: ${settings}`);
  console.log(READY_LINE);
  const stop = (): void => void gateway.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

// Run as the task's program only (the unit test imports the ready line).
if (require.main === module) void main();
