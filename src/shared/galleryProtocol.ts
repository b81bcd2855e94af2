// Messages between the extension host and the image gallery webview. Images travel as base64
// bytes of a raster type the host read from the bytes themselves (the webview loads nothing from
// the network); each request carries the image id the webview was given, and the host checks it
// against the images it holds. Images that could not be downloaded arrive as failures, so the
// gallery shows what went wrong beside the images that did arrive.

/** The raster types the host accepts (never SVG or HTML): the only ones put in a data: URL. */
export const GALLERY_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
type GalleryMimeType = (typeof GALLERY_MIME_TYPES)[number];

export interface GalleryImage {
  readonly id: string;
  readonly prompt: string;
  readonly revisedPrompt: string;
  readonly model: string;
  readonly size: string;
  readonly quality: string;
  /** The image bytes, base64, of type `mime`. */
  readonly base64: string;
  readonly mime: GalleryMimeType;
  /** The type as people say it: PNG, JPEG, WebP, GIF. */
  readonly typeLabel: string;
  /** Workspace-relative path once saved. */
  readonly savedPath?: string;
}

/** An image the gateway answered with that did not make it into the gallery (nothing else was dropped). */
export interface GalleryFailure {
  readonly id: string;
  readonly prompt: string;
  /** "Image 2 of 3". */
  readonly position: string;
  /** What happened and what to do. */
  readonly message: string;
}

/** Host -> webview. */
export type HostToGalleryMessage =
  | { readonly type: 'images'; readonly images: readonly GalleryImage[] }
  | { readonly type: 'failures'; readonly failures: readonly GalleryFailure[] }
  | { readonly type: 'busy'; readonly message: string | undefined }
  | { readonly type: 'saved'; readonly id: string; readonly savedPath: string }
  | { readonly type: 'notice'; readonly message: string };

export type GalleryAction = 'save' | 'copyLink' | 'regenerate';

/** Webview -> host. */
export type GalleryToHostMessage = { readonly type: 'ready' } | { readonly type: GalleryAction; readonly id: string };

const ACTIONS: readonly string[] = ['save', 'copyLink', 'regenerate'];

/** Image ids are the host's own (`img-<n>`); anything else is refused before it is looked up. */
export function isGalleryImageId(value: unknown): value is string {
  return typeof value === 'string' && /^img-\d{1,9}$/.test(value);
}

/** Validates a message from the webview (untrusted input). */
export function parseGalleryToHostMessage(value: unknown): GalleryToHostMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (message.type === 'ready') return { type: 'ready' };
  if (typeof message.type === 'string' && ACTIONS.includes(message.type) && isGalleryImageId(message.id)) {
    return { type: message.type as GalleryAction, id: message.id };
  }
  return undefined;
}
