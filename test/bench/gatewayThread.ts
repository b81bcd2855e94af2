// The local gateway on its own thread (gatewayWorker.ts), as a remote one would be: it writes
// while the client, the page or the index under measure works on the other core.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export interface RunningGateway {
  readonly url: string;
  readonly apiKey: string;
  stop(): Promise<void>;
}

export async function gatewayOnThread(): Promise<RunningGateway> {
  const worker = new Worker(join(__dirname, 'gatewayWorker.js'));
  const { url, apiKey } = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url,
    apiKey,
    stop: async () => {
      worker.postMessage('stop');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}
