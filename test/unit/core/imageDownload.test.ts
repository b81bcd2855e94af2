// Image links from the gateway, downloaded by the client against the local gateway's `images=`
// kinds: types read from bytes, every refusal (address, scheme, credentials, redirects, type,
// size, time), redirect targets checked again, and the key kept to the gateway's own origin.
// All connections go through a dispatcher that only reaches 127.0.0.1: a refusal that failed to
// happen would show up as a failed connection, never as traffic leaving the machine.
import * as assert from 'node:assert/strict';
import { createDispatcher } from '../../../src/core/net/dispatcher';
import { GatewayClient } from '../../../src/core/transport/client';
import { ImageDownloadError, ResponseTooLargeError, TimeoutError } from '../../../src/core/errors';
import { ImageDownloader } from '../../../src/core/images/imageDownloader';
import type { DownloadedImage, ImageDownloadOptions } from '../../../src/core/images/imageDownloader';
import type { GeneratedImage } from '../../../src/core/types/media';
import { FAULT_HEADER, startGateway } from '../../gateway/index';
import type { LocalGateway, RequestRecord } from '../../gateway/index';
import { HUGE_IMAGE_BYTES } from '../../gateway/imageLinks';
import { startConnectProxy } from '../../harness/connectProxy';
import type { ConnectProxy } from '../../harness/connectProxy';
import { loopbackOnlyAgent } from './loopbackOnly';
import { rejectionOf } from './testUtil';

const MODEL = 'sim-openai/dall-e-sim-3';

