// A third-party gateway in front of ours, as companies place one: it serves the API under its own
// prefix (`/v1`) and forwards to the local gateway's `/api/v1`, streaming both ways. Anything
// outside its prefix is a 404, so a client that appends `/api/v1` to it fails visibly.
import { request, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PrefixProxy {
  /** `http://127.0.0.1:<port>` (without the prefix). */
  readonly url: string;
  /** The paths asked for, in order (with their query). */
  readonly paths: readonly string[];
  stop(): Promise<void>;
}

/** Starts the proxy on a free port of 127.0.0.1: `{prefix}/x` goes to `{target}/api/v1/x`. */
export async function startPrefixProxy(target: string, prefix = '/v1'): Promise<PrefixProxy> {
  const paths: string[] = [];
  const upstream = new URL(target);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    paths.push(path);
    if (!path.startsWith(`${prefix}/`)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${path}`, type: 'not_found' } }));
      return;
    }
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: `/api/v1${path.slice(prefix.length)}`,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
