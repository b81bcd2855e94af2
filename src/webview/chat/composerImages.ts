// The composer's images: pasted, dropped, or picked with the attach button, shown as thumbnails
// above the box until the message goes. Only a model whose catalog entry says it takes images gets
// them; for the others a note says why nothing was attached. The host checks every image again.
import { IMAGE_MEDIA_TYPES, MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE, type ImageRef } from '../../shared/chatModel';
import { el, iconButton } from './dom';
import { imageThumb } from './imageThumb';
import type { Send } from './send';

export class ComposerImages {
  /** The attach button, for the composer's toolbar. */
  readonly attachButton: HTMLButtonElement;
  readonly thumbs: HTMLElement;
  readonly note: HTMLElement;
  private images: readonly ImageRef[] = [];
  /** The selected model's name and whether its catalog entry says it takes images. */
  private model = { id: '', takesImages: false };

  constructor(private readonly send: Send) {
    this.attachButton = iconButton('file-media', 'Attach images…', () => this.pick(), { className: 'attach-image' });
    this.thumbs = el('div', { className: 'image-thumbs', attrs: { role: 'group', 'aria-label': 'Attached images' } });
    this.thumbs.hidden = true;
    this.note = el('div', { className: 'image-note', attrs: { role: 'status' } });
    this.note.hidden = true;
  }

  /** How many images wait for the next message. */
  get count(): number {
    return this.images.length;
  }

  /** Takes pastes into `input` and drops onto `area` (marked `dragging` while a file is over it). */
  listen(input: HTMLElement, area: HTMLElement): void {
    input.addEventListener('paste', (event) => {
      const files = imageFiles(event.clipboardData);
      if (files.length === 0) return; // text pastes as text
      event.preventDefault();
      void this.addFiles(files);
    });
    area.addEventListener('dragover', (event) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      area.classList.add('dragging');
    });
    area.addEventListener('dragleave', () => area.classList.remove('dragging'));
    area.addEventListener('drop', (event) => {
      area.classList.remove('dragging');
      const files = imageFiles(event.dataTransfer);
      if (files.length === 0) return;
      event.preventDefault();
      void this.addFiles(files);
    });
  }

  /** The images waiting for the next message; `srcOf` gives each one's picture URL. */
  set(images: readonly ImageRef[], srcOf: (ref: ImageRef) => string): void {
    this.images = images;
    this.thumbs.replaceChildren(
      ...images.map((ref) => imageThumb(ref, srcOf(ref), () => this.send({ type: 'removeImage', id: ref.id }))),
    );
    this.thumbs.hidden = images.length === 0;
    if (images.length) this.showNote('');
  }

  /** The selected model: the attach button says whether it takes images. */
  setModel(id: string, takesImages: boolean): void {
    this.model = { id, takesImages };
    const label = takesImages
      ? 'Attach images… (or paste or drop them here)'
      : `Attach images: ${id || 'this model'} does not take images (its catalog entry lists no image input)`;
    this.attachButton.setAttribute('aria-label', label);
    this.attachButton.title = label;
    this.attachButton.classList.toggle('unavailable', !takesImages);
    this.attachButton.setAttribute('aria-disabled', String(!takesImages));
    if (takesImages) this.showNote('');
  }

  private showNote(text: string): void {
    this.note.textContent = text;
    this.note.hidden = text === '';
  }

  /** Why images cannot be added to this model, in a sentence (the attach button, a paste, a drop). */
  private noImagesNote(): string {
    return `${this.model.id || 'The selected model'} does not take images (its catalog entry lists no image input): nothing was attached. Pick a model that takes images to send them.`;
  }

  private pick(): void {
    if (!this.model.takesImages) return this.showNote(this.noImagesNote());
    this.send({ type: 'pickImage' });
  }

  /** Sends the files' bytes to the host (which checks them again); notes what cannot go. */
  private async addFiles(files: readonly File[]): Promise<void> {
    if (!this.model.takesImages) return this.showNote(this.noImagesNote());
    const notes: string[] = [];
    // A drop of hundreds of files sends no more than one message can carry (the host caps again).
    const room = Math.max(0, MAX_IMAGES_PER_MESSAGE - this.images.length);
    if (files.length > room)
      notes.push(
        `${files.length - room} of the ${files.length} images were not added: at most ${MAX_IMAGES_PER_MESSAGE} can go with one message.`,
      );
    for (const file of files.slice(0, room)) {
      const name = file.name || 'pasted image';
      if (!IMAGE_MEDIA_TYPES.some((type) => type === file.type))
        notes.push(`${name} is not a PNG, JPEG, GIF or WebP image.`);
      else if (file.size > MAX_IMAGE_BYTES)
        notes.push(`${name} is over ${MAX_IMAGE_BYTES / (1024 * 1024)} MB, the most one image may weigh.`);
      else this.send({ type: 'addImage', name, data: await base64Of(file) });
    }
    this.showNote(notes.join(' '));
  }
}

/** The image files a paste or drop carries (other files and text are left to the default). */
function imageFiles(data: DataTransfer | null): File[] {
  return Array.from(data?.files ?? []).filter((file) => file.type.startsWith('image/'));
}

/** A file's bytes as base64 (the webview protocol carries strings). */
function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result.replace(/^data:[^,]*,/, '') : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}