describe('image downloads (client against the local gateway)', function () {
  this.timeout(30_000);
  let gateway: LocalGateway;
  let client: GatewayClient;
  const agent = loopbackOnlyAgent();

  before(async () => {
    gateway = await startGateway();
    client = new GatewayClient({
      baseUrl: gateway.url,
      apiKey: gateway.apiKey,
      dispatcher: agent,
      headers: { 'x-team': 'research' },
    });
  });
  after(async () => {
    await gateway.stop();
    await agent.destroy();
  });

  /** One generation answer whose images are of these kinds (small images: 1024x1024 is the smallest size). */
  async function imagesOf(...kinds: string[]): Promise<GeneratedImage[]> {
    const answer = await client.images.generate(
      { model: MODEL, prompt: 'a lighthouse', n: kinds.length },
      { headers: { [FAULT_HEADER]: `images=${kinds.join(',')}` } },
    );
    return answer.data;
  }

  async function download(kind: string, options?: ImageDownloadOptions): Promise<DownloadedImage> {
    const [image] = await imagesOf(kind);
    gateway.clearRequests();
    return client.images.download(image!, options);
  }

  async function refusal(kind: string, options?: ImageDownloadOptions): Promise<ImageDownloadError> {
    const error = await rejectionOf(download(kind, options));
    assert.ok(error instanceof ImageDownloadError, `${kind}: expected ImageDownloadError, got ${String(error)}`);
    return error;
  }

  const fileRequests = (): RequestRecord[] => gateway.requests.filter((r) => r.path.startsWith('/files/'));

  it('reads the type from the bytes: PNG, JPEG, WebP and GIF, each with its extension', async () => {
    const images = await imagesOf('png', 'jpeg', 'webp', 'gif');
    const got = await Promise.all(images.map((image) => client.images.download(image)));
    assert.deepEqual(
      got.map((image) => [image.type.label, image.type.extension, image.type.mime]),
      [
        ['PNG', 'png', 'image/png'],
        ['JPEG', 'jpg', 'image/jpeg'],
        ['WebP', 'webp', 'image/webp'],
        ['GIF', 'gif', 'image/gif'],
      ],
    );
    assert.deepEqual([...got[1]!.bytes.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    assert.equal(Buffer.from(got[2]!.bytes.subarray(8, 12)).toString('latin1'), 'WEBP');
  });

  it('refuses SVG and HTML, also when the link and the Content-Type say PNG', async () => {
    for (const [kind, what] of [
      ['svg', 'an SVG image'],
      ['svg-as-png', 'an SVG image'],
      ['html', 'an HTML page'],
    ] as const) {
      const error = await refusal(kind);
      assert.equal(error.reason, 'type', kind);
      assert.match(
        error.message,
        new RegExp(
          `^The file from 127\\.0\\.0\\.1:\\d+ is ${what}, not a PNG, JPEG, WebP or GIF image, so it was not kept`,
        ),
        kind,
      );
    }
  });

  it('decodes b64_json and types it the same way', async () => {
    const answer = await client.images.generate(
      { model: MODEL, prompt: 'inline', n: 2, response_format: 'b64_json' },
      { headers: { [FAULT_HEADER]: 'images=gif,svg' } },
    );
    assert.equal((await client.images.download(answer.data[0]!)).type.label, 'GIF');
    assert.equal(((await rejectionOf(client.images.download(answer.data[1]!))) as ImageDownloadError).reason, 'type');
  });

  it('follows a redirect on the gateway with the key, and one to another host without it (or the extra headers)', async () => {
    assert.equal((await download('redirect')).type.label, 'PNG');
    const [hop1, hop2] = fileRequests();
    assert.equal(hop1?.headers.authorization, 'Bearer [redacted]', 'the gateway origin gets the key');
    assert.equal(hop2?.headers.authorization, 'Bearer [redacted]', 'still the gateway origin');

    assert.equal((await download('redirect-other-host')).type.label, 'PNG');
    const [first, second] = fileRequests();
    assert.match(first?.headers.host ?? '', /^127\.0\.0\.1:/);
    assert.equal(first?.headers['x-team'], 'research');
    assert.match(second?.headers.host ?? '', /^localhost:/, 'the redirect went to another host name');
    assert.equal(second?.headers.authorization, undefined, 'no key for another host');
    assert.equal(second?.headers['x-api-key'], undefined);
    assert.equal(second?.headers['x-team'], undefined, 'no extra headers for another host');
  });

  it('never sends the key (either header) to a host that is not the gateway, even when the first link is elsewhere', async () => {
    const keyed = new GatewayClient({
      baseUrl: gateway.url,
      apiKey: gateway.apiKey,
      authHeader: 'x-api-key',
      dispatcher: agent,
    });
    const [image] = await imagesOf('png');
    const elsewhere = image!.url!.replace('127.0.0.1', 'localhost');
    gateway.clearRequests();
    assert.equal((await keyed.images.download({ url: elsewhere })).type.label, 'PNG');
    assert.deepEqual(
      fileRequests().map((r) => [r.headers['x-api-key'], r.headers.authorization]),
      [[undefined, undefined]],
    );
  });

  it('refuses a redirect to a link-local or private address before connecting', async () => {
    for (const [kind, pattern] of [
      ['redirect-link-local', /169\.254\.169\.254: that is a link-local address/],
      ['redirect-private', /10\.0\.0\.1: that is a private network address/],
    ] as const) {
      const error = await refusal(kind);
      assert.equal(error.reason, 'address', kind);
      assert.match(error.message, pattern);
      assert.match(error.message, /the gateway \(127\.0\.0\.1:\d+\) is not on such a network/);
      assert.equal(fileRequests().length, 1, `${kind}: only the gateway's redirect was requested`);
    }
    assert.equal((await refusal('link-local-url')).reason, 'address');
  });

  it('refuses links that are not http(s) or carry a user name, directly or by redirect', async () => {
    assert.match((await refusal('file-url')).message, /it is file: and only http\(s\) links/);
    assert.equal((await refusal('redirect-file')).reason, 'scheme');
    const [image] = await imagesOf('png');
    const withUser = image!.url!.replace('http://', 'http://user:secret@');
    const error = await rejectionOf(client.images.download({ url: withUser }));
    assert.ok(error instanceof ImageDownloadError && error.reason === 'credentials', String(error));
  });

  it('stops a redirect loop after 3 redirects', async () => {
    const error = await refusal('redirect-loop');
    assert.equal(error.reason, 'redirects');
    assert.match(error.message, /redirected more than 3 times/);
    assert.equal(fileRequests().length, 4, 'the link and 3 redirects');
  });

  it('stops reading a huge image at the cap and closes the connection, chunked or declared', async () => {
    for (const kind of ['huge', 'huge-declared']) {
      const error = await rejectionOf(download(kind));
      assert.ok(error instanceof ResponseTooLargeError, `${kind}: ${String(error)}`);
      assert.match(
        error.message,
        /^The image from 127\.0\.0\.1:\d+ is (larger than 20 MB|256 MB), more than the 20 MB the extension reads for it/,
      );
      const [record] = fileRequests();
      assert.equal(await record?.closed, 'aborted', kind);
      assert.ok((record?.bytesWritten ?? 0) < HUGE_IMAGE_BYTES, `${kind}: ${record?.bytesWritten} bytes written`);
    }
  });

  it('gives up on a link that never answers when the time is up, and closes the connection', async () => {
    const error = await rejectionOf(download('hang', { timeoutMs: 300 }));
    assert.ok(error instanceof TimeoutError, String(error));
    assert.match(error.message, /^The image from 127\.0\.0\.1:\d+ did not arrive within 300 ms\. Try again/);
    assert.equal(await fileRequests()[0]?.closed, 'aborted');
  });

  it('a cancel ends a download at once, as an AbortError', async () => {
    const [image] = await imagesOf('hang');
    const controller = new AbortController();
    const pending = client.images.download(image!, { signal: controller.signal });
    const record = await gateway.waitForRequest((r) => r.path.startsWith('/files/links/hang/'));
    controller.abort();
    const error = await rejectionOf(pending);
    assert.equal((error as Error).name, 'AbortError');
    assert.equal(await record.closed, 'aborted');
  });

  it('downloads each image of a mixed answer on its own: the good ones arrive, each failure says why', async () => {
    const images = await imagesOf('png', 'svg', 'jpeg', 'redirect-link-local');
    const results = await Promise.allSettled(images.map((image) => client.images.download(image)));
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value.type.label : (r.reason as ImageDownloadError).reason)),
      ['PNG', 'type', 'JPEG', 'address'],
    );
  });
});

