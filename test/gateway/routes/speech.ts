import { pcmBytes, SPEECH_SAMPLE_RATE, synthesizeSpeech } from '../audioSynth';
import { lookupModel } from '../catalog';
import type { Route, RouteContext } from '../context';
import { badRequest } from '../errors';
import { encodeFlac } from '../flac';
import { encodeMp3 } from '../mp3';
import { characterCount, optionalNumber, optionalString, requireString } from '../validate';
import { encodeWav } from '../wav';

/** The formats the spec names, and the ones this simulator can honestly produce. */
const SPEC_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];
const SPEECH_FORMATS = ['mp3', 'flac', 'wav', 'pcm'] as const;
const CONTENT_TYPES: Record<(typeof SPEECH_FORMATS)[number], string> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};
const VOICE = /^[A-Za-z0-9_-]{1,64}$/;

async function handleSpeech(ctx: RouteContext): Promise<void> {
  const body = await ctx.jsonBody();
  const modelId = await ctx.takeModel(body);
  const model = lookupModel(modelId, 'speech');
  const input = requireString(body, 'input', { nonEmpty: true, maxLength: 4096 });
  // Named voices map to pitches; any other voice-id-shaped string is accepted as a raw provider voice id.
  const voice = requireString(body, 'voice', { nonEmpty: true });
  if (!VOICE.test(voice))
    throw badRequest('voice', `'voice' must be a voice name (alloy, echo, fable, onyx, nova, shimmer) or a voice id`);
  const speed = optionalNumber(body, 'speed', 0.25, 4) ?? 1;
  const format = optionalString(body, 'response_format') ?? 'mp3';
  if (!SPEC_FORMATS.includes(format))
    throw badRequest('response_format', `'response_format' must be one of ${SPEC_FORMATS.join(', ')}; got '${format}'`);
  if (!(SPEECH_FORMATS as readonly string[]).includes(format)) {
    throw badRequest(
      'response_format',
      `The local simulation cannot produce '${format}' audio; it can produce ${SPEECH_FORMATS.join(', ')}`,
      'unsupported_format',
    );
  }
  ctx.state.quota.ensure(ctx.key);
  // Priced per character (code point), the same count the length limit uses.
  ctx.state.quota.charge(ctx.key, (characterCount(input) * (model.pricing.perMillionChars ?? 0)) / 1e6);
  const samples = synthesizeSpeech(input, voice, speed);
  const kind = format as (typeof SPEECH_FORMATS)[number];
  const bytes =
    kind === 'wav'
      ? encodeWav(pcmBytes(samples), SPEECH_SAMPLE_RATE)
      : kind === 'pcm'
        ? pcmBytes(samples)
        : kind === 'flac'
          ? encodeFlac(samples, SPEECH_SAMPLE_RATE)
          : await encodeMp3(samples, SPEECH_SAMPLE_RATE);
  await ctx.reply.send(200, CONTENT_TYPES[kind], bytes, {
    'x-audio-sample-rate': SPEECH_SAMPLE_RATE,
    'x-audio-duration-seconds': (samples.length / SPEECH_SAMPLE_RATE).toFixed(3),
  });
}

export const speechRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/v1\/audio\/speech$/,
    shape: 'openai',
    auth: true,
    faultFromModel: true,
    handle: handleSpeech,
  },
];
