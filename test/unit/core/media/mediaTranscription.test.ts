import * as assert from 'node:assert/strict';
import { audioUploadType, fileExtension, isTranscribableFile } from '../../../../src/core/media/audioFiles';
import { GatewayClient } from '../../../../src/core/transport/client';
import { InvalidRequestError } from '../../../../src/core/errors';
import { TRANSCRIPTION_LANGUAGES } from '../../../../src/core/media/languageCodes';
import { formatSeconds, subtitlePath, transcriptDocument, transcriptMarkdown } from '../../../../src/core/media/transcriptText';

describe('media: transcription', () => {
  describe('audio type checks', () => {
    it('accepts the gateway\'s audio extensions in any case, and nothing else', () => {
      for (const ok of ['a.mp3', 'A.WAV', '/x/talk.m4a', 'b.mp4', 'c.mpeg', 'd.mpga', 'e.webm', 'C:\\rec\\f.Wav']) assert.ok(isTranscribableFile(ok), ok);
      for (const bad of ['notes.txt', 'song.flac', 'song.ogg', 'wav', 'clip.wav.txt', 'mp3/readme', '']) assert.ok(!isTranscribableFile(bad), bad);
    });

    it('reads the extension of the last path segment only', () => {
      assert.equal(fileExtension('/a.b/c'), '');
      assert.equal(fileExtension('/a/b.tar.GZ'), 'gz');
      assert.equal(audioUploadType('x.m4a'), 'audio/mp4');
      assert.equal(audioUploadType('x.wav'), 'audio/wav');
      assert.equal(audioUploadType('x.bin'), 'application/octet-stream');
    });

    it('the client refuses a wrong file before anything is sent', async () => {
      const client = new GatewayClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
      await assert.rejects(client.audio.transcribe({ model: 'm', file: { data: new Uint8Array([1]), filename: 'notes.txt' } }), (error: unknown) => error instanceof InvalidRequestError && /\.wav/.test(error.message));
    });

    it('offers only well-formed ISO-639-1 codes, each once', () => {
      const codes = TRANSCRIPTION_LANGUAGES.map(([code]) => code);
      for (const code of codes) assert.match(code, /^[a-z]{2}$/);
      assert.equal(new Set(codes).size, codes.length);
    });
  });

  describe('result formatting', () => {
    const verbose = {
      text: 'Hello there | friend.',
      language: 'en',
      duration: 83.25,
      segments: [{ id: 0, start: 0, end: 1.5, text: ' Hello there |\nfriend.' }],
      words: [{ word: 'Hello', start: 0, end: 0.4 }, { word: 'there', start: 0.5, end: 0.9 }],
    };

    it('opens text, srt and vtt as sent, in their language modes', () => {
      assert.deepEqual(transcriptDocument('1\n00:00:00,000 --> 00:00:01,000\nHi\n', 'srt'), { content: '1\n00:00:00,000 --> 00:00:01,000\nHi\n', language: 'srt' });
      assert.equal(transcriptDocument('WEBVTT\n', 'vtt').language, 'vtt');
      assert.equal(transcriptDocument('Hi', 'text').language, 'plaintext');
    });

    it('opens json as pretty JSON, words and timestamps included', () => {
      const shown = transcriptDocument({ text: 'Hi', words: [{ word: 'Hi', start: 0, end: 0.3 }] }, 'json');
      assert.equal(shown.language, 'json');
      assert.deepEqual(JSON.parse(shown.content), { text: 'Hi', words: [{ word: 'Hi', start: 0, end: 0.3 }] });
    });

    it('shows verbose_json as markdown with segment and word tables', () => {
      const shown = transcriptDocument(verbose, 'verbose_json');
      assert.equal(shown.language, 'markdown');
      assert.match(shown.content, /Language: en · Duration: 1:23\.25/);
      assert.match(shown.content, /\| 0 \| 0\.00 \| 1\.50 \| Hello there \\\| friend\. \|/);
      assert.match(shown.content, /## Words\n\n\| Word \| Start \| End \|\n\|---\|---:\|---:\|\n\| Hello \| 0\.00 \| 0\.40 \|\n\| there \| 0\.50 \| 0\.90 \|/);
    });

    it('leaves out the tables a model did not give', () => {
      const plain = transcriptMarkdown({ text: 'Only text.' });
      assert.doesNotMatch(plain, /## (Words|Segments)/);
      assert.match(plain, /Only text\./);
    });

    it('formats seconds and names subtitle files after the audio', () => {
      assert.equal(formatSeconds(5), '5.00');
      assert.equal(formatSeconds(61.5), '1:01.50');
      assert.equal(formatSeconds(Number.NaN), '?');
      assert.equal(subtitlePath('/w/talks/intro.wav', 'srt'), '/w/talks/intro.srt');
      assert.equal(subtitlePath('/w/a.b/noext', 'vtt'), '/w/a.b/noext.vtt');
    });
  });
});
