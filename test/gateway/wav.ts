/** The parts of a WAV header the gateway needs: enough to compute the duration. */
export interface WavInfo {
  readonly audioFormat: number;
  readonly channels: number;
  readonly sampleRate: number;
  readonly bitsPerSample: number;
  readonly byteRate: number;
  readonly dataBytes: number;
  readonly durationSeconds: number;
}

/** A canonical 44-byte-header PCM WAV around little-endian 16-bit samples. */
export function encodeWav(pcm: Buffer, sampleRate: number, channels = 1): Buffer {
  const header = Buffer.alloc(44);
  const blockAlign = channels * 2;
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

/**
 * Reads a RIFF/WAVE header by walking its chunks (fmt may be preceded by LIST etc.). Returns
 * undefined when the bytes are not a WAV file. A streaming writer's 0xFFFFFFFF (or any too large)
 * data size is replaced by the bytes actually present.
 */
export function parseWav(bytes: Buffer): WavInfo | undefined {
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE')
    return undefined;
  let offset = 12;
  let fmt:
    { audioFormat: number; channels: number; sampleRate: number; byteRate: number; bitsPerSample: number } | undefined;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      fmt = {
        audioFormat: bytes.readUInt16LE(body),
        channels: bytes.readUInt16LE(body + 2),
        sampleRate: bytes.readUInt32LE(body + 4),
        byteRate: bytes.readUInt32LE(body + 8),
        bitsPerSample: bytes.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!fmt || fmt.byteRate === 0) return undefined;
      const dataBytes = Math.min(size, bytes.length - body);
      return { ...fmt, dataBytes, durationSeconds: dataBytes / fmt.byteRate };
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  return undefined;
}
