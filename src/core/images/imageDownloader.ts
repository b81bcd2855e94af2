// Downloads the images the gateway answers with (`data[].url`), bounded every way a link from a
// server can be abused: http(s) only, no user:password in the link, at most 3 redirects each
// checked again, only to the public internet or to the gateway's kind of network, the key and the
// user's extra headers only ever sent to the gateway's own origin, a deadline, a byte cap, and
// the type read from the bytes (PNG, JPEG, WebP, GIF; never SVG or HTML).
import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { readCappedBytes } from '../transport/cappedBody';
import { clampDelay } from '../transport/delay';
import { abortError, GatewayError, ImageDownloadError, ResponseTooLargeError, TimeoutError } from '../errors';
import { formatByteSize, MAX_IMAGE_BYTES } from '../limits';
import { AddressPolicy, systemLookup } from './addressPolicy';
import type { HostLookup } from './addressPolicy';
import { dispatcherOnDemand } from '../net/dispatcherOnDemand';
import type { DispatcherSource } from '../types/common';
import { downloadDispatcher, isProxied } from './downloadDispatcher';
import { describeNonImage, sniffImageType } from './imageType';
import type { ImageType } from './imageType';
import { errorMessage } from '../../shared/errorMessage';

const DEFAULT_IMAGE_TIMEOUT_MS = 60_000;
const MAX_IMAGE_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface ImageSource {
  /** The gateway's address: its origin is the only one credentials go to; its network is allowed. */
  readonly gatewayUrl: string;
  /** The gateway client's dispatcher (proxy, CA, TLS policy), perhaps made on first use; the global one when absent. */
  readonly dispatcher?: DispatcherSource | undefined;
  /** Headers for the gateway's own origin only (the key, the user's extra headers). */
  readonly gatewayHeaders?: () => Promise<Record<string, string>>;
  readonly userAgent: string;
  /** DNS for the address check; tests pass a fake. */
  readonly lookup?: HostLookup;
}

export interface ImageDownloadOptions {
  signal?: AbortSignal;
  /** The whole download, redirects included; default 60 s. */
  timeoutMs?: number;
  /** Default MAX_IMAGE_BYTES (20 MiB). */
  maxBytes?: number;
}

export interface DownloadedImage {
  readonly bytes: Uint8Array;
  readonly type: ImageType;
}

export class ImageDownloader {
  private readonly gateway: URL;
  private network: { readonly policy: AddressPolicy; readonly dispatcher: Dispatcher } | undefined;

  constructor(private readonly source: ImageSource) {
    this.gateway = new URL(source.gatewayUrl);
  }

  /** The address policy and the download dispatcher, made on the first download (they load undici). */
  private get reach(): { readonly policy: AddressPolicy; readonly dispatcher: Dispatcher } {
    if (this.network) return this.network;
    const base = dispatcherOnDemand(this.source.dispatcher)();
    const proxied = base !== undefined && isProxied(base);
    const policy = new AddressPolicy(this.gateway, proxied, this.source.lookup ?? systemLookup);
    this.network = { policy, dispatcher: downloadDispatcher(base, policy, proxied) };
    return this.network;
  }

  async download(link: string, options: ImageDownloadOptions = {}): Promise<DownloadedImage> {
    const { signal } = options;
    if (signal?.aborted) throw abortError(signal);
    const hop = { url: parseLink(link) };
    const timeoutMs = clampDelay(options.timeoutMs ?? DEFAULT_IMAGE_TIMEOUT_MS);
    const controller = new AbortController();
    const within = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
    const timeout = new TimeoutError(
      `The image from ${hop.url.host} did not arrive within ${within}. Try again, or check the network and proxy settings.`,
      { code: 'timeout' },
    );
    const timer = setTimeout(() => controller.abort(timeout), timeoutMs);
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    // The deadline and a cancel hold even where undici cannot be interrupted (a DNS lookup that hangs).
    const stopped = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
    );
    try {
      return await Promise.race([this.follow(hop, controller.signal, options.maxBytes ?? MAX_IMAGE_BYTES), stopped]);
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      if (controller.signal.reason === timeout) throw timeout;
      if (error instanceof GatewayError) throw error;
      const detail = errorMessage(error);
      throw new ImageDownloadError(
        'connection',
        `Could not download the image from ${hop.url.host} (${detail}). Check the network and proxy settings, then try again.`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Settles `stopped` (a rejection nobody waits for any more) so nothing is left pending.
      controller.abort();
      stopped.catch(() => undefined);
    }
  }

