// POST /api/v1/audio/transcriptions (multipart) and POST /api/v1/audio/speech (binary answer).
// Neither is retried automatically: they cost money (wire-conventions "Errors and retries").
import { File } from 'node:buffer';
import { FormData } from 'undici';
import {
  SPEECH_CONTENT_TYPES,
  SPEECH_FORMATS,
  TRANSCRIPTION_FILE_EXTENSIONS,
  TRANSCRIPTION_FORMATS,
  fileExtension,
} from '../media/audioFiles';
import { readCappedBytes, readCappedText } from '../transport/cappedBody';
import { InvalidRequestError } from '../errors';
import type { Transport } from '../transport/transport';
import { formatByteSize, MAX_SPEECH_BYTES, MAX_TRANSCRIPTION_BYTES, TRANSCRIPTION_MAX_BYTES } from '../limits';
import { parseTranscription } from '../parse/resources';
import { tryParseJson } from '../parse/json';
import { MAX_SPEECH_INPUT } from '../media/speechInput';
import type { RequestOptions } from '../types/common';
import type { SpeechRequest, SpeechResult, Transcription, TranscriptionRequest } from '../types/media';
import { characterCount, checkOneOf, checkRange, requireObject, requireString } from '../transport/validate';

function validateTranscriptionRequest(req: TranscriptionRequest): void {
  requireObject('request', req);
  requireString('model', req.model);
  requireObject('file', req.file);
  if (!(req.file.data instanceof Uint8Array) || req.file.data.byteLength === 0)
    throw new InvalidRequestError('file.data', 'file.data must be non-empty bytes');
  if (req.file.data.byteLength > TRANSCRIPTION_MAX_BYTES) {
    throw new InvalidRequestError(
      'file.data',
      `file.data is ${req.file.data.byteLength} bytes, more than the ${formatByteSize(TRANSCRIPTION_MAX_BYTES)} the client uploads`,
    );
  }
  requireString('file.filename', req.file.filename);
  const extension = fileExtension(req.file.filename);
  if (extension !== '' && !(TRANSCRIPTION_FILE_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new InvalidRequestError(
      'file.filename',
      `file.filename must end in one of ${TRANSCRIPTION_FILE_EXTENSIONS.map((e) => `.${e}`).join(', ')}`,
    );
  }
  checkOneOf('response_format', req.response_format, TRANSCRIPTION_FORMATS);
  checkRange('temperature', req.temperature, 0, 1);
}

function validateSpeechRequest(req: SpeechRequest): void {
  requireObject('request', req);
  requireString('model', req.model);
  requireString('input', req.input);
  if (characterCount(req.input) > MAX_SPEECH_INPUT)
    throw new InvalidRequestError(
      'input',
      `input must be at most ${MAX_SPEECH_INPUT} characters (split longer text with splitSpeechInput)`,
    );
  requireString('voice', req.voice);
  checkOneOf('response_format', req.response_format, SPEECH_FORMATS);
  checkRange('speed', req.speed, 0.25, 4);
}

function transcriptionForm(req: TranscriptionRequest): FormData {
  const form = new FormData();
  form.append('model', req.model);
  const type = req.file.contentType ?? 'application/octet-stream';
  form.append('file', new File([req.file.data], req.file.filename, { type }));
  if (req.language !== undefined) form.append('language', req.language);
  if (req.prompt !== undefined) form.append('prompt', req.prompt);
  if (req.response_format !== undefined) form.append('response_format', req.response_format);
  if (req.temperature !== undefined) form.append('temperature', String(req.temperature));
  return form;
}

function headerText(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

export class AudioResource {
  constructor(private readonly transport: Transport) {}

  /** A Transcription for json/verbose_json, the text itself for text/srt/vtt. */
  async transcribe(req: TranscriptionRequest, opts?: RequestOptions): Promise<Transcription | string> {
    validateTranscriptionRequest(req);
    const format = req.response_format ?? 'json';
    const wantsJson = format === 'json' || format === 'verbose_json';
    const { response } = await this.transport.send({
      method: 'POST',
      path: '/audio/transcriptions',
      form: () => transcriptionForm(req),
      accept: wantsJson ? 'application/json' : 'text/plain',
      retryable: false,
      options: opts,
    });
    const text = await readCappedText(response.body, response.headers, {
      maxBytes: MAX_TRANSCRIPTION_BYTES,
      what: 'the transcript the gateway sent',
      status: response.status,
    });
    if (!wantsJson) return text;
    const json = tryParseJson(text);
    // A server that answers json as plain text still gave us the transcript.
    return json === undefined ? { text } : parseTranscription(json);
  }

  async speech(req: SpeechRequest, opts?: RequestOptions): Promise<SpeechResult> {
    validateSpeechRequest(req);
    const { response } = await this.transport.send({
      method: 'POST',
      path: '/audio/speech',
      json: req,
      accept: 'audio/*, application/octet-stream',
      retryable: false,
      options: opts,
    });
    const data = await readCappedBytes(response.body, response.headers, {
      maxBytes: MAX_SPEECH_BYTES,
      what: 'the speech audio the gateway sent',
      advice: 'Read a shorter selection, or pick a compressed format (mp3) instead of wav or pcm.',
      status: response.status,
    });
    const contentType =
      headerText(response.headers['content-type']) || SPEECH_CONTENT_TYPES[req.response_format ?? 'mp3'];
    return { data, contentType };
  }
}
