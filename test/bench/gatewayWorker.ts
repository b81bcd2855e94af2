// Runs the local gateway on its own thread, so that in the benchmark it produces bytes on one core
// while the client consumes them on the other, as a remote gateway would.
import { parentPort } from 'node:worker_threads';
import { startGateway } from '../gateway/index';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('gatewayWorker must run as a worker thread');
  const gateway = await startGateway();
  port.on('message', (message: unknown) => {
    if (message === 'stop') void gateway.stop().then(() => port.close());
  });
  port.postMessage({ url: gateway.url, apiKey: gateway.apiKey });
}

void main();
