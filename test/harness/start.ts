// `npm start`: opens VS Code (the real workbench, served on 127.0.0.1) with this extension loaded
// from the repository, in a demo folder, and prints the address to open in a browser.
// Without UNIFIED_INFERENCE_BASE_URL it also starts the local gateway (a simulation) and points
// the extension at it, so a newcomer sees everything work with no account. With
// UNIFIED_INFERENCE_BASE_URL (and UNIFIED_INFERENCE_API_KEY) it uses that gateway instead.
// UNIFIED_INFERENCE_PORT picks VS Code's port (default: a free one).
import { startGateway, type LocalGateway } from '../gateway/index';
import { DEMO_FOLDER_FILES } from './demoFolder';
import { gatherStartFacts } from './startFacts';
import { startPreflight } from './startPreflight';
import { REPO_ROOT, ensureTestHost, removeRunDir, startVsCodeServer, workbenchUrl } from './testHost';

async function main(): Promise<void> {
  // Before anything is installed: a platform the installer cannot serve gets one clear message.
  const preflight = startPreflight(gatherStartFacts());
  if (!preflight.ok) {
    console.error(`\n${preflight.message}\n`);
    process.exit(1);
  }
  // The browser is the user's own: Chromium is installed for the tests only.
  const host = ensureTestHost({ browser: false });
  let gateway: LocalGateway | undefined;
  let baseUrl = process.env.UNIFIED_INFERENCE_BASE_URL ?? '';
  let apiKey = process.env.UNIFIED_INFERENCE_API_KEY;
  if (!baseUrl) {
    // Research jobs finish in about a minute here, so the whole cycle can be watched.
    gateway = await startGateway({ research: { queuedMs: 5_000, runningMs: 45_000 } });
    baseUrl = gateway.url;
    apiKey = gateway.apiKey;
  }
  const server = await startVsCodeServer(host, {
    port: process.env.UNIFIED_INFERENCE_PORT ? Number(process.env.UNIFIED_INFERENCE_PORT) : undefined,
    workspaceFiles: DEMO_FOLDER_FILES,
    userSettings: { 'unifiedInference.baseUrl': baseUrl },
    // The extension's environment-variable fallback carries the key: it never lands in a file.
    env: apiKey ? { UNIFIED_INFERENCE_API_KEY: apiKey } : {},
  });
  // The completion model continues the demo folder's files (what the user opens and types in).
  gateway?.setCompletionFiles(server.workspace);
  const url = workbenchUrl(server, [
    ['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${REPO_ROOT}`],
  ]);
  console.log('\nVS Code with Unified Inference is running. Open this address in a browser:\n');
  console.log(`  ${url}\n`);
  console.log(
    gateway
      ? `Gateway: the local gateway (a simulation) at ${gateway.url}, demo key ${gateway.apiKey}`
      : `Gateway: ${baseUrl}`,
  );
  if (!gateway)
    console.log(
      apiKey
        ? 'API key: from UNIFIED_INFERENCE_API_KEY'
        : 'API key: run "Unified Inference: Set API Key" in the workbench.',
    );
  console.log('Press Ctrl+C to stop.');
  const stop = async (): Promise<void> => {
    await server.stop();
    await gateway?.stop();
    removeRunDir(server);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
