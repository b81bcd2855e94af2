import { audioDuration } from '../audioDuration';
import { lookupModel } from '../catalog';
import type { Route, RouteContext } from '../context';
import { badRequest } from '../errors';
import { readMultipart } from '../multipart';
import { segmentsOf, simulatedTranscript, timeWords, toSrt, toVtt } from '../transcript';

const AUDIO_EXTENSIONS = ['mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'wav', 'webm'] as const;
const FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'];

/** Multipart fields are strings: numbers are parsed here so the 400 names the field. */
function numberField(
  fields: Readonly<Record<string, string>>,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = fields[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max)
    throw badRequest(name, `'${name}' must be a number between ${min} and ${max}; got '${raw}'`);
  return value;
}

async function handleTranscription(ctx: RouteContext): Promise<void> {
  const form = await readMultipart(ctx.req, ctx.state.settings.maxUploadBytes);
  const fields = { ...form.fields };
  ctx.record.body = {
    ...fields,
    ...(form.file
      ? { file: { filename: form.file.filename, contentType: form.file.contentType, bytes: form.file.bytes.length } }
      : {}),
  };
  const modelId = await ctx.takeModel(fields);
  const model = lookupModel(modelId, 'transcription');
  const file = form.file;
  if (!file)
    throw badRequest('file', "'file' is required (a multipart file part named 'file')", 'missing_required_parameter');
  const extension = (file.filename.match(/\.([A-Za-z0-9]+)$/)?.[1] ?? '').toLowerCase();
  if (!(AUDIO_EXTENSIONS as readonly string[]).includes(extension)) {
    throw badRequest(
      'file',
      `Unsupported file format '${extension || file.filename}'. Supported formats: ${AUDIO_EXTENSIONS.join(', ')}`,
      'unsupported_file_format',
    );
  }
  const format = fields.response_format || 'json';
  if (!FORMATS.includes(format))
    throw badRequest('response_format', `'response_format' must be one of ${FORMATS.join(', ')}; got '${format}'`);
  numberField(fields, 'temperature', 0, 1);
  const language = fields.language || 'en';
  if (!/^[a-z]{2}$/.test(language))
    throw badRequest('language', `'language' must be an ISO-639-1 code such as 'en'; got '${language}'`);
  const duration = audioDuration(extension, file.bytes);
  if (!duration)
    throw badRequest(
      'file',
      `The file ${file.filename} is not a valid WAV file (no RIFF/WAVE header with fmt and data chunks)`,
      'invalid_audio',
    );
  ctx.state.quota.ensure(ctx.key);
  ctx.state.quota.charge(ctx.key, (duration.seconds / 60) * (model.pricing.perMinute ?? 0));

  const seconds = Math.round(duration.seconds * 1000) / 1000;
  const text = simulatedTranscript(file.filename, seconds, fields.prompt);
  const words = timeWords(text, seconds);
  const segments = segmentsOf(words, text);
  const headers = { 'x-duration-method': duration.method };
  switch (format) {
    case 'text':
      return ctx.reply.send(200, 'text/plain; charset=utf-8', `${text}\n`, headers);
    case 'srt':
      return ctx.reply.send(200, 'text/plain; charset=utf-8', toSrt(segments), headers);
    case 'vtt':
      return ctx.reply.send(200, 'text/vtt; charset=utf-8', toVtt(segments), headers);
    case 'verbose_json':
      return ctx.reply.json(
        200,
        {
          task: 'transcribe',
          language,
          duration: seconds,
          text,
          segments: segments.map((s) => ({
            ...s,
            seek: 0,
            tokens: [],
            temperature: 0,
            avg_logprob: -0.1,
            compression_ratio: 1,
            no_speech_prob: 0.01,
          })),
          words,
        },
        headers,
      );
    default:
      return ctx.reply.json(
        200,
        { text, task: 'transcribe', language, duration: seconds, ...(model.words ? { words } : {}) },
        headers,
      );
  }
}

export const transcriptionRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/v1\/audio\/transcriptions$/,
    shape: 'openai',
    auth: true,
    faultFromModel: true,
    handle: handleTranscription,
  },
];
