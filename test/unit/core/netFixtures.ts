// Network fixtures for the proxy, dispatcher and diagnosis tests: a port nothing listens on, and a
// self-signed certificate (made with the openssl CLI when the machine has one: node:crypto can make
// keys but not X.509 certificates) served by a throwaway https server on 127.0.0.1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export { closedPort } from '../../harness/closedPort';

export interface SelfSigned {
  key: string;
  cert: string;
}

let cached: SelfSigned | string | undefined;

/** A certificate for localhost and 127.0.0.1, or the reason there is none (no usable openssl). */
export function selfSignedCertificate(): SelfSigned | string {
  cached ??= generate();
  return cached;
}

function generate(): SelfSigned | string {
  const probe = spawnSync('openssl', ['version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    return 'no openssl command on this machine (node:crypto cannot make X.509 certificates)';
  const dir = mkdtempSync(join(tmpdir(), 'ui-tls-'));
  try {
    const result = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { encoding: 'utf8' },
    );
    if (result.status !== 0)
      return `openssl could not make a certificate (${probe.stdout.trim()}): ${result.stderr.trim().split('\n')[0] ?? ''}`;
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface HttpsTestServer {
  url: string;
  port: number;
  /** How many requests reached the handler (a failed handshake never does). */
  readonly hits: number;
  stop(): Promise<void>;
}

/** An https server on 127.0.0.1 answering every request with `handler` (default: an empty model list). */
export async function startHttpsServer(
  certificate: SelfSigned,
  handler?: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<HttpsTestServer> {
  let hits = 0;
  const sockets = new Set<Socket>();
  const server = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    hits++;
    if (handler) return handler(req, res);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data: [{ id: 'tls/model', object: 'model' }] }));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Handshakes the client rejects end in errors here; they are the point of the test, not a failure.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    get hits(): number {
      return hits;
    },
    stop: async (): Promise<void> => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
