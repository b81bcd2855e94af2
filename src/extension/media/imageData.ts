// The bytes of a generated image and the names it is saved under. No vscode import: unit-tested in Node.
import type { GeneratedImage } from '../../core/index';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPng(bytes: Uint8Array): boolean {
  return PNG_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

/**
 * `b64_json` decoded; a `url` downloaded here in the extension host (webviews never touch the
 * network), http(s) only, so a gateway cannot point us at a local file.
 */
export async function imageBytes(image: GeneratedImage, signal?: AbortSignal): Promise<Uint8Array> {
  if (image.b64_json) return Buffer.from(image.b64_json, 'base64');
  if (!image.url) throw new Error('The gateway answered without image data.');
  let url: URL;
  try {
    url = new URL(image.url);
  } catch {
    throw new Error('The gateway answered with an image address that is not a URL.');
  }
  if (!/^https?:$/.test(url.protocol)) throw new Error(`The gateway answered with an image address that is not http(s) (${url.protocol}).`);
  const response = await fetch(url, signal ? { signal } : {});
  if (!response.ok) throw new Error(`The image could not be downloaded (HTTP ${response.status}).`);
  return new Uint8Array(await response.arrayBuffer());
}

/** `a lighthouse at dusk!` -> `a-lighthouse-at-dusk`: short, safe on every file system. */
export function promptSlug(prompt: string): string {
  const slug = prompt.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
  return slug || 'image';
}

/** `image-20261123-142501-a-lighthouse-2.png`: sortable by time, readable by prompt. */
export function imageFileName(prompt: string, when: Date, index: number): string {
  const stamp = when.toISOString().replace(/[-:]/g, '').replace('T', '-').replace(/\..*$/, '');
  return `image-${stamp}-${promptSlug(prompt)}-${index + 1}.png`;
}

/** A markdown image link; the alt text is the revised prompt, stripped of what would end it. */
export function markdownImageLink(alt: string, relativePath: string): string {
  const text = alt.replace(/[[\]\\]/g, '').replace(/\s+/g, ' ').trim().slice(0, 200);
  const target = relativePath.split('/').map(encodeURIComponent).join('/');
  return `![${text}](${target})`;
}

/** The images folder setting as a safe relative path inside the workspace ('' = the workspace root). */
export function imageFolderSegments(setting: string): string[] | undefined {
  const segments = setting.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');
  return segments.includes('..') || /^([a-z]:|\/)/i.test(setting.trim()) ? undefined : segments;
}
