// M3: "at most 4096 characters" counts code points on both sides. Emoji are two UTF-16 units each,
// so text the client accepts (and every piece splitSpeechInput makes) must pass the gateway too,
// and the gateway charges per character, not per UTF-16 unit.
import * as assert from 'node:assert/strict';
import { startGateway } from '../../gateway/index';
import type { LocalGateway } from '../../gateway/index';
import { GatewayClient } from '../../../src/core/transport/client';
import { InvalidRequestError } from '../../../src/core/errors';
import { splitSpeechInput } from '../../../src/core/media/speechInput';

const TTS = 'sim-openai/tts-sim-1';
/** The catalog's price for TTS above, USD per million characters. */
const PER_MILLION_CHARS = 15;
const KEY = 'speech-emoji-key';

describe('core + gateway: speech input length in code points (M3)', function () {
  this.timeout(30_000);
  let gateway: LocalGateway;
  let client: GatewayClient;
  before(async () => {
    gateway = await startGateway({ keys: { [KEY]: { credits: 10 } } });
    client = new GatewayClient({ baseUrl: gateway.url, apiKey: KEY });
  });
  after(async () => {
    await gateway.stop();
  });

  it('4096 emoji pass the client and the gateway, which charges 4096 characters', async () => {
    const before = gateway.credits(KEY);
    const result = await client.audio.speech({
      model: TTS,
      voice: 'alloy',
      input: '😀'.repeat(4096),
      response_format: 'pcm',
      speed: 4,
    });
    assert.ok(result.data.byteLength > 0);
    const charged = before - gateway.credits(KEY);
    assert.ok(Math.abs(charged - (4096 * PER_MILLION_CHARS) / 1e6) < 1e-9, `charged ${charged}`);
  });

  it('4097 emoji are refused by both: the client before sending, the gateway with a 400 naming input', async () => {
    const input = '😀'.repeat(4097);
    await assert.rejects(
      client.audio.speech({ model: TTS, voice: 'alloy', input }),
      (error: unknown) => error instanceof InvalidRequestError && error.field === 'input',
    );
    const res = await fetch(`${gateway.apiUrl}/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: TTS, voice: 'alloy', input, response_format: 'pcm' }),
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { param: string } }).error.param, 'input');
  });

  it('every piece splitSpeechInput makes of emoji-heavy text is accepted by the gateway', async () => {
    const sentence = 'Grüße 👋🏽 aus 日本 🎌🍣🍜 und 🚀🚀🚀! ';
    const text = sentence.repeat(400);
    const pieces = splitSpeechInput(text);
    assert.ok(pieces.length >= 3, String(pieces.length));
    assert.ok(
      pieces.some((piece) => piece.length > 4096),
      'some piece is longer than 4096 UTF-16 units: the case that used to fail',
    );
    for (const piece of pieces) {
      const result = await client.audio.speech({
        model: TTS,
        voice: 'alloy',
        input: piece,
        response_format: 'pcm',
        speed: 4,
      });
      assert.ok(result.data.byteLength > 0);
    }
  });
});
