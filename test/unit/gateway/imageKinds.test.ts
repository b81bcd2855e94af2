// The local gateway's `images=` and `huge-body=` faults, as a plain HTTP client sees them (redirects
// are not followed here, so no request ever leaves the machine).
import * as assert from 'node:assert/strict';
import { get, post, useGateway } from './helpers';

const MODEL = 'sim-openai/dall-e-sim-3';

describe('local gateway: image kinds and huge bodies', function () {
  this.timeout(20_000);
  const gateway = useGateway();

  /** The links of answers with these kinds (at most 4 images per answer, as the gateway allows). */
  async function links(kinds: string): Promise<string[]> {
    const list = kinds.split(',');
    const urls: string[] = [];
    for (let at = 0; at < list.length; at += 4) {
      const part = list.slice(at, at + 4);
      const response = await post(gateway(), '/images/generations', {
        model: `${MODEL}::images=${part.join(',')}`,
        prompt: 'kinds',
        n: part.length,
      });
      assert.equal(response.status, 200);
      urls.push(...((await response.json()) as { data: { url: string }[] }).data.map((image) => image.url));
    }
    return urls;
  }

  it('serves real bytes with the declared (or lying) type, per image, in order', async () => {
    const urls = await links('jpeg,webp,gif,svg-as-png,html');
    const seen = await Promise.all(
      urls.map(async (url) => {
        const response = await fetch(url);
        const bytes = Buffer.from(await response.arrayBuffer());
        return [response.headers.get('content-type'), bytes.subarray(0, 4).toString('latin1')];
      }),
    );
    assert.deepEqual(seen, [
      ['image/jpeg', '\xff\xd8\xff\xe0'],
      ['image/webp', 'RIFF'],
      ['image/gif', 'GIF8'],
      ['image/png', '<?xm'],
      ['text/html; charset=utf-8', '<!DO'],
    ]);
  });

  it('redirects where each redirect kind says, without following anything itself', async () => {
    const urls = await links(
      'redirect,redirect-other-host,redirect-link-local,redirect-private,redirect-loop,redirect-file',
    );
    const targets = await Promise.all(
      urls.map(async (url) => (await fetch(url, { redirect: 'manual' })).headers.get('location') ?? ''),
    );
    assert.match(targets[0]!, /^\/files\/images\/[0-9a-f-]{36}\.png$/);
    assert.match(targets[1]!, /^http:\/\/localhost:\d+\/files\/images\/[0-9a-f-]{36}\.png$/);
    assert.match(targets[2]!, /^http:\/\/169\.254\.169\.254\//);
    assert.match(targets[3]!, /^http:\/\/10\.0\.0\.1\//);
    assert.equal(targets[4], new URL(urls[4]!).pathname);
    assert.equal(targets[5], 'file:///etc/passwd');
  });

  it('refuses an unknown kind with a 400 naming the header', async () => {
    const response = await post(
      gateway(),
      '/images/generations',
      { model: MODEL, prompt: 'p' },
      { 'x-gateway-fault': 'images=png,bmp' },
    );
    assert.equal(response.status, 400);
    assert.match(JSON.stringify(await response.json()), /unknown image kind 'bmp'.*"param":"x-gateway-fault"/);
  });

  it('pads a JSON answer to the asked size, still valid JSON, chunked', async () => {
    const response = await get(gateway(), '/quota', { 'x-gateway-fault': 'huge-body=100000' });
    assert.equal(response.headers.get('content-length'), null);
    const text = await response.text();
    assert.equal(text.length, 100_000);
    const body = JSON.parse(text) as { credits: number; padding: string };
    assert.equal(typeof body.credits, 'number');
  });
});
