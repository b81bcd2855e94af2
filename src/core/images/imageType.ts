// What an image is, read from its first bytes (never from a URL's extension or a Content-Type,
// which a server can get wrong or lie about). Only raster formats the gallery's CSP and every
// viewer handle safely are accepted: SVG can carry script, HTML is a page, not a picture.

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

export interface ImageType {
  readonly format: ImageFormat;
  readonly mime: `image/${ImageFormat}`;
  /** The file name extension, without the dot. */
  readonly extension: 'png' | 'jpg' | 'webp' | 'gif';
  /** How the format reads in a sentence. */
  readonly label: 'PNG' | 'JPEG' | 'WebP' | 'GIF';
}

export const IMAGE_TYPES: Readonly<Record<ImageFormat, ImageType>> = {
  png: { format: 'png', mime: 'image/png', extension: 'png', label: 'PNG' },
  jpeg: { format: 'jpeg', mime: 'image/jpeg', extension: 'jpg', label: 'JPEG' },
  webp: { format: 'webp', mime: 'image/webp', extension: 'webp', label: 'WebP' },
  gif: { format: 'gif', mime: 'image/gif', extension: 'gif', label: 'GIF' },
};

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte);
}

function ascii(text: string): number[] {
  return Array.from(text, (c) => c.charCodeAt(0));
}

/** The image type by its magic number: PNG, JPEG (FF D8 FF), WebP (RIFF....WEBP), GIF87a/GIF89a; else undefined. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, PNG)) return IMAGE_TYPES.png;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return IMAGE_TYPES.jpeg;
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return IMAGE_TYPES.webp;
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return IMAGE_TYPES.gif;
  return undefined;
}

/** The image type for a file name's extension (for files this extension wrote itself). */
export function imageTypeOfExtension(name: string): ImageType | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return Object.values(IMAGE_TYPES).find(
    (type) => type.extension === extension || (extension === 'jpeg' && type.format === 'jpeg'),
  );
}

/** What bytes that are not an accepted image look like, for the message ("an SVG image", "an HTML page"). */
export function describeNonImage(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'empty';
  const head = Buffer.from(bytes.subarray(0, 512))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg|<svg[\s>])/.test(head)) return 'an SVG image';
  if (/^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/.test(head)) return 'an HTML page';
  if (head.startsWith('<?xml') || head.startsWith('<')) return 'an XML or HTML document';
  if (head.startsWith('{') || head.startsWith('[')) return 'JSON';
  if (startsWith(bytes, ascii('RIFF'))) return 'a RIFF file that is not WebP';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return 'a PDF document';
  return 'data of an unknown type';
}
