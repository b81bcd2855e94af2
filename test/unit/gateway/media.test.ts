import * as assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { json, post, useGateway, type Json } from './helpers';
import type { LocalGateway } from '../../gateway/index';

const TTS = 'sim-openai/tts-sim-1';
const WHISPER = 'sim-openai/whisper-sim-1';

async function speak(gw: LocalGateway, body: Json): Promise<{ status: number; type: string; bytes: Buffer }> {
  const res = await post(gw, '/audio/speech', { model: TTS, voice: 'alloy', ...body });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

function transcribe(
  gw: LocalGateway,
  file: Buffer,
  filename: string,
  fields: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  form.append('model', fields.model ?? WHISPER);
  for (const [k, v] of Object.entries(fields)) if (k !== 'model') form.append(k, v);
  form.append('file', new Blob([new Uint8Array(file)]), filename);
  return fetch(`${gw.apiUrl}/audio/transcriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.apiKey}` },
    body: form,
  });
}

/** Reads a FLAC stream of VERBATIM 16-bit mono frames back into samples, checking both CRCs of every frame. */
function decodeVerbatimFlac(bytes: Buffer): { sampleRate: number; total: number; samples: number[] } {
  assert.equal(bytes.toString('ascii', 0, 4), 'fLaC');
  const sampleRate = (bytes.readUInt32BE(18) >>> 12) & 0xfffff;
  const total = bytes.readUInt32BE(22);
  const samples: number[] = [];
  let offset = 42;
  const crc16 = (data: Buffer): number => {
    let crc = 0;
    for (const byte of data) {
      crc ^= byte << 8;
      for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
    }
    return crc;
  };
  while (offset < bytes.length) {
    assert.equal(bytes.readUInt16BE(offset), 0xfff8, 'frame sync');
    const blockCode = (bytes[offset + 2] ?? 0) >> 4;
    let p = offset + 4;
    const first = bytes[p] ?? 0;
    p += first < 0x80 ? 1 : first < 0xe0 ? 2 : 3; // frame number, UTF-8 coded
    let count = 4096;
    if (blockCode === 0b0111) {
      count = bytes.readUInt16BE(p) + 1;
      p += 2;
    }
    p += 1; // CRC-8
    assert.equal(bytes[p], 0x02, 'VERBATIM subframe');
    p += 1;
    for (let i = 0; i < count; i++) samples.push(bytes.readInt16BE(p + i * 2));
    p += count * 2;
    assert.equal(bytes.readUInt16BE(p), crc16(bytes.subarray(offset, p)), 'frame CRC-16');
    offset = p + 2;
  }
  return { sampleRate, total, samples };
}