  /** The hops of one link: each checked, at most MAX_IMAGE_REDIRECTS redirects; `hop.url` is where it got to. */
  private async follow(hop: { url: URL }, signal: AbortSignal, maxBytes: number): Promise<DownloadedImage> {
    // Once a redirect leaves the gateway's origin, nothing the gateway may see goes along again.
    let onGateway = true;
    for (let redirects = 0; ; redirects++) {
      const url = hop.url;
      onGateway &&= url.origin === this.gateway.origin;
      await this.reach.policy.checkHost(url);
      const response = await request(url, {
        method: 'GET',
        headers: await this.headersFor(onGateway),
        dispatcher: this.reach.dispatcher,
        signal,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      if (REDIRECTS.has(response.statusCode)) {
        discard(response.body);
        hop.url = nextHop(url, response.headers.location, redirects);
        continue;
      }
      if (response.statusCode !== 200) {
        discard(response.body);
        throw statusError(url, response.statusCode);
      }
      const bytes = await readCappedBytes(closable(response.body), response.headers, {
        maxBytes,
        what: `the image from ${url.host}`,
        advice: 'It was not downloaded; generate a smaller size, or ask the gateway administrator.',
      });
      return typedImage(bytes, `from ${url.host}`);
    }
  }

  private async headersFor(onGateway: boolean): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      'user-agent': this.source.userAgent,
      accept: 'image/png, image/jpeg, image/webp, image/gif',
    };
    if (!onGateway || !this.source.gatewayHeaders) return headers;
    // Without a usable key the image may still be public: ask without one.
    const extra = await this.source.gatewayHeaders().catch(() => ({}));
    return { ...extra, ...headers };
  }
}

/** Bytes that must be one of the accepted image types, else an ImageDownloadError naming what they are. */
function typedImage(bytes: Uint8Array, from: string): DownloadedImage {
  const type = sniffImageType(bytes);
  if (type) return { bytes, type };
  throw new ImageDownloadError(
    'type',
    `The file ${from} is ${describeNonImage(bytes)}, not a PNG, JPEG, WebP or GIF image, so it was not kept (SVG and HTML can carry scripts).`,
  );
}

/** `b64_json` decoded and typed; refused past maxBytes before it is decoded. */
export function imageFromBase64(base64: string, maxBytes: number = MAX_IMAGE_BYTES): DownloadedImage {
  const size = Math.floor((base64.replace(/\s+/g, '').replace(/=+$/, '').length * 3) / 4);
  if (size > maxBytes) {
    throw new ResponseTooLargeError(
      `The image the gateway sent inline is ${formatByteSize(size)}, more than the ${formatByteSize(maxBytes)} the extension takes, so it was not kept.`,
      { limitBytes: maxBytes },
    );
  }
  return typedImage(new Uint8Array(Buffer.from(base64, 'base64')), 'the gateway sent inline');
}

/** The body as an iterable whose return() closes the connection, even before the first read. */
function closable(body: Dispatcher.ResponseData['body']): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      const inner = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
      return {
        next: () => inner.next(),
        return: async () => {
          // Destroying emits an abort error on the body; nobody else listens for it any more.
          body.on('error', () => undefined);
          body.destroy();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** A body we do not want: a little of it is read (so a small one frees its connection), then it is closed. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.dump({ limit: 64 * 1024 }).catch(() => undefined);
}

function parseLink(link: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(link, base);
  } catch {
    throw new ImageDownloadError('scheme', 'The gateway answered with an image address that is not a URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImageDownloadError(
      'scheme',
      `Refused the image address: it is ${url.protocol} and only http(s) links are downloaded.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new ImageDownloadError(
      'credentials',
      `Refused the image address at ${url.host}: it carries a user name or password, which the extension does not send anywhere.`,
    );
  }
  return url;
}

function nextHop(from: URL, location: string | string[] | undefined, redirects: number): URL {
  const target = Array.isArray(location) ? location[0] : location;
  if (!target)
    throw new ImageDownloadError(
      'redirects',
      `The image at ${from.host} redirected without saying where to; it was not downloaded.`,
    );
  if (redirects >= MAX_IMAGE_REDIRECTS) {
    throw new ImageDownloadError(
      'redirects',
      `The image at ${from.host} redirected more than ${MAX_IMAGE_REDIRECTS} times (a loop?); it was not downloaded.`,
    );
  }
  const next = parseLink(target, from);
  if (from.protocol === 'https:' && next.protocol === 'http:') {
    throw new ImageDownloadError(
      'redirects',
      `The image at ${from.host} redirected from https to unencrypted http (${next.host}); it was not downloaded.`,
    );
  }
  return next;
}

function statusError(url: URL, status: number): ImageDownloadError {
  const hint =
    status === 403 || status === 404 || status === 410
      ? 'Image links expire (often within an hour): generate the image again.'
      : 'Try again later.';
  return new ImageDownloadError(
    'status',
    `The image from ${url.host} could not be downloaded (HTTP ${status}). ${hint}`,
    { status },
  );
}
