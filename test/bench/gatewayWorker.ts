// Runs the local gateway on its own thread, so that in the benchmark it produces bytes on one core
// while the client consumes them on the other, as a remote gateway would. `workerData` may carry
// gateway options; the message 'records' answers what the gateway saw of each request so far (the
// completions bench times how soon a closed connection reached the gateway).
import { parentPort, workerData } from 'node:worker_threads';
import { startGateway, type GatewayOptions } from '../gateway/index';

export interface WorkerRecord {
  readonly path: string;
  readonly startedAt: number;
  readonly closedAt?: number;
  readonly outcome?: string;
  readonly bytesWritten: number;
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('gatewayWorker must run as a worker thread');
  const gateway = await startGateway((workerData ?? {}) as GatewayOptions);
  port.on('message', (message: unknown) => {
    if (message === 'stop') void gateway.stop().then(() => port.close());
    if (message === 'records') {
      const records: WorkerRecord[] = gateway.requests.map((r) => ({
        path: r.path,
        startedAt: r.startedAt,
        bytesWritten: r.bytesWritten,
        ...(r.closedAt !== undefined ? { closedAt: r.closedAt } : {}),
        ...(r.outcome ? { outcome: r.outcome } : {}),
      }));
      port.postMessage({ records });
    }
  });
  port.postMessage({ url: gateway.url, apiKey: gateway.apiKey });
}

void main();