describe('local gateway: speech and transcription', () => {
  const gw = useGateway({ maxUploadBytes: 400_000 });

  it('synthesizes a WAV whose duration grows with the input and shrinks with speed', async () => {
    const short = await speak(gw(), { input: 'Hello there.', response_format: 'wav' });
    assert.equal(short.status, 200);
    assert.equal(short.type, 'audio/wav');
    assert.equal(short.bytes.toString('ascii', 0, 4), 'RIFF');
    assert.equal(short.bytes.toString('ascii', 8, 12), 'WAVE');
    assert.equal(short.bytes.readUInt32LE(24), 24000);
    const long = await speak(gw(), {
      input: 'Hello there. This sentence is quite a lot longer than the first one was.',
      response_format: 'wav',
    });
    const fast = await speak(gw(), {
      input: 'Hello there. This sentence is quite a lot longer than the first one was.',
      response_format: 'wav',
      speed: 2,
    });
    assert.ok(long.bytes.length > short.bytes.length * 2);
    assert.ok(
      Math.abs(fast.bytes.length - 44 - (long.bytes.length - 44) / 2) < 200,
      'twice the speed, half the samples',
    );
    const pcm = new Int16Array(short.bytes.buffer, short.bytes.byteOffset + 44, (short.bytes.length - 44) / 2);
    assert.ok(
      pcm.some((s) => Math.abs(s) > 5000),
      'not silence',
    );
  });

  it('round-trips: the transcription of a synthesized WAV reports its duration from the header', async () => {
    const wav = await speak(gw(), { input: 'One two three four five six seven eight.', response_format: 'wav' });
    const seconds = (wav.bytes.length - 44) / 48000;
    const res = await transcribe(gw(), wav.bytes, 'speech.wav');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-duration-method'), 'wav-header');
    const body = await json(res);
    assert.equal(body.task, 'transcribe');
    assert.equal(body.language, 'en');
    assert.ok(Math.abs((body.duration as number) - seconds) < 0.01, `${body.duration} vs ${seconds}`);
    assert.match(body.text as string, /simulation/);
    const words = body.words as Json[];
    assert.ok(words.length > 3);
    assert.ok((words[words.length - 1]?.end as number) <= seconds + 0.01);
  });

  it('returns pcm raw, flac as real verbatim frames, mp3 as MPEG frames, and 400 for opus/aac', async () => {
    const input = 'Testing every format.';
    const wav = await speak(gw(), { input, response_format: 'wav' });
    const pcm = await speak(gw(), { input, response_format: 'pcm' });
    assert.equal(pcm.type, 'audio/pcm');
    assert.deepEqual(pcm.bytes, wav.bytes.subarray(44));
    const flac = await speak(gw(), { input, response_format: 'flac' });
    assert.equal(flac.type, 'audio/flac');
    const decoded = decodeVerbatimFlac(flac.bytes);
    assert.equal(decoded.sampleRate, 24000);
    assert.equal(decoded.total, pcm.bytes.length / 2);
    assert.deepEqual(
      decoded.samples,
      Array.from(new Int16Array(pcm.bytes.buffer, pcm.bytes.byteOffset, pcm.bytes.length / 2)),
    );
    const mp3 = await speak(gw(), { input }); // mp3 is the default
    assert.equal(mp3.type, 'audio/mpeg');
    assert.equal(mp3.bytes[0], 0xff);
    assert.equal((mp3.bytes[1] ?? 0) & 0xe0, 0xe0, 'MPEG frame sync');
    const viaMp3 = await json(await transcribe(gw(), mp3.bytes, 'speech.mp3'));
    assert.ok(Math.abs((viaMp3.duration as number) - decoded.total / 24000) < 0.2, 'mp3 duration from its frames');
    for (const format of ['opus', 'aac']) {
      const res = await speak(gw(), { input, response_format: format });
      assert.equal(res.status, 400);
      const error = JSON.parse(res.bytes.toString('utf8')) as Json;
      assert.equal(error.error.param, 'response_format');
      assert.match(error.error.message as string, /mp3, flac, wav, pcm/);
    }
  });

  it('validates speech input length and speed', async () => {
    const tooLong = await speak(gw(), { input: 'a'.repeat(4097), response_format: 'wav' });
    assert.equal(tooLong.status, 400);
    assert.equal((JSON.parse(tooLong.bytes.toString()) as Json).error.param, 'input');
    for (const speed of [0.1, 4.5]) {
      const res = await speak(gw(), { input: 'x', speed, response_format: 'wav' });
      assert.equal(res.status, 400);
      assert.equal((JSON.parse(res.bytes.toString()) as Json).error.param, 'speed');
    }
    assert.equal((await speak(gw(), { input: 'x'.repeat(4096), speed: 4, response_format: 'pcm' })).status, 200);
  });

  it('answers every transcription response_format with its content type', async () => {
    const wav = (
      await speak(gw(), {
        input: 'Format check, one two three four five six seven eight nine ten eleven twelve.',
        response_format: 'wav',
      })
    ).bytes;
    const text = await transcribe(gw(), wav, 'a.wav', { response_format: 'text' });
    assert.match(text.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await text.text(), /simulation/);
    const srt = await transcribe(gw(), wav, 'a.wav', { response_format: 'srt' });
    assert.match(await srt.text(), /^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n/);
    const vtt = await transcribe(gw(), wav, 'a.wav', { response_format: 'vtt' });
    assert.match(vtt.headers.get('content-type') ?? '', /^text\/vtt/);
    assert.match(await vtt.text(), /^WEBVTT\n\n\d\d:\d\d:\d\d\.\d{3} --> /);
    const verbose = await transcribe(gw(), wav, 'a.wav', { response_format: 'verbose_json', language: 'de' });
    assert.match(verbose.headers.get('content-type') ?? '', /^application\/json/);
    const body = await json(verbose);
    assert.equal(body.language, 'de');
    assert.ok((body.segments as Json[]).length >= 2);
    assert.ok((body.words as Json[]).length > 5);
  });

  it('rejects a non-audio extension, a broken WAV, a bad response_format, and a file over the limit (413)', async () => {
    const notAudio = await transcribe(gw(), Buffer.from('hello'), 'notes.txt');
    assert.equal(notAudio.status, 400);
    assert.equal((await json(notAudio)).error.param, 'file');
    const broken = await transcribe(gw(), Buffer.from('not a riff header at all'), 'x.wav');
    assert.equal(broken.status, 400);
    const format = await transcribe(gw(), Buffer.alloc(100), 'x.webm', { response_format: 'xml' });
    assert.equal((await json(format)).error.param, 'response_format');
    const big = await transcribe(gw(), Buffer.alloc(500_000), 'big.webm');
    assert.equal(big.status, 413);
    assert.match((await json(big)).error.message as string, /limit/);
  });

  it('estimates the duration of other accepted formats from their size', async () => {
    const res = await transcribe(gw(), Buffer.alloc(32_000), 'clip.m4a');
    assert.equal(res.headers.get('x-duration-method'), 'size-estimate');
    assert.equal((await json(res)).duration, 2);
  });
});

