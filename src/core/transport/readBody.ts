// Reading a whole body (or its first bytes) when no cap applies or the caller sets its own: error
// bodies, whose message is all that is needed, and binary answers read by their resource.
/** The whole body (or its first `limit` bytes, then it stops reading) as bytes. */
async function readBytes(body: AsyncIterable<Uint8Array>, limit = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size >= limit) break;
  }
  // A fresh plain Uint8Array: undici's Buffers may be views into a shared pool.
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk.subarray(0, Math.min(chunk.byteLength, size - offset)), offset);
    offset += chunk.byteLength;
    if (offset >= size) break;
  }
  return bytes;
}

export async function readText(body: AsyncIterable<Uint8Array>, limit?: number): Promise<string> {
  const bytes = await readBytes(body, limit);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
