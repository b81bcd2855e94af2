// How a transcription answer becomes an editor document.
import type { Transcription, TranscriptionFormat, TranscriptionWord } from '../types/media';

export interface TranscriptDocument {
  readonly content: string;
  /** The language mode wanted; the caller falls back to plaintext when VS Code does not know it. */
  readonly language: 'srt' | 'vtt' | 'json' | 'markdown' | 'plaintext';
}

/**
 * text/srt/vtt are shown as the gateway sent them; json as pretty JSON (its `words`, when the model
 * gives them, already carry their timestamps); verbose_json as markdown, because its segments and
 * words are far easier to read as tables than as a JSON dump.
 */
export function transcriptDocument(answer: Transcription | string, format: TranscriptionFormat): TranscriptDocument {
  if (typeof answer === 'string') {
    const language = format === 'srt' ? 'srt' : format === 'vtt' ? 'vtt' : 'plaintext';
    return { content: answer, language };
  }
  if (format === 'verbose_json') return { content: transcriptMarkdown(answer), language: 'markdown' };
  return { content: `${JSON.stringify(answer, null, 2)}\n`, language: format === 'json' ? 'json' : 'plaintext' };
}

export function transcriptMarkdown(answer: Transcription): string {
  const facts = [
    answer.language ? `Language: ${answer.language}` : undefined,
    answer.duration !== undefined ? `Duration: ${formatSeconds(answer.duration)}` : undefined,
  ].filter((fact): fact is string => fact !== undefined);
  const lines = ['# Transcript', '', ...(facts.length ? [facts.join(' · '), ''] : []), answer.text.trim(), ''];
  if (answer.segments?.length) {
    lines.push('## Segments', '', '| # | Start | End | Text |', '|---:|---:|---:|---|');
    for (const segment of answer.segments) lines.push(`| ${segment.id} | ${formatSeconds(segment.start)} | ${formatSeconds(segment.end)} | ${cell(segment.text)} |`);
    lines.push('');
  }
  if (answer.words?.length) lines.push(...wordsTable(answer.words), '');
  return lines.join('\n');
}

function wordsTable(words: readonly TranscriptionWord[]): string[] {
  return ['## Words', '', '| Word | Start | End |', '|---|---:|---:|', ...words.map((w) => `| ${cell(w.word)} | ${formatSeconds(w.start)} | ${formatSeconds(w.end)} |`)];
}

/** 83.25 -> "1:23.25": minutes when there are any, two decimals as the gateway gives them. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const minutes = Math.floor(seconds / 60);
  const rest = (seconds - minutes * 60).toFixed(2);
  return minutes > 0 ? `${minutes}:${rest.padStart(5, '0')}` : rest;
}

/** Table cells: a pipe or line break in model output would break the table. */
function cell(text: string): string {
  return text.trim().replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** The file a subtitle transcript is saved as, next to the audio: `talk.wav` -> `talk.srt`. */
export function subtitlePath(audioPath: string, format: 'srt' | 'vtt'): string {
  const slash = audioPath.lastIndexOf('/');
  const dot = audioPath.lastIndexOf('.');
  return `${dot > slash ? audioPath.slice(0, dot) : audioPath}.${format}`;
}
