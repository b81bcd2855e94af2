import type { IncomingMessage } from 'node:http';
import { badRequest, HttpError } from './errors';
import { isObject, type JsonObject } from './validate';

/** JSON bodies larger than this are refused (413): inline images in /messages fit, runaway uploads do not. */
const MAX_JSON_BYTES = 32 * 1024 * 1024;

async function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit)
      tooLarge = true; // keep draining so the client sees the 413, not a broken pipe
    else chunks.push(chunk);
  }
  if (tooLarge) {
    throw new HttpError(
      413,
      `Request body is ${size} bytes; the limit is ${limit} bytes`,
      'invalid_request_error',
      'request_too_large',
    );
  }
  return Buffer.concat(chunks);
}

export async function readJson(req: IncomingMessage): Promise<JsonObject> {
  const bytes = await readBytes(req, MAX_JSON_BYTES);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw badRequest('body', `The request body is not valid JSON: ${(error as Error).message}`, 'invalid_json');
  }
  if (!isObject(value)) throw badRequest('body', 'The request body must be a JSON object', 'invalid_json');
  return value;
}
