import { fnv1a } from './text';

/** Speech output is 24 kHz mono 16-bit, the same as OpenAI's `pcm` format. */
export const SPEECH_SAMPLE_RATE = 24000;
/** Longest audio the simulator renders (longer inputs are cut here; documented in README.md). */
const MAX_SPEECH_SECONDS = 300;

const VOICE_PITCH: Record<string, number> = { alloy: 200, echo: 150, fable: 220, onyx: 110, nova: 260, shimmer: 300 };

/**
 * "Speech" as a chirp per word: each word becomes a short rising tone whose pitch comes from the
 * word and the voice, with pauses between words and longer ones at punctuation. The length grows
 * with the input and shrinks with `speed`, which is what a client can check.
 */
export function synthesizeSpeech(input: string, voice: string, speed: number): Int16Array {
  const rate = SPEECH_SAMPLE_RATE;
  const base = VOICE_PITCH[voice] ?? 120 + (fnv1a(voice) % 200);
  const tokens = input.match(/[^\s.,;:!?]+|[.,;:!?]/g) ?? [];
  const plan: { seconds: number; freq: number }[] = [{ seconds: 0.1, freq: 0 }];
  for (const token of tokens) {
    if (/^[.,;:!?]$/.test(token)) {
      plan.push({ seconds: 0.2, freq: 0 });
      continue;
    }
    plan.push({ seconds: 0.08 + 0.045 * Math.min(token.length, 20), freq: base + (fnv1a(token.toLowerCase()) % 180) });
    plan.push({ seconds: 0.06, freq: 0 });
  }
  if (tokens.length === 0) plan.push({ seconds: 0.3, freq: base });
  plan.push({ seconds: 0.1, freq: 0 });
  const total = Math.min(
    plan.reduce((sum, p) => sum + p.seconds / speed, 0),
    MAX_SPEECH_SECONDS,
  );
  const samples = new Int16Array(Math.round(total * rate));
  let offset = 0;
  for (const part of plan) {
    const length = Math.round((part.seconds / speed) * rate);
    const end = Math.min(offset + length, samples.length);
    if (part.freq > 0) {
      let phase = 0;
      for (let i = offset; i < end; i++) {
        const t = (i - offset) / length;
        const freq = part.freq * (1 + 0.25 * t); // a chirp: pitch rises through the word
        phase += (2 * Math.PI * freq) / rate;
        const envelope = Math.min(1, t * 20, (1 - t) * 20);
        samples[i] = Math.round(Math.sin(phase) * envelope * 12000);
      }
    }
    offset = end;
    if (offset >= samples.length) break;
  }
  return samples;
}

/** Little-endian 16-bit PCM bytes, regardless of the host's byte order. */
export function pcmBytes(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i] ?? 0, i * 2);
  return out;
}
