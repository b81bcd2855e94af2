// A small forward proxy for tests: `CONNECT host:port` tunnels (how clients reach https targets,
// and http ones when they tunnel) and absolute-URI requests (`GET http://host:port/path`, how
// clients send plain http through a proxy). Optional Basic auth answers 407 when the credentials are
// missing or wrong. It only ever connects to loopback addresses: this machine may only talk to
// itself, so a target elsewhere gets a 403 and no connection is attempted.
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, isIP } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface ConnectProxyOptions {
  auth?: { user: string; password: string };
}

export interface ConnectProxy {
  /** `http://127.0.0.1:<port>` (never with credentials: tests add them where they want them). */
  url: string;
  port: number;
  /** `host:port` of every CONNECT received, in arrival order (also the refused ones). */
  connects: string[];
  /** The absolute URI of every plain-http request received, in arrival order (also the refused ones). */
  requests: string[];
  /** Closes the listener and every open connection, tunnels included. */
  stop(): Promise<void>;
}

/** Hop-by-hop headers a proxy must not forward (RFC 9110 7.6.1), plus the proxy's own credentials. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export async function startConnectProxy(options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
  const connects: string[] = [];
  const requests: string[] = [];
  const open = new Set<Duplex>();
  const track = (socket: Duplex): void => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };
  const expected = options.auth
    ? `Basic ${Buffer.from(`${options.auth.user}:${options.auth.password}`).toString('base64')}`
    : undefined;
  const authorized = (req: IncomingMessage): boolean =>
    expected === undefined || req.headers['proxy-authorization'] === expected;

  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    forward(req, res, authorized(req), track);
  });
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const target = req.url ?? '';
    connects.push(target);
    client.on('error', () => client.destroy());
    if (!authorized(req))
      return refuseTunnel(
        client,
        407,
        'Proxy Authentication Required',
        'Proxy-Authenticate: Basic realm="test-proxy"\r\n',
      );
    const parsed = parseAuthority(target);
    if (!parsed) return refuseTunnel(client, 400, 'Bad Request');
    if (!isLoopback(parsed.host)) return refuseTunnel(client, 403, 'Forbidden');
    const upstream = connect(parsed.port, parsed.host);
    track(upstream);
    let established = false;
    upstream.once('connect', () => {
      established = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      // Before the tunnel is up the client still reads an HTTP answer; after, only a closed socket says it.
      if (!established) refuseTunnel(client, 502, 'Bad Gateway');
      else client.destroy();
    });
    client.on('close', () => upstream.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connects,
    requests,
    stop: async (): Promise<void> => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of open) socket.destroy();
      await closed;
    },
  };
}

function forward(
  req: IncomingMessage,
  res: ServerResponse,
  authorized: boolean,
  track: (socket: Duplex) => void,
): void {
  if (!authorized) {
    res
      .writeHead(407, { 'proxy-authenticate': 'Basic realm="test-proxy"', 'content-length': '0', connection: 'close' })
      .end();
    return;
  }
  let target: URL;
  try {
    target = new URL(req.url ?? '');
  } catch {
    res.writeHead(400, { 'content-length': '0' }).end();
    return;
  }
  if (target.protocol !== 'http:') {
    res.writeHead(400, { 'content-length': '0' }).end();
    return;
  }
  if (!isLoopback(target.hostname)) {
    res.writeHead(403, { 'content-length': '0' }).end();
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  const upstream = httpRequest(
    {
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port || 80,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers,
    },
    (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers))
        if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    },
  );
  upstream.on('socket', (socket: Socket) => track(socket));
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-length': '0' }).end();
    else res.destroy();
  });
  // The client going away mid-answer closes the upstream request too, like a real proxy.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

function refuseTunnel(client: Duplex, status: number, reason: string, extraHeaders = ''): void {
  if (client.destroyed) return;
  client.end(`HTTP/1.1 ${status} ${reason}\r\n${extraHeaders}Content-Length: 0\r\nConnection: close\r\n\r\n`);
}

function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!match?.[1] || !match[2]) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

function isLoopback(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
}