describe('image downloads: where a link may go (gateway on a public address, fake DNS)', function () {
  this.timeout(20_000);
  let gateway: LocalGateway;
  const agent = loopbackOnlyAgent();
  const dns: Record<string, string> = {
    'gateway.example.test': '93.184.216.34',
    'images.example.test': '127.0.0.1',
    'metadata.example.test': '169.254.169.254',
    'intranet.example.test': '10.1.2.3',
  };
  const looked: string[] = [];
  const lookup = async (hostname: string): Promise<{ address: string; family: number }[]> => {
    looked.push(hostname);
    const address = dns[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  };

  before(async () => {
    gateway = await startGateway();
  });
  after(async () => {
    await gateway.stop();
    await agent.destroy();
  });

  const downloader = (gatewayUrl: string): ImageDownloader =>
    new ImageDownloader({ gatewayUrl, dispatcher: agent, userAgent: 'test', lookup });

  it('refuses loopback links, by literal address, by localhost and by what DNS answers at connect time', async () => {
    const images = downloader('https://gateway.example.test/api/v1');
    const port = new URL(gateway.url).port;
    for (const link of [
      `http://127.0.0.1:${port}/files/images/x.png`,
      `http://localhost:${port}/x.png`,
      `http://[::ffff:127.0.0.1]:${port}/x.png`,
      `http://images.example.test:${port}/x.png`,
    ]) {
      const error = await rejectionOf(images.download(link));
      assert.ok(error instanceof ImageDownloadError && error.reason === 'address', `${link}: ${String(error)}`);
      assert.match(
        error.message,
        /loopback address \(this machine\), and the gateway \(gateway\.example\.test\) is not on such a network/,
      );
    }
    assert.match(
      String(await rejectionOf(images.download(`http://images.example.test:${port}/x.png`))),
      /images\.example\.test \(127\.0\.0\.1\)/,
      'names the address DNS gave',
    );
    for (const host of ['metadata.example.test', 'intranet.example.test']) {
      assert.equal(
        ((await rejectionOf(images.download(`http://${host}/latest`))) as ImageDownloadError).reason,
        'address',
        host,
      );
    }
    assert.deepEqual(gateway.requests, [], 'nothing reached the local gateway');
  });

  it('keeps its deadline when DNS never answers', async () => {
    const stuck = new ImageDownloader({
      gatewayUrl: 'https://gateway.example.test',
      dispatcher: agent,
      userAgent: 'test',
      lookup: (hostname) => (hostname === 'gateway.example.test' ? lookup(hostname) : new Promise(() => undefined)),
    });
    const error = await rejectionOf(stuck.download('http://slow.example.test/x.png', { timeoutMs: 200 }));
    assert.ok(error instanceof TimeoutError, String(error));
  });

  it("allows the gateway's own kind of network: a loopback gateway may link to localhost", async () => {
    const image = (
      await new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, dispatcher: agent }).images.generate({
        model: MODEL,
        prompt: 'p',
      })
    ).data[0]!;
    const local = downloader(gateway.url);
    assert.equal((await local.download(image.url!.replace('127.0.0.1', 'images.example.test'))).type.label, 'PNG');
    assert.ok(looked.includes('images.example.test'), 'the name was resolved by the checked lookup');
  });
});

