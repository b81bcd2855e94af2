// Messages between the extension host and the image gallery webview. Images travel as base64 PNG
// bytes (the webview loads nothing from the network); each request carries the image id the
// webview was given, and the host checks it against the images it holds.

export interface GalleryImage {
  readonly id: string;
  readonly prompt: string;
  readonly revisedPrompt: string;
  readonly model: string;
  readonly size: string;
  readonly quality: string;
  /** PNG bytes, base64. */
  readonly base64: string;
  /** Workspace-relative path once saved. */
  readonly savedPath?: string;
}

/** Host -> webview. */
export type HostToGalleryMessage =
  | { readonly type: 'images'; readonly images: readonly GalleryImage[] }
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
