/**
 * MP3 through @breezystack/lamejs (a maintained, typed fork of the pure-JS LAME port): MP3 is the
 * speech endpoint's default format, and hand-writing an MP3 encoder is not sensible. The package
 * is ESM-only for Node (its CommonJS entry is a browser IIFE), hence the dynamic import.
 */
export async function encodeMp3(samples: Int16Array, sampleRate: number, kbps = 48): Promise<Buffer> {
  const { Mp3Encoder } = await import('@breezystack/lamejs');
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const parts: Buffer[] = [];
  // lamejs hands back Int8Array views (its typings say Uint8Array): wrap the same memory as bytes.
  const bytes = (chunk: ArrayBufferView): Buffer => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const step = 1152 * 20;
  for (let i = 0; i < samples.length; i += step) parts.push(bytes(encoder.encodeBuffer(samples.subarray(i, i + step))));
  parts.push(bytes(encoder.flush()));
  return Buffer.concat(parts);
}
