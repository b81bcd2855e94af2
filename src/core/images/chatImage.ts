// An image the user adds to a chat message, checked before it is stored or sent. The webview's
// bytes are untrusted: the type comes from the magic number (never from a file name or a
// clipboard's MIME type), and the size is capped here, on the host, whatever the webview checked.
import { createHash } from 'node:crypto';
import { MAX_IMAGE_BYTES, type ImageMediaType, type ImageRef } from '../../shared/chatModel';
import { formatByteSize } from '../limits';
import { describeNonImage, sniffImageType } from './imageType';

/** What all images of one conversation may weigh together on disk (and resend with every request). */
export const MAX_CONVERSATION_IMAGE_BYTES = 20 * 1024 * 1024;

/** The file name an image is stored under: 32 hex digits (its hash), nothing else can reach the file system. */
const IMAGE_ID = /^[0-9a-f]{32}$/;

export function isImageId(id: unknown): id is string {
  return typeof id === 'string' && IMAGE_ID.test(id);
}

/** The pixel size from the header, for PNG and GIF (the two whose header says it at a fixed place). */
function dimensions(bytes: Uint8Array, mediaType: ImageMediaType): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (mediaType === 'image/png' && bytes.length >= 24) return { width: view.getUint32(16), height: view.getUint32(20) };
  if (mediaType === 'image/gif' && bytes.length >= 10)
    return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  return undefined;
}

/** A name safe to show and to write into markdown: the last path segment, printable, at most 100 characters. */
export function cleanImageName(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const base = name.split(/[\\/]/).pop() ?? '';
  // Control characters and markdown brackets out; whitespace runs become one space.
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f[\]<>`]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100);
  return clean || undefined;
}

/** The image's description, or why it is refused (a sentence for the user). */
export function checkChatImage(bytes: Uint8Array, name?: string): ImageRef | string {
  if (bytes.byteLength === 0) return 'The image is empty.';
  if (bytes.byteLength > MAX_IMAGE_BYTES)
    return `The image is over ${formatByteSize(MAX_IMAGE_BYTES)}, the most one image may weigh (it is ${bytes.byteLength.toLocaleString('en-US')} bytes).`;
  const type = sniffImageType(bytes);
  if (!type) return `That is not a PNG, JPEG, GIF or WebP image (it looks like ${describeNonImage(bytes)}).`;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const size = dimensions(bytes, type.mime);
  const label = cleanImageName(name);
  return {
    id: sha256.slice(0, 32),
    mediaType: type.mime,
    byteLength: bytes.byteLength,
    sha256,
    ...(size && size.width > 0 && size.height > 0 ? size : {}),
    ...(label ? { name: label } : {}),
  };
}

/**
 * Strict base64 (no whitespace, no junk a lenient decoder would skip), or undefined. The check is
 * one character class and a length test: a pattern of repeated groups backtracks and overflows the
 * stack on the megabytes of a pasted image (and blocks the host on smaller ones).
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}
