// The choices of a speech request (gateway-api "POST /audio/speech").
import { SPEECH_FORMATS } from './audioFiles';
import type { SpeechFormat } from '../types/media';

export const SPEECH_VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'] as const;
const MIN_SPEED = 0.25;
const MAX_SPEED = 4;

/** Why a typed speed is refused, or undefined when it is a number from 0.25 to 4. */
export function speedProblem(text: string): string | undefined {
  const value = parseSpeedText(text);
  return value === undefined ? `Enter a speed from ${MIN_SPEED} to ${MAX_SPEED} (1 is normal).` : undefined;
}

export function parseSpeedText(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d*\.?\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= MIN_SPEED && value <= MAX_SPEED ? value : undefined;
}

/** A typed voice id: what the gateway could take as a raw voice id (no spaces or control characters). */
export function voiceIdProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return 'Enter a voice id.';
  return /^[\w.:@/-]{1,128}$/.test(trimmed) ? undefined : 'A voice id has letters, digits and . _ - : @ / only (at most 128).';
}

/**
 * Formats a browser can play in the audio panel. Raw PCM has no header to say its rate: it can
 * be saved, not played.
 */
export function isPlayableFormat(format: SpeechFormat): boolean {
  return format !== 'pcm';
}

/** `speech.mp3`, part 2 of 3 -> `speech-2.mp3`. */
export function numberedPath(path: string, index: number): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash ? `${path.slice(0, dot)}-${index + 1}${path.slice(dot)}` : `${path}-${index + 1}`;
}

/** The audio panel's heading for a reading: its first line, shortened. */
export function readingTitle(text: string, fallback: string): string {
  const first = text.split('\n')[0]?.trim() ?? '';
  return first.length > 80 ? `${first.slice(0, 77)}...` : first || fallback;
}

/** The voice, format and speed last chosen for speech, as kept in extension state (never the key). */
export interface SpeechMemory {
  readonly voice?: string;
  readonly format?: SpeechFormat;
  readonly speed?: number;
}

/** What extension state holds, checked (it may hold anything): only a valid voice id, format and speed. */
export function readSpeechMemory(stored: unknown): SpeechMemory {
  if (typeof stored !== 'object' || stored === null) return {};
  const { voice, format, speed } = stored as Record<string, unknown>;
  return {
    ...(typeof voice === 'string' && voiceIdProblem(voice) === undefined ? { voice: voice.trim() } : {}),
    ...(typeof format === 'string' && (SPEECH_FORMATS as readonly string[]).includes(format)
      ? { format: format as SpeechFormat }
      : {}),
    ...(typeof speed === 'number' && parseSpeedText(String(speed)) !== undefined ? { speed } : {}),
  };
}

/** The values with the remembered one first (the pick's default), when it is one of them. */
export function rememberedFirst<T extends string>(values: readonly T[], remembered: string | undefined): T[] {
  const first = values.find((value) => value === remembered);
  return first === undefined ? [...values] : [first, ...values.filter((value) => value !== first)];
}
