// Generated images as the gallery keeps them, and the names they are saved under. The bytes come
// from client.images.download (type read from them).
import type { DownloadedImage } from '../images/imageDownloader';
import type { GeneratedImage } from '../types/media';
import type { ImageType } from '../images/imageType';
import { errorMessage } from '../../shared/errorMessage';

/** An image of an answer that arrived: its bytes, their type (read from them) and the revised prompt. */
export interface ReceivedImage {
  readonly bytes: Uint8Array;
  readonly type: ImageType;
  readonly revisedPrompt: string;
}

/** An image of an answer that did not arrive, and why. */
export interface ImageFailure {
  /** "Image 2 of 3" ("The image" when the answer had one). */
  readonly position: string;
  readonly message: string;
}

/**
 * The settled downloads of one answer, in its order: what arrived and what did not. Each image
 * stands on its own, so one bad link never costs the others (they are paid for).
 */
export function splitDownloads(answer: readonly GeneratedImage[], settled: readonly PromiseSettledResult<DownloadedImage>[]): { images: ReceivedImage[]; failures: ImageFailure[] } {
  const images: ReceivedImage[] = [];
  const failures: ImageFailure[] = [];
  settled.forEach((result, index) => {
    if (result.status === 'fulfilled') {
      images.push({ bytes: result.value.bytes, type: result.value.type, revisedPrompt: answer[index]?.revised_prompt?.trim() ?? '' });
    } else {
      const position = settled.length === 1 ? 'The image' : `Image ${index + 1} of ${settled.length}`;
      failures.push({ position, message: errorMessage(result.reason) });
    }
  });
  return { images, failures };
}

/** One sentence for a notification about the images that did not arrive. */
export function failureSummary(arrived: number, failures: readonly ImageFailure[]): string {
  const total = arrived + failures.length;
  const first = failures[0];
  if (!first) return '';
  const head = arrived === 0 ? `None of the ${total} images could be kept` : `${arrived} of ${total} images arrived; ${failures.length} could not be kept`;
  return total === 1 ? first.message : `${head}. ${first.position}: ${first.message}${failures.length > 1 ? ' The gallery shows every reason.' : ''}`;
}

/** `a lighthouse at dusk!` -> `a-lighthouse-at-dusk`: short, safe on every file system. */
export function promptSlug(prompt: string): string {
  const slug = prompt.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
  return slug || 'image';
}

/** `image-20261123-142501-a-lighthouse-2.jpg`: sortable by time, readable by prompt, the extension of its type. */
export function imageFileName(prompt: string, when: Date, index: number, extension: ImageType['extension']): string {
  const stamp = when.toISOString().replace(/[-:]/g, '').replace('T', '-').replace(/\..*$/, '');
  return `image-${stamp}-${promptSlug(prompt)}-${index + 1}.${extension}`;
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
