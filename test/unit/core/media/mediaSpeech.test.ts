import * as assert from 'node:assert/strict';
import { MAX_SPEECH_INPUT, splitSpeechInput } from '../../../../src/core/media/speechInput';
import { concatBytes, joinSpeechParts, joinWav, readWav } from '../../../../src/core/media/audioJoin';
import { numberedPath, parseSpeedText, readingTitle, readSpeechMemory, rememberedFirst, speedProblem, voiceIdProblem, isPlayableFormat } from '../../../../src/core/media/speechOptions';
import { SPEECH_FORMATS } from '../../../../src/core/media/audioFiles';
import { encodeWav, parseWav } from '../../../gateway/wav';

/** Prose of numbered sentences, so order and completeness can be checked after splitting. */
function prose(sentences: number): string {
  return Array.from({ length: sentences }, (_, i) => `Sentence number ${i + 1} says something worth hearing, and then it stops.`).join(' ');
}

describe('media: read aloud', () => {
  describe('splitting long text at 4096 characters (core splitSpeechInput, default limit)', () => {
    it('cuts only at sentence ends, keeps every sentence once and in order', () => {
      const text = prose(300); // about 22,000 characters
      const parts = splitSpeechInput(text);
      assert.ok(parts.length >= 5, `${parts.length} parts`);
      for (const part of parts) {
        assert.ok(Array.from(part).length <= MAX_SPEECH_INPUT, `part of ${part.length}`);
        assert.match(part, /^Sentence number \d+ .*stops\.$/, 'starts and ends on a sentence boundary');
      }
      assert.equal(parts.join(' '), text);
    });

    it('leaves text of exactly 4096 characters whole, and splits 4097', () => {
      const exact = `${'a'.repeat(2000)}. ${'b'.repeat(2093)}.`;
      assert.equal(exact.length, MAX_SPEECH_INPUT);
      assert.deepEqual(splitSpeechInput(exact), [exact]);
      const over = `${exact}c`;
      assert.deepEqual(splitSpeechInput(over), [`${'a'.repeat(2000)}.`, `${'b'.repeat(2093)}.c`]);
    });
  });

  describe('options', () => {
    it('accepts speeds from 0.25 to 4 only', () => {
      for (const ok of ['0.25', '1', ' 1.5 ', '4', '.5']) assert.equal(speedProblem(ok), undefined, ok);
      for (const bad of ['0.2', '4.01', '', 'fast', '-1', '1e0', 'NaN', '2x']) assert.ok(speedProblem(bad), bad);
      assert.equal(parseSpeedText('0.75'), 0.75);
      assert.equal(parseSpeedText('5'), undefined);
    });

    it('takes a raw voice id but nothing that is not one', () => {
      assert.equal(voiceIdProblem('21m00Tcm4TlvDq8ikWAM'), undefined);
      assert.equal(voiceIdProblem('en-US-Neural2-A'), undefined);
      for (const bad of ['', '   ', 'two words', 'x\ny', 'a'.repeat(129)]) assert.ok(voiceIdProblem(bad), JSON.stringify(bad));
    });

    it('plays everything but raw PCM', () => {
      assert.deepEqual((['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const).filter(isPlayableFormat), ['mp3', 'opus', 'aac', 'flac', 'wav']);
    });

    it('numbers part files before the extension, and titles a reading by its first line', () => {
      assert.equal(numberedPath('/w/speech.flac', 0), '/w/speech-1.flac');
      assert.equal(numberedPath('/w.d/speech', 2), '/w.d/speech-3');
      assert.equal(readingTitle('First line\nsecond', 'x'), 'First line');
      assert.equal(readingTitle('  ', 'Selection'), 'Selection');
      assert.equal(readingTitle('y'.repeat(100), 'x').length, 80);
    });
  });

  describe('joining parts into one file', () => {
    const tone = (samples: number, value: number): Buffer => Buffer.from(new Int16Array(samples).fill(value).buffer);

    it('joins WAV parts into one valid WAV with all samples in order', () => {
      const a = encodeWav(tone(100, 1), 24_000);
      const b = encodeWav(tone(50, 2), 24_000);
      const joined = joinWav([a, b]);
      assert.ok(joined);
      const info = parseWav(Buffer.from(joined));
      assert.equal(info?.sampleRate, 24_000);
      assert.equal(info?.dataBytes, 300);
      const data = readWav(joined)?.data;
      assert.deepEqual([...new Int16Array(Uint8Array.from(data ?? []).buffer)].slice(98, 102), [1, 1, 2, 2]);
    });

    it('refuses to join WAVs of different formats, or bytes that are not WAV', () => {
      assert.equal(joinWav([encodeWav(tone(10, 1), 24_000), encodeWav(tone(10, 1), 16_000)]), undefined);
      assert.equal(joinWav([encodeWav(tone(10, 1), 24_000), new Uint8Array([1, 2, 3])]), undefined);
      assert.equal(readWav(new TextEncoder().encode('RIFF....WAVEjunk')), undefined);
    });

    it('concatenates PCM and MP3, keeps one part as is, and saves FLAC/Opus/AAC per part', () => {
      const one = new Uint8Array([1, 2]);
      const two = new Uint8Array([3]);
      assert.deepEqual(joinSpeechParts('pcm', [one, two]), new Uint8Array([1, 2, 3]));
      assert.deepEqual(joinSpeechParts('mp3', [one, two]), concatBytes([one, two]));
      assert.equal(joinSpeechParts('flac', [one]), one);
      for (const format of ['flac', 'opus', 'aac'] as const) assert.equal(joinSpeechParts(format, [one, two]), undefined, format);
    });
  });

  describe('the last choices (kept in extension state, read back as untrusted)', () => {
    it('keeps a valid voice id, format and speed, and nothing else', () => {
      assert.deepEqual(readSpeechMemory({ voice: 'onyx', format: 'flac', speed: 1.25 }), { voice: 'onyx', format: 'flac', speed: 1.25 });
      assert.deepEqual(readSpeechMemory({ voice: 'a voice; rm -rf', format: 'ogg', speed: 9, key: 'sk-x' }), {});
      assert.deepEqual(readSpeechMemory({ voice: 'my-cloned-voice', speed: '1' }), { voice: 'my-cloned-voice' });
      for (const stored of [undefined, null, 'onyx', 3, []]) assert.deepEqual(readSpeechMemory(stored), {});
    });

    it('offers the remembered value first, the others in their order; an unknown one changes nothing', () => {
      assert.deepEqual(rememberedFirst(SPEECH_FORMATS, 'wav'), ['wav', 'mp3', 'opus', 'aac', 'flac', 'pcm']);
      assert.deepEqual(rememberedFirst(SPEECH_FORMATS.filter(isPlayableFormat), 'pcm'), ['mp3', 'opus', 'aac', 'flac', 'wav']);
      assert.deepEqual(rememberedFirst(['a', 'b'], undefined), ['a', 'b']);
    });
  });
});
