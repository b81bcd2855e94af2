import * as assert from 'node:assert/strict';
import * as host from '../../src/shared/audioProtocol';
import { formatTime } from '../../src/webview/audio/playerView';

describe('audio player protocol', () => {
  it('accepts only well-formed messages from the webview', () => {
    assert.deepEqual(host.parseAudioToHostMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(
      host.parseAudioToHostMessage({ type: 'status', state: 'playing', part: 1, parts: 3, extra: 'x' }),
      { type: 'status', state: 'playing', part: 1, parts: 3 },
    );
    for (const bad of [
      null,
      'ready',
      {},
      { type: 'status', state: 'exploding', part: 0, parts: 1 },
      { type: 'status', state: 'paused', part: -1, parts: 1 },
      { type: 'status', state: 'paused', part: 0.5, parts: 1 },
      { type: 'runCommand', command: 'x' },
    ]) {
      assert.equal(host.parseAudioToHostMessage(bad), undefined, JSON.stringify(bad));
    }
  });

  it('lets only audio content types reach the webview Blob', () => {
    assert.equal(host.safeAudioType('audio/mpeg'), 'audio/mpeg');
    assert.equal(host.safeAudioType('Audio/WAV; charset=binary'), 'audio/wav');
    assert.equal(host.safeAudioType('text/html'), 'audio/mpeg');
    assert.equal(host.safeAudioType('audio/x"><script>'), 'audio/mpeg');
  });

  it('formats playback times', () => {
    assert.equal(formatTime(0), '0:00');
    assert.equal(formatTime(75.9), '1:15');
    assert.equal(formatTime(Number.NaN), '0:00');
    assert.equal(formatTime(Infinity), '0:00');
  });
});
