// The local gateway on its own thread (gatewayWorker.ts), as a remote one would be: it writes
// while the client, the page or the index under measure works on the other core.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { GatewayOptions } from '../gateway/index';
import type { WorkerRecord } from './gatewayWorker';

export interface RunningGateway {
  readonly url: string;
  readonly apiKey: string;
  stop(): Promise<void>;
}

export interface ThreadGateway extends RunningGateway {
  /** What the gateway saw of each request so far, in arrival order. */
  records(): Promise<readonly WorkerRecord[]>;
}

export async function gatewayOnThread(options: GatewayOptions = {}): Promise<ThreadGateway> {
  const worker = new Worker(join(__dirname, 'gatewayWorker.js'), { workerData: options });
  const { url, apiKey } = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url,
    apiKey,
    records: async () => {
      const answer = new Promise<{ records: WorkerRecord[] }>((resolve) => worker.once('message', resolve));
      worker.postMessage('records');
      return (await answer).records;
    },
    stop: async () => {
      worker.postMessage('stop');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}
