// What the images of one generation answer are, chosen per image by the `images=<kind>,<kind>...`
// fault item: real PNG/JPEG/WebP/GIF bytes, files that are not images (SVG, an HTML page, some
// served with a lying Content-Type), and links that misbehave (redirects to another host, to a
// private or link-local address, in a loop, to file:; huge bodies; a server that never answers).
// The redirect targets outside this machine are never served by anyone: a client must refuse
// them before connecting.
import { randomUUID } from 'node:crypto';
import type { GatewayState, RouteContext } from './context';
import { badRequest, notFound } from './errors';
import { encodeGif, encodeJpeg, encodeWebp } from './imageFormats';

const IMAGE_KINDS = [
  'png',
  'jpeg',
  'webp',
  'gif',
  'svg',
  'svg-as-png',
  'html',
  'missing',
  'redirect',
  'redirect-other-host',
  'redirect-private',
  'redirect-link-local',
  'redirect-loop',
  'redirect-file',
  'huge',
  'huge-declared',
  'hang',
  'file-url',
  'link-local-url',
] as const;

export type ImageKind = (typeof IMAGE_KINDS)[number];

/** Bodies of the `huge` links: far past any sane image cap, still finite. */
export const HUGE_IMAGE_BYTES = 256 * 1024 * 1024;
const PRIVATE_TARGET = 'http://10.0.0.1/files/images/private.png';
const LINK_LOCAL_TARGET = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';

const SVG =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" onload="alert(document.domain)"><script>alert(1)</script><rect width="64" height="64" fill="teal"/></svg>\n';
const HTML =
  '<!DOCTYPE html>\n<html><head><title>Link expired</title></head><body><h1>This link has expired</h1><script>alert(1)</script></body></html>\n';

/** The picture to encode: RGB pixels at the requested size, and the same picture as PNG. */
export interface Picture {
  readonly width: number;
  readonly height: number;
  readonly rgb: Uint8Array;
  readonly png: Buffer;
}

/** Parses the `images` fault item: a comma-separated list of kinds (`param` names the header in errors). */
export function parseImageKinds(value: string | undefined, param: string): ImageKind[] {
  const kinds = (value ?? '')
    .split(',')
    .map((kind) => kind.trim().toLowerCase())
    .filter(Boolean);
  if (kinds.length === 0)
    throw badRequest(param, `fault item 'images' needs kinds: ${IMAGE_KINDS.join(', ')}`, 'invalid_fault');
  for (const kind of kinds) {
    if (!(IMAGE_KINDS as readonly string[]).includes(kind))
      throw badRequest(param, `unknown image kind '${kind}' (known: ${IMAGE_KINDS.join(', ')})`, 'invalid_fault');
  }
  return kinds as ImageKind[];
}

/** The bytes and served type of the kinds that are files; undefined for the kinds that are only links. */
function fileOf(
  kind: ImageKind,
  picture: Picture,
): { bytes: Buffer; contentType: string; extension: string } | undefined {
  const { width, height, rgb } = picture;
  switch (kind) {
    case 'png':
      return { bytes: picture.png, contentType: 'image/png', extension: 'png' };
    case 'jpeg':
      return { bytes: encodeJpeg(width, height, rgb), contentType: 'image/jpeg', extension: 'jpg' };
    case 'webp':
      return { bytes: encodeWebp(width, height, rgb), contentType: 'image/webp', extension: 'webp' };
    case 'gif':
      return { bytes: encodeGif(width, height, rgb), contentType: 'image/gif', extension: 'gif' };
    case 'svg':
      return { bytes: Buffer.from(SVG), contentType: 'image/svg+xml', extension: 'svg' };
    // The Content-Type and the link both say PNG: only the bytes tell.
    case 'svg-as-png':
      return { bytes: Buffer.from(SVG), contentType: 'image/png', extension: 'png' };
    case 'html':
      return { bytes: Buffer.from(HTML), contentType: 'text/html; charset=utf-8', extension: 'png' };
    default:
      return undefined;
  }
}

/** The inline bytes of an image of this kind (b64_json answers); link-only kinds give the PNG. */
export function inlineBytes(kind: ImageKind, picture: Picture): Buffer {
  return fileOf(kind, picture)?.bytes ?? picture.png;
}

/** The URL an image of this kind gets; files are stored in the image store (they expire like the others). */
export function imageLink(kind: ImageKind, picture: Picture, state: GatewayState): string {
  const file = fileOf(kind, picture);
  if (file) return `${state.baseUrl}/files/images/${state.images.put(file.bytes, file.contentType)}.${file.extension}`;
  switch (kind) {
    case 'missing':
      return `${state.baseUrl}/files/images/${randomUUID()}.png`;
    case 'file-url':
      return 'file:///etc/passwd';
    case 'link-local-url':
      return LINK_LOCAL_TARGET;
    // The redirects that end at a real image store it first; their id is the image's.
    case 'redirect':
    case 'redirect-other-host':
      return `${state.baseUrl}/files/links/${kind}/${state.images.put(picture.png)}`;
    default:
      return `${state.baseUrl}/files/links/${kind}/${randomUUID()}`;
  }
}

/** The same gateway under another host name (127.0.0.1 <-> localhost): another origin, this machine. */
function otherHost(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.hostname = url.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return url.origin;
}

/** `GET /files/links/<kind>/<id>`: what the misbehaving links do. No key needed, like the image files. */
export async function handleImageLink(ctx: RouteContext): Promise<void> {
  const kind = ctx.params.kind as ImageKind;
  const id = ctx.params.id ?? '';
  const redirect = (location: string): Promise<void> =>
    ctx.reply.send(302, 'text/plain; charset=utf-8', `Moved to ${location}\n`, { location });
  switch (kind) {
    case 'redirect':
      return redirect(`/files/images/${id}.png`);
    case 'redirect-other-host':
      return redirect(`${otherHost(ctx.state.baseUrl)}/files/images/${id}.png`);
    case 'redirect-private':
      return redirect(PRIVATE_TARGET);
    case 'redirect-link-local':
      return redirect(LINK_LOCAL_TARGET);
    case 'redirect-loop':
      return redirect(`/files/links/redirect-loop/${id}`);
    case 'redirect-file':
      return redirect('file:///etc/passwd');
    case 'hang':
      // Never answers; ends when the client gives up (Reply.sleep wakes on close).
      await ctx.reply.sleep(10 * 60_000);
      return ctx.reply.end();
    case 'huge':
    case 'huge-declared':
      return writeHuge(ctx, kind === 'huge-declared');
    default:
      throw notFound(`No image link of kind '${kind}'`, 'image_not_found');
  }
}

/** A "PNG" of HUGE_IMAGE_BYTES (the signature, then zeros), chunked or with its Content-Length; stops when the client leaves. */
async function writeHuge(ctx: RouteContext, declared: boolean): Promise<void> {
  ctx.reply.head(200, { 'content-type': 'image/png', ...(declared ? { 'content-length': HUGE_IMAGE_BYTES } : {}) });
  const zeros = Buffer.alloc(64 * 1024);
  const first = Buffer.alloc(zeros.length);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(first);
  for (let sent = 0; sent < HUGE_IMAGE_BYTES; sent += zeros.length) {
    if (!(await ctx.reply.write(sent === 0 ? first : zeros))) return;
  }
  ctx.reply.end();
}
