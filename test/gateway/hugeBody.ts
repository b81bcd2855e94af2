import type { Reply } from './reply';

const PIECE = 'x'.repeat(64 * 1024);

/**
 * `huge-body=<bytes>`: the real answer with a `padding` string in front, so the body is `bytes`
 * long and still valid JSON when read whole. Chunked, without Content-Length, so a client has to
 * count what it reads; writing stops as soon as the client hangs up, so a capped client costs
 * the gateway only what it read.
 */
export async function writeHugeJson(
  reply: Reply,
  status: number,
  value: unknown,
  bytes: number,
  headers: Record<string, string | number>,
): Promise<void> {
  const rest = JSON.stringify(value);
  const head = '{"padding":"';
  const tail = rest.startsWith('{') && rest !== '{}' ? `",${rest.slice(1)}` : `","value":${rest}}`;
  reply.head(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  if (!(await reply.write(head))) return;
  for (let left = bytes - head.length - tail.length; left > 0; left -= PIECE.length) {
    if (!(await reply.write(left >= PIECE.length ? PIECE : PIECE.slice(0, left)))) return;
  }
  if (await reply.write(tail)) reply.end();
}
