// An image of a message as a thumbnail: in the composer (removable) and on the user turn that sent
// it. The picture loads from the conversation's image folder through the webview's resource roots
// (the host gave its URI: chatProtocol's `imageRoot`); nothing remote is ever loaded.
import { imageFileName, type ImageRef } from '../../shared/chatModel';
import { el, icon, iconButton } from './dom';

const IMAGE_ID = /^[0-9a-f]{32}$/;
const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The image's URL, or '' when it cannot be told (no root yet, or ids that are not ids). */
export function imageSrc(root: string, conversationId: string, ref: ImageRef): string {
  if (!root || !IMAGE_ID.test(ref.id) || !CONVERSATION_ID.test(conversationId)) return '';
  return `${root.replace(/\/+$/, '')}/${conversationId}/${imageFileName(ref)}`;
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** What the image is, in words (alt text and tooltip). */
function imageLabel(ref: ImageRef): string {
  const type = ref.mediaType.slice('image/'.length).toUpperCase();
  const pixels = ref.width && ref.height ? `, ${ref.width}×${ref.height}` : '';
  return `${ref.name ?? 'Image'} (${type}, ${sizeText(ref.byteLength)}${pixels})`;
}

export function imageThumb(ref: ImageRef, src: string, onRemove?: () => void): HTMLElement {
  const label = imageLabel(ref);
  const picture = src
    ? el('img', { className: 'image-thumb-picture', attrs: { src, alt: label, loading: 'lazy', draggable: 'false' } })
    : icon('file-media');
  const thumb = el('figure', { className: 'image-thumb', attrs: { title: label, 'data-image-id': ref.id } }, picture);
  if (onRemove) thumb.append(iconButton('close', `Remove ${label}`, onRemove, { className: 'chip-remove' }));
  return thumb;
}
