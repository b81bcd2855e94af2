import { startGateway, type GatewayOptions, type LocalGateway } from '../../gateway/index';

/** Starts one gateway for a `describe` block and stops it afterwards. */
export function useGateway(options: GatewayOptions = {}): () => LocalGateway {
  let gateway: LocalGateway | undefined;
  before(async () => {
    gateway = await startGateway(options);
  });
  after(async () => {
    await gateway?.stop();
  });
  return () => {
    if (!gateway) throw new Error('gateway not started');
    return gateway;
  };
}

function authHeaders(gateway: LocalGateway, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json', ...extra };
}

export function post(
  gateway: LocalGateway,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${gateway.apiUrl}${path}`, {
    method: 'POST',
    headers: authHeaders(gateway, headers),
    body: JSON.stringify(body),
    signal,
  });
}

export function get(gateway: LocalGateway, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gateway.apiUrl}${path}`, { headers: authHeaders(gateway, headers) });
}

export interface ParsedEvent {
  event?: string;
  data: string;
}

/** A small SSE parser for tests: the gateway frames events with `\n` and a blank line. */
export function parseSse(text: string): ParsedEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event: ParsedEvent = { data: '' };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      event.data = data.join('\n');
      return event;
    });
}

/** The JSON payloads of a chat stream, without `[DONE]`. */
export function chatChunks(text: string): Record<string, unknown>[] {
  return parseSse(text)
    .filter((e) => e.data !== '[DONE]')
    .map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test-side convenience for reading response bodies

export async function json(response: Response): Promise<Json> {
  return (await response.json()) as Json;
}

/** Polls `check` until it returns a value, at most `timeoutMs` (generous: the test machine is slow). */
export async function pollUntil<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
