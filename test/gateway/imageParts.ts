import { createHash } from 'node:crypto';
import { badRequest } from './errors';
import { isObject } from './validate';

/**
 * Image parts in chat requests, read the way real providers read them: chat completions'
 * `{type: "image_url", image_url: {url: "data:<type>;base64,<data>"}}` and /messages'
 * `{type: "image", source: {type: "base64", media_type, data}}`. Malformed parts get a 400 that
 * names the field; the vision model answers with what it received (imageEcho below).
 */

const MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
/** Strict base64: what `Buffer.from(_, 'base64')` would silently accept with junk in it is refused. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** One image a request carried: its declared type and its decoded bytes. */
export interface ReceivedImage {
  readonly mediaType: string;
  readonly bytes: Buffer;
}

/** The type the bytes really are (PNG, JPEG, GIF, WebP by magic number), else undefined. */
function sniff(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (/^GIF8[79]a/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return undefined;
}

function decoded(mediaType: string, data: string, field: string): ReceivedImage {
  if (!MEDIA_TYPES.includes(mediaType))
    throw badRequest(
      field,
      `${field}: unsupported image media type '${mediaType}'; supported: ${MEDIA_TYPES.join(', ')}`,
      'invalid_image_format',
    );
  if (data === '' || !BASE64.test(data))
    throw badRequest(field, `${field}: the image data is not valid base64`, 'invalid_image_data');
  const bytes = Buffer.from(data, 'base64');
  // As the real providers do: the bytes must be the type they are said to be.
  const actual = sniff(bytes);
  if (actual !== mediaType)
    throw badRequest(
      field,
      `${field}: the image does not match the provided media type ${mediaType} (it is ${actual ?? 'not a supported image'})`,
      'invalid_image_data',
    );
  return { mediaType, bytes };
}

/** A chat completions `image_url` part (`field` is its path, e.g. `messages[0].content[1]`). */
export function chatImagePart(part: Record<string, unknown>, field: string): ReceivedImage {
  const imageUrl = part.image_url;
  const url = isObject(imageUrl) ? imageUrl.url : undefined;
  if (typeof url !== 'string')
    throw badRequest(`${field}.image_url.url`, `'${field}.image_url.url' is required`, 'missing_required_parameter');
  // Only data URLs: this gateway fetches nothing (a real one would download an https URL).
  const match = /^data:([^;,]*);base64,(.*)$/s.exec(url);
  if (!match || !match[1])
    throw badRequest(
      `${field}.image_url.url`,
      `'${field}.image_url.url' must be a data URL with a media type, like data:image/png;base64,...`,
      'invalid_image_url',
    );
  return decoded(match[1], match[2] ?? '', `${field}.image_url.url`);
}

/** A /messages `image` block's `source` (`field` is its path, e.g. `messages.0.content.1`). */
export function messagesImageBlock(block: Record<string, unknown>, field: string): ReceivedImage {
  const source = block.source;
  if (!isObject(source) || source.type !== 'base64')
    throw badRequest(
      `${field}.source.type`,
      `${field}.source.type: must be "base64" (this gateway fetches no URLs)`,
      'invalid_value',
    );
  if (typeof source.media_type !== 'string')
    throw badRequest(
      `${field}.source.media_type`,
      `${field}.source.media_type: Field required`,
      'missing_required_parameter',
    );
  if (typeof source.data !== 'string')
    throw badRequest(`${field}.source.data`, `${field}.source.data: Field required`, 'missing_required_parameter');
  return decoded(source.media_type, source.data, `${field}.source`);
}

/** An image sent to a model whose catalog entry lists no image input: refused, as real providers do. */
export function refuseImagesFor(modelId: string, vision: boolean | undefined, images: readonly ReceivedImage[]): void {
  if (images.length > 0 && !vision)
    throw badRequest('messages', `The model '${modelId}' does not support image input`, 'image_input_not_supported');
}

/** One line per image: media type, decoded byte size, sha256 (first 16 hex digits). */
export function imageEcho(images: readonly ReceivedImage[]): string {
  const lines = images.map(
    (image, i) =>
      `- image ${i + 1}: ${image.mediaType}, ${image.bytes.length} bytes, sha256 ${createHash('sha256').update(image.bytes).digest('hex').slice(0, 16)}`,
  );
  return `Received ${images.length} image${images.length === 1 ? '' : 's'} (local simulation of a vision model):\n${lines.join('\n')}`;
}
