// Helpers for the core tests: byte streams split at every offset, and tiny throwaway HTTP servers
// on 127.0.0.1 that record what they saw (including whether the client closed the connection).
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const encoder = new TextEncoder();

/** The stream as the given chunks, handed out asynchronously like a socket would. */
export async function* chunked(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array, void, undefined> {
  for (const chunk of chunks) {
    await Promise.resolve();
    yield chunk;
  }
}

/** Every way of cutting `bytes` once (at each offset), plus one byte at a time and all at once. */
export function everySplit(bytes: Uint8Array): Uint8Array[][] {
  const splits: Uint8Array[][] = [[bytes]];
  for (let cut = 1; cut < bytes.length; cut++) splits.push([bytes.subarray(0, cut), bytes.subarray(cut)]);
  splits.push(Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)));
  return splits;
}

export interface Outcome<T> {
  items: T[];
  error?: unknown;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<Outcome<T>> {
  const items: T[] = [];
  try {
    for await (const item of iterable) items.push(item);
    return { items };
  } catch (error) {
    return { items, error };
  }
}

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Resolves when the response's connection closed; `finished` false means the client hung up first. */
  closed: Promise<{ finished: boolean }>;
}

export interface TestServer {
  url: string;
  requests: Recorded[];
  stop(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer, index: number) => void | Promise<void>;

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const closed = new Promise<{ finished: boolean }>((resolve) =>
      res.on('close', () => resolve({ finished: res.writableFinished })),
    );
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const index = requests.length;
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, closed });
      Promise.resolve(handler(req, res, body, index)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

export function sseData(value: unknown): string {
  return `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves with the promise's value, or rejects if it takes longer than `ms` (a bound, not a timing assertion). */
export async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One throwaway server per test: `serve(handler)` starts it, and the `afterEach` registered here
 * stops it. Call at the top of a `describe`.
 */
export function useTestServer(): (handler: Handler) => Promise<TestServer> {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });
  return async (handler: Handler): Promise<TestServer> => {
    await server?.stop();
    server = await startServer(handler);
    return server;
  };
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the request to fail');
}