describe('local gateway: images', () => {
  const gw = useGateway();

  function ihdr(png: Buffer): { width: number; height: number } {
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    assert.equal(png.toString('ascii', 12, 16), 'IHDR');
    return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  }

  it('returns b64_json PNGs of the requested size with a revised_prompt', async () => {
    const body = await json(
      await post(gw(), '/images/generations', {
        model: 'sim-openai/dall-e-sim-3',
        prompt: 'a red fox in snow',
        size: '1792x1024',
        response_format: 'b64_json',
      }),
    );
    const item = body.data[0] as Json;
    assert.match(item.revised_prompt as string, /red fox/);
    const png = Buffer.from(item.b64_json as string, 'base64');
    assert.deepEqual(ihdr(png), { width: 1792, height: 1024 });
    const idat = png.indexOf('IDAT');
    const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    assert.equal(raw.length, (1792 * 3 + 1) * 1024, 'the pixel data inflates to the stated size');
  });

  it('serves url images from its own address, without a key', async () => {
    const body = await json(
      await post(gw(), '/images/generations', { model: 'sim-openai/dall-e-sim-3', prompt: 'a lighthouse', n: 2 }),
    );
    assert.equal(body.data.length, 2);
    const url = body.data[0].url as string;
    assert.ok(url.startsWith(gw().url));
    const res = await fetch(url);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.deepEqual(ihdr(Buffer.from(await res.arrayBuffer())), { width: 1024, height: 1024 });
    assert.notEqual(url, body.data[1].url);
  });

  it('rejects an unknown size naming the field', async () => {
    const res = await post(gw(), '/images/generations', {
      model: 'sim-openai/dall-e-sim-3',
      prompt: 'x',
      size: '10x10',
    });
    assert.equal(res.status, 400);
    assert.equal((await json(res)).error.param, 'size');
  });
});
