// The transcription upload is judged by its size (a stat) before the file is read.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/core/transport/client';
import { InvalidRequestError } from '../../../src/core/errors';
import { TRANSCRIPTION_CONFIRM_BYTES, TRANSCRIPTION_MAX_BYTES } from '../../../src/core/limits';
import { transcriptionUploadVerdict } from '../../../src/core/media/uploadSize';
import { rejectionOf } from './testUtil';

const MiB = 1024 * 1024;

describe('transcription upload size', () => {
  it('uploads up to 25 MiB, asks first above it, refuses above 256 MiB with what to do', () => {
    assert.deepEqual(transcriptionUploadVerdict('a.wav', TRANSCRIPTION_CONFIRM_BYTES), { kind: 'ok' });
    const ask = transcriptionUploadVerdict('talk.mp3', 30 * MiB);
    assert.equal(ask.kind, 'confirm');
    assert.match(
      ask.kind === 'confirm' ? ask.message : '',
      /^talk\.mp3 is 30 MB\. Gateways usually refuse audio over 25 MB \(HTTP 413\), after the whole upload\. Upload it anyway\?$/,
    );
    const refuse = transcriptionUploadVerdict('night.wav', 300 * MiB);
    assert.equal(refuse.kind, 'refuse');
    assert.match(
      refuse.kind === 'refuse' ? refuse.message : '',
      /^night\.wav is 300 MB: the most the extension uploads for transcription is 256 MB .*Split the audio or compress it/,
    );
    assert.equal(transcriptionUploadVerdict('x.wav', TRANSCRIPTION_MAX_BYTES).kind, 'confirm');
  });

  it('the client refuses bytes over the limit before sending anything', async () => {
    const client = new GatewayClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    // A literal size: the test must not lean on the constant it checks.
    const file = { data: new Uint8Array(256 * MiB + 1), filename: 'big.wav' };
    const error = await rejectionOf(client.audio.transcribe({ model: 'm', file }));
    assert.ok(error instanceof InvalidRequestError && error.field === 'file.data', String(error));
    assert.match(error.message, /file\.data is 268435457 bytes, more than the 256 MB the client uploads/);
  });
});
