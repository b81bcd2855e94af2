import { truncate } from './text';

export interface TimedWord {
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

export interface Segment {
  readonly id: number;
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

/** A transcript that says what it is: the simulator cannot hear, so it describes the file instead. */
export function simulatedTranscript(filename: string, seconds: number, prompt?: string): string {
  const base = `This is a local simulation of a transcript of ${filename}, which is ${seconds.toFixed(1)} seconds long.`;
  return prompt ? `${base} The prompt was: ${truncate(prompt, 120)}` : base;
}

/** Spreads the words evenly over the duration (each takes 90% of its slot). */
export function timeWords(text: string, seconds: number): TimedWord[] {
  const list = text.split(/\s+/).filter(Boolean);
  const slot = seconds / Math.max(1, list.length);
  return list.map((word, i) => ({
    word: word.replace(/[.,:;!?]+$/, ''),
    start: round(i * slot),
    end: round(i * slot + slot * 0.9),
  }));
}

/** Groups of up to eight words, as subtitle cues. */
export function segmentsOf(words: readonly TimedWord[], originalText: string): Segment[] {
  const raw = originalText.split(/\s+/).filter(Boolean);
  const out: Segment[] = [];
  for (let i = 0; i < words.length; i += 8) {
    const group = words.slice(i, i + 8);
    const first = group[0];
    const last = group[group.length - 1];
    if (!first || !last) continue;
    out.push({ id: out.length, start: first.start, end: last.end, text: raw.slice(i, i + 8).join(' ') });
  }
  return out;
}

function clock(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3600000);
  const m = Math.floor((ms % 3600000) / 60000);
  const s = Math.floor((ms % 60000) / 1000);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

export function toSrt(segments: readonly Segment[]): string {
  return segments.map((s, i) => `${i + 1}\n${clock(s.start, ',')} --> ${clock(s.end, ',')}\n${s.text}\n`).join('\n');
}

export function toVtt(segments: readonly Segment[]): string {
  return `WEBVTT\n\n${segments.map((s) => `${clock(s.start, '.')} --> ${clock(s.end, '.')}\n${s.text}\n`).join('\n')}`;
}
