// The local gateway's vision model: it answers with what it received (type, decoded size, sha256)
// on both endpoints, and refuses malformed image parts, and images sent to a model without image
// input, with a 400 in each endpoint's own error shape, as real providers do.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { encodePng } from '../../gateway/png';
import { get, json, post, useGateway } from './helpers';

const VISION = 'sim-openai/gpt-sim-vision';
const H = { 'anthropic-version': '2023-06-01' };
const PNG = encodePng(3, 2, new Uint8Array(18).fill(200));
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');

function echoLine(index: number, type: string, bytes: Buffer): string {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  return `- image ${index}: ${type}, ${bytes.length} bytes, sha256 ${hash}`;
}

function chatBody(parts: unknown[], model = VISION): Record<string, unknown> {
  return { model, messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, ...parts] }] };
}

function imageUrl(url: string): Record<string, unknown> {
  return { type: 'image_url', image_url: { url } };
}

function messagesBody(blocks: unknown[], model = VISION): Record<string, unknown> {
  return {
    model,
    max_tokens: 1000,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, ...blocks] }],
  };
}

function imageBlock(mediaType: unknown, data: unknown): Record<string, unknown> {
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data } };
}

describe('local gateway: the vision model (sim-openai/gpt-sim-vision)', () => {
  const gw = useGateway();

  it('lists image input in its catalog entry (OpenRouter modalities and the LiteLLM flag)', async () => {
    const res = await get(gw(), '/models');
    const models = (await json(res)).data as Array<Record<string, unknown>>;
    const vision = models.find((m) => m.id === VISION);
    assert.deepEqual(vision?.architecture, { input_modalities: ['text', 'image'], output_modalities: ['text'] });
    assert.equal(vision?.supports_vision, true);
    assert.equal(models.find((m) => m.id === 'sim-openai/gpt-sim-mini')?.supports_vision, undefined);
  });

  it('chat completions: answers with a line per image (type, decoded size, hash prefix)', async () => {
    const res = await post(
      gw(),
      '/chat/completions',
      chatBody([
        imageUrl(`data:image/png;base64,${PNG.toString('base64')}`),
        imageUrl(`data:image/gif;base64,${GIF.toString('base64')}`),
      ]),
    );
    assert.equal(res.status, 200);
    const text = (await json(res)).choices[0].message.content as string;
    assert.ok(text.includes('Received 2 images'), text);
    assert.ok(text.includes(echoLine(1, 'image/png', PNG)), text);
    assert.ok(text.includes(echoLine(2, 'image/gif', GIF)), text);
  });

  it('/messages: answers with the same lines for base64 image blocks', async () => {
    const res = await post(gw(), '/messages', messagesBody([imageBlock('image/png', PNG.toString('base64'))]), H);
    assert.equal(res.status, 200);
    const body = await json(res);
    const text = body.content[0].text as string;
    assert.ok(text.includes('Received 1 image '), text);
    assert.ok(text.includes(echoLine(1, 'image/png', PNG)), text);
    assert.ok((body.usage.input_tokens as number) >= 85, 'an image counts in the input tokens');
  });

  it('chat completions: refuses bad base64, a data URL without a media type, an unsupported type, and bytes of another type', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [imageUrl('data:image/png;base64,@@not base64@@'), /not valid base64/],
      [imageUrl(`data:;base64,${PNG.toString('base64')}`), /data URL with a media type/],
      [
        imageUrl(`data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}`),
        /unsupported image media type 'image\/svg\+xml'/,
      ],
      [
        imageUrl(`data:image/jpeg;base64,${PNG.toString('base64')}`),
        /does not match the provided media type image\/jpeg/,
      ],
      [imageUrl('https://example.com/cat.png'), /data URL/],
      [{ type: 'image_url' }, /image_url\.url' is required/],
    ];
    for (const [part, message] of cases) {
      const res = await post(gw(), '/chat/completions', chatBody([part]));
      assert.equal(res.status, 400, JSON.stringify(part));
      const error = (await json(res)).error;
      assert.equal(error.type, 'invalid_request_error');
      assert.match(error.message as string, message);
      assert.match(error.param as string, /^messages\[0\]\.content\[1\]/);
    }
  });

  it('/messages: refuses malformed image blocks in the Anthropic error shape', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [imageBlock('image/png', 'not_base64!'), /not valid base64/],
      [imageBlock(undefined, PNG.toString('base64')), /media_type: Field required/],
      [imageBlock('image/bmp', PNG.toString('base64')), /unsupported image media type 'image\/bmp'/],
      [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }, /must be "base64"/],
    ];
    for (const [block, message] of cases) {
      const res = await post(gw(), '/messages', messagesBody([block]), H);
      assert.equal(res.status, 400, JSON.stringify(block));
      const body = await json(res);
      assert.equal(body.type, 'error');
      assert.equal(body.error.type, 'invalid_request_error');
      assert.match(body.error.message as string, message);
    }
  });

  it('refuses an image sent to a model whose catalog lists no image input, on both endpoints', async () => {
    const data = PNG.toString('base64');
    const chat = await post(
      gw(),
      '/chat/completions',
      chatBody([imageUrl(`data:image/png;base64,${data}`)], 'sim-openai/gpt-sim-mini'),
    );
    assert.equal(chat.status, 400);
    assert.match((await json(chat)).error.message as string, /does not support image input/);
    const messages = await post(
      gw(),
      '/messages',
      messagesBody([imageBlock('image/png', data)], 'sim-anthropic/claude-sim-sonnet'),
      H,
    );
    assert.equal(messages.status, 400);
    assert.match((await json(messages)).error.message as string, /does not support image input/);
  });
});
