// `npm start`: opens VS Code (the real workbench, served on 127.0.0.1) with this extension loaded
// from the repository, in a demo folder, and prints the address to open in a browser.
// UNIFIED_INFERENCE_BASE_URL / UNIFIED_INFERENCE_API_KEY point it at a gateway of your own;
// UNIFIED_INFERENCE_PORT picks the port (default: a free one).
import { REPO_ROOT, ensureTestHost, removeRunDir, startVsCodeServer, workbenchUrl } from './testHost';

async function main(): Promise<void> {
  const host = ensureTestHost();
  const baseUrl = process.env.UNIFIED_INFERENCE_BASE_URL ?? '';
  const server = await startVsCodeServer(host, {
    port: process.env.UNIFIED_INFERENCE_PORT ? Number(process.env.UNIFIED_INFERENCE_PORT) : undefined,
    workspaceFiles: {
      'README.md': '# Unified Inference demo folder\n\nOpen the Unified Inference view in the activity bar.\n',
    },
    workspaceSettings: baseUrl ? { 'unifiedInference.baseUrl': baseUrl } : {},
  });
  const url = workbenchUrl(server, [['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${REPO_ROOT}`]]);
  console.log('\nVS Code with Unified Inference is running. Open this address in a browser:\n');
  console.log(`  ${url}\n`);
  console.log(baseUrl ? `Gateway: ${baseUrl}` : 'No gateway configured: set UNIFIED_INFERENCE_BASE_URL, or the setting unifiedInference.baseUrl.');
  console.log(process.env.UNIFIED_INFERENCE_API_KEY ? 'API key: from UNIFIED_INFERENCE_API_KEY' : 'API key: run "Unified Inference: Set API Key" in the workbench.');
  console.log('Press Ctrl+C to stop.');
  const stop = async (): Promise<void> => {
    await server.stop();
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
