// Joining the audio parts of a long reading into one file.
import type { SpeechFormat } from '../types/media';

interface WavParts { readonly fmt: Uint8Array; readonly data: Uint8Array }

const ascii = (bytes: Uint8Array, at: number): string => String.fromCharCode(...bytes.subarray(at, at + 4));

/** The `fmt ` chunk body and the sample data of a RIFF/WAVE file, or undefined if it is not one. */
export function readWav(bytes: Uint8Array): WavParts | undefined {
  if (bytes.length < 12 || ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: Uint8Array | undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = ascii(bytes, at);
    // A streamed WAV may say 0 or 0xFFFFFFFF for its data size: take what is there.
    const size = Math.min(view.getUint32(at + 4, true), bytes.length - at - 8);
    const body = bytes.subarray(at + 8, at + 8 + size);
    if (id === 'fmt ') fmt = body;
    if (id === 'data') return fmt ? { fmt, data: body } : undefined;
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** One WAV holding every part's samples in order; undefined when a part is not WAV or differs in format. */
export function joinWav(parts: readonly Uint8Array[]): Uint8Array | undefined {
  const wavs = parts.map(readWav);
  const first = wavs[0];
  if (!first || wavs.some((wav) => !wav || !sameBytes(wav.fmt, first.fmt))) return undefined;
  const dataSize = wavs.reduce((sum, wav) => sum + (wav?.data.length ?? 0), 0);
  const out = new Uint8Array(12 + 8 + first.fmt.length + (first.fmt.length % 2) + 8 + dataSize);
  const view = new DataView(out.buffer);
  const writeAscii = (text: string, at: number): void => text.split('').forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  writeAscii('RIFF', 0);
  view.setUint32(4, out.length - 8, true);
  writeAscii('WAVE', 8);
  writeAscii('fmt ', 12);
  view.setUint32(16, first.fmt.length, true);
  out.set(first.fmt, 20);
  let at = 20 + first.fmt.length + (first.fmt.length % 2);
  writeAscii('data', at);
  view.setUint32(at + 4, dataSize, true);
  at += 8;
  for (const wav of wavs) {
    out.set(wav?.data ?? new Uint8Array(), at);
    at += wav?.data.length ?? 0;
  }
  return out;
}

/** The parts as one file, or undefined when this format is saved one file per part. */
export function joinSpeechParts(format: SpeechFormat, parts: readonly Uint8Array[]): Uint8Array | undefined {
  if (parts.length === 1) return parts[0];
  if (format === 'wav') return joinWav(parts);
  if (format === 'pcm' || format === 'mp3') return concatBytes(parts);
  return undefined;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
