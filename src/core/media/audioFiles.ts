// Which audio files and formats the audio endpoints take (gateway-api "POST /audio/transcriptions",
// "POST /audio/speech"). One list, used by the client's request checks and by the editor's commands
// (which refuse a wrong file before uploading it).
import type { SpeechFormat, TranscriptionFormat } from '../types/media';

export const TRANSCRIPTION_FILE_EXTENSIONS = ['mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'wav', 'webm'] as const;
export const TRANSCRIPTION_FORMATS: readonly TranscriptionFormat[] = ['text', 'srt', 'vtt', 'verbose_json', 'json'];
export const SPEECH_FORMATS: readonly SpeechFormat[] = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];

export const SPEECH_CONTENT_TYPES: Readonly<Record<SpeechFormat, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

const UPLOAD_CONTENT_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  mpga: 'audio/mpeg',
  mpeg: 'audio/mpeg',
  mp4: 'audio/mp4',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  webm: 'audio/webm',
};

/** The lower-case extension of a file name or path ('' when it has none). */
export function fileExtension(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot >= 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function isTranscribableFile(name: string): boolean {
  return (TRANSCRIPTION_FILE_EXTENSIONS as readonly string[]).includes(fileExtension(name));
}

/** The Content-Type sent with an upload (the gateway decides by the name; this is for the record). */
export function audioUploadType(name: string): string {
  return UPLOAD_CONTENT_TYPES[fileExtension(name)] ?? 'application/octet-stream';
}