describe("image downloads through the gateway client's proxy (the same network path)", function () {
  this.timeout(20_000);
  let gateway: LocalGateway;
  let proxy: ConnectProxy;

  before(async () => {
    gateway = await startGateway();
    proxy = await startConnectProxy();
  });
  after(async () => {
    await proxy.stop();
    await gateway.stop();
  });

  it('sends the image requests, redirects included, through the proxy; literal addresses are still checked', async () => {
    const dispatcher = createDispatcher({ proxyUrl: proxy.url });
    try {
      const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, dispatcher });
      const answer = await client.images.generate(
        { model: MODEL, prompt: 'proxied', n: 2 },
        { headers: { [FAULT_HEADER]: 'images=redirect-other-host,redirect-link-local' } },
      );
      proxy.requests.length = 0;
      assert.equal((await client.images.download(answer.data[0]!)).type.label, 'PNG');
      assert.deepEqual(
        proxy.requests.map((uri) => new URL(uri).hostname),
        ['127.0.0.1', 'localhost'],
        'both hops went through the proxy (which resolved localhost)',
      );
      const refused = await rejectionOf(client.images.download(answer.data[1]!));
      assert.ok(refused instanceof ImageDownloadError && refused.reason === 'address', String(refused));
      assert.ok(
        !proxy.requests.some((uri) => uri.includes('169.254')),
        'the link-local hop was never asked of the proxy',
      );
    } finally {
      await dispatcher.close();
    }
  });

  it('refuses a link by a host name that resolves to loopback here, before the proxy is asked; a public name goes through it', async () => {
    const dispatcher = createDispatcher({ proxyUrl: proxy.url });
    const dns: Record<string, string> = {
      'gateway.example.test': '93.184.216.34',
      'rebound.example.test': '127.0.0.1',
      'cdn.example.test': '93.184.216.35',
    };
    const lookup = async (hostname: string): Promise<{ address: string; family: number }[]> =>
      dns[hostname] ? [{ address: dns[hostname], family: 4 }] : [];
    try {
      const images = new ImageDownloader({
        gatewayUrl: 'https://gateway.example.test/api/v1',
        dispatcher,
        userAgent: 'test',
        lookup,
      });
      const port = new URL(gateway.url).port;
      proxy.requests.length = 0;
      proxy.connects.length = 0;
      for (const link of [
        `http://rebound.example.test:${port}/files/images/x.png`,
        `https://rebound.example.test:${port}/x.png`,
        `http://unknown.example.test:${port}/x.png`,
      ]) {
        const refused = await rejectionOf(images.download(link));
        assert.ok(refused instanceof ImageDownloadError && refused.reason === 'address', `${link}: ${String(refused)}`);
      }
      assert.deepEqual([...proxy.requests, ...proxy.connects], [], 'the proxy was never asked');
      // A name that resolves to a public address is asked of the proxy (which refuses it here: no traffic leaves this machine).
      const passed = await rejectionOf(images.download(`http://cdn.example.test:${port}/x.png`));
      assert.ok(passed instanceof ImageDownloadError && passed.reason === 'status', String(passed));
      assert.deepEqual(
        proxy.requests.map((uri) => new URL(uri).hostname),
        ['cdn.example.test'],
      );
    } finally {
      await dispatcher.close();
    }
  });
});
