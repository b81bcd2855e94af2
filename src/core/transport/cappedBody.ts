// Reading a response body with a cap: a declared Content-Length over the cap is refused before a
// byte is read, and an undeclared (chunked) body is read only up to the cap, then the connection
// is closed. Either way the caller gets a ResponseTooLargeError that says what and how much.
import { ResponseTooLargeError } from '../errors';
import type { HeaderBag } from './retry';
import { formatByteSize } from '../limits';

export interface BodyCap {
  /** The most bytes read. */
  readonly maxBytes: number;
  /** What the body is, for the message: "the gateway's answer to GET /models", "the speech audio". */
  readonly what: string;
  /** The sentence that says what to do next. */
  readonly advice?: string;
  readonly status?: number;
}

const DEFAULT_ADVICE = 'This is not a normal answer: check the gateway address, or ask the gateway administrator.';

function tooLarge(cap: BodyCap, declared: number | undefined): ResponseTooLargeError {
  const size = declared === undefined ? `larger than ${formatByteSize(cap.maxBytes)}` : `${formatByteSize(declared)}`;
  const message = `${capitalize(cap.what)} is ${size}, more than the ${formatByteSize(cap.maxBytes)} the extension reads for it, so it was not read. ${cap.advice ?? DEFAULT_ADVICE}`;
  return new ResponseTooLargeError(message, {
    limitBytes: cap.maxBytes,
    ...(cap.status === undefined ? {} : { status: cap.status }),
  });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The Content-Length the server declared, if it is a plain number. */
function declaredLength(headers: HeaderBag): number | undefined {
  const raw = headers['content-length'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * The whole body as bytes, or a ResponseTooLargeError as soon as it is known to pass the cap.
 * The body is closed when it is refused: its iterator's return() must close the connection even
 * before the first read (the transport's bodies and the image downloader's do; a plain stream's
 * async iterator does not until it has started).
 */
export async function readCappedBytes(
  body: AsyncIterable<Uint8Array>,
  headers: HeaderBag,
  cap: BodyCap,
): Promise<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  const close = async (): Promise<void> => {
    await iterator.return?.().catch(() => undefined);
  };
  const declared = declaredLength(headers);
  if (declared !== undefined && declared > cap.maxBytes) {
    await close();
    throw tooLarge(cap, declared);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const step = await iterator.next();
    if (step.done === true) break;
    size += step.value.byteLength;
    if (size > cap.maxBytes) {
      await close();
      throw tooLarge(cap, undefined);
    }
    chunks.push(step.value);
  }
  // A fresh plain Uint8Array: undici's Buffers may be views into a shared pool.
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export async function readCappedText(
  body: AsyncIterable<Uint8Array>,
  headers: HeaderBag,
  cap: BodyCap,
): Promise<string> {
  const bytes = await readCappedBytes(body, headers, cap);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
