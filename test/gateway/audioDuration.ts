import { parseWav } from './wav';

/** Bytes per second assumed when a format's duration cannot be read from its bytes (128 kbit/s). */
const ESTIMATE_BYTES_PER_SECOND = 16000;

export interface AudioDuration {
  readonly seconds: number;
  /** How it was obtained: read from a WAV header, counted MP3 frames, or estimated from the size. */
  readonly method: 'wav-header' | 'mp3-frames' | 'size-estimate';
}

const MPEG1_L3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_L3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES: Record<number, readonly number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

/** Sums the frames of an MPEG Layer III stream (after any ID3v2 tag); undefined when it is not one. */
function mp3Duration(bytes: Buffer): number | undefined {
  let offset = 0;
  if (bytes.length > 10 && bytes.toString('latin1', 0, 3) === 'ID3') {
    const size = ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
    offset = 10 + size + ((bytes[5] ?? 0) & 0x10 ? 10 : 0);
  }
  let seconds = 0;
  let frames = 0;
  while (offset + 4 <= bytes.length) {
    const b1 = bytes[offset + 1] ?? 0;
    const b2 = bytes[offset + 2] ?? 0;
    if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) break;
    const version = (b1 >> 3) & 3;
    const layer = (b1 >> 1) & 3;
    const kbps = (version === 3 ? MPEG1_L3_KBPS : MPEG2_L3_KBPS)[b2 >> 4];
    const rate = RATES[version]?.[(b2 >> 2) & 3];
    if (layer !== 1 || !kbps || !rate) break;
    const samples = version === 3 ? 1152 : 576;
    const length = Math.floor(((samples / 8) * kbps * 1000) / rate) + ((b2 >> 1) & 1);
    seconds += samples / rate;
    frames++;
    offset += length;
  }
  return frames >= 2 ? seconds : undefined;
}

/**
 * The duration of an uploaded file: from the header for WAV (undefined when a .wav is not one),
 * by counting frames for MP3, and otherwise estimated from the size at 128 kbit/s (mp4, m4a,
 * webm... would need a container parser; the simulation does not pretend to have one).
 */
export function audioDuration(extension: string, bytes: Buffer): AudioDuration | undefined {
  if (extension === 'wav') {
    const info = parseWav(bytes);
    return info && { seconds: info.durationSeconds, method: 'wav-header' };
  }
  if (extension === 'mp3' || extension === 'mpga' || extension === 'mpeg') {
    const seconds = mp3Duration(bytes);
    if (seconds !== undefined) return { seconds, method: 'mp3-frames' };
  }
  return { seconds: bytes.length / ESTIMATE_BYTES_PER_SECOND, method: 'size-estimate' };
}
