/**
 * A real FLAC encoder of the simplest legal kind: 16-bit mono, fixed 4096-sample blocks, every
 * subframe VERBATIM (no prediction, so no compression, but any FLAC decoder plays it).
 */

const BLOCK = 4096;

function crc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** FLAC's "UTF-8" coding of the frame number. */
function utf8Number(n: number): number[] {
  if (n < 0x80) return [n];
  if (n < 0x800) return [0xc0 | (n >> 6), 0x80 | (n & 0x3f)];
  if (n < 0x10000) return [0xe0 | (n >> 12), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
  return [0xf0 | (n >> 18), 0x80 | ((n >> 12) & 0x3f), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
}

const RATE_CODES: Record<number, number> = {
  8000: 4,
  16000: 5,
  22050: 6,
  24000: 7,
  32000: 8,
  44100: 9,
  48000: 10,
  96000: 11,
};

function streamInfo(sampleRate: number, totalSamples: number): Buffer {
  const info = Buffer.alloc(4 + 34);
  info[0] = 0x80; // last metadata block, type 0 (STREAMINFO)
  info.writeUIntBE(34, 1, 3);
  info.writeUInt16BE(BLOCK, 4);
  info.writeUInt16BE(BLOCK, 6);
  // min/max frame size (6 bytes) left 0: unknown
  // 20 bits rate | 3 bits channels-1 (0) | 5 bits bps-1 (15) | 36 bits total samples
  const hi = totalSamples / 2 ** 32;
  info[14] = (sampleRate >> 12) & 0xff;
  info[15] = (sampleRate >> 4) & 0xff;
  info[16] = ((sampleRate & 0x0f) << 4) | (0 << 1) | (15 >> 4);
  info[17] = ((15 & 0x0f) << 4) | (Math.floor(hi) & 0x0f);
  info.writeUInt32BE(totalSamples >>> 0, 18);
  // MD5 (16 bytes) left 0: "not computed", which the format allows
  return info;
}

export function encodeFlac(samples: Int16Array, sampleRate: number): Buffer {
  const rateCode = RATE_CODES[sampleRate];
  if (rateCode === undefined) throw new Error(`FLAC encoder: unsupported sample rate ${sampleRate}`);
  const parts: Buffer[] = [Buffer.from('fLaC', 'ascii'), streamInfo(sampleRate, samples.length)];
  for (let frame = 0, start = 0; start < samples.length; frame++, start += BLOCK) {
    const count = Math.min(BLOCK, samples.length - start);
    const header = [
      0xff,
      0xf8,
      ((count === BLOCK ? 0b1100 : 0b0111) << 4) | rateCode,
      (0b0000 << 4) | (0b100 << 1),
      ...utf8Number(frame),
    ];
    if (count !== BLOCK) header.push(((count - 1) >> 8) & 0xff, (count - 1) & 0xff);
    header.push(crc8(Uint8Array.from(header)));
    const body = Buffer.alloc(header.length + 1 + count * 2 + 2);
    body.set(header, 0);
    body[header.length] = 0x02; // subframe: type VERBATIM, no wasted bits
    for (let i = 0; i < count; i++) body.writeInt16BE(samples[start + i] ?? 0, header.length + 1 + i * 2);
    body.writeUInt16BE(crc16(body.subarray(0, body.length - 2)), body.length - 2);
    parts.push(body);
  }
  return Buffer.concat(parts);
}
