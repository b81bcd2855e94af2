// The image gallery's page: a grid of cards, newest first, each with its revised prompt and three
// actions, and a card for each image of an answer that could not be kept, saying why. All text is
// set with textContent (prompts and messages come from the network); images are data: URLs of the
// raster bytes the host sent, of a type it read from them (the CSP allows data: images and no network).
import { GALLERY_MIME_TYPES } from '../../shared/galleryProtocol';
import type { GalleryAction, GalleryFailure, GalleryImage } from '../../shared/galleryProtocol';

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  attributes: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function actionButton(icon: string, label: string, aria: string, secondary: boolean): HTMLButtonElement {
  const button = element('button', secondary ? 'action secondary' : 'action', {
    type: 'button',
    'aria-label': aria,
    title: aria,
  });
  button.append(element('span', `codicon codicon-${icon}`, { 'aria-hidden': 'true' }), document.createTextNode(label));
  return button;
}

interface Card {
  readonly root: HTMLElement;
  readonly copy: HTMLButtonElement;
  readonly save: HTMLButtonElement;
  readonly savedNote: HTMLElement;
}

export class GalleryView {
  private readonly status = element('p', 'status', { role: 'status' });
  private readonly grid = element('ul', 'grid', { 'aria-label': 'Generated images' });
  private readonly empty = element('p', 'empty');
  private readonly cards = new Map<string, Card>();
  private readonly failures = new Set<string>();

  constructor(
    root: HTMLElement,
    private readonly act: (action: GalleryAction, id: string) => void,
  ) {
    const heading = element('h1', 'heading');
    heading.textContent = 'Generated images';
    this.empty.textContent = 'No images yet. Run "Unified Inference: Generate Image..." to make one.';
    root.append(heading, this.status, this.empty, this.grid);
  }

  /** New images go on top, in the order given (the host sends oldest first). */
  add(images: readonly GalleryImage[]): void {
    for (const image of images) {
      // Only the raster types the host accepts ever become a data: URL.
      if (this.cards.has(image.id) || !(GALLERY_MIME_TYPES as readonly string[]).includes(image.mime)) continue;
      const card = this.card(image);
      this.cards.set(image.id, card);
      this.grid.prepend(card.root);
    }
    this.empty.hidden = this.cards.size > 0;
  }

  /** Failure cards go on top like images: the failed image's place in its answer, and why. */
  addFailures(failures: readonly GalleryFailure[]): void {
    for (const failure of failures) {
      if (this.failures.has(failure.id)) continue;
      const root = element('li', 'failure', { 'aria-label': `${failure.position} was not kept` });
      const title = element('p', 'failure-title');
      title.textContent = `${failure.position} of "${failure.prompt}" was not kept`;
      const reason = element('p', 'failure-reason');
      reason.textContent = failure.message;
      root.append(element('span', 'codicon codicon-warning', { 'aria-hidden': 'true' }), title, reason);
      this.failures.add(failure.id);
      this.grid.prepend(root);
    }
    this.empty.hidden = this.cards.size + this.failures.size > 0;
  }

  setBusy(message: string | undefined): void {
    this.status.textContent = message ?? '';
    this.status.classList.toggle('busy', message !== undefined);
  }

  notice(message: string): void {
    this.status.textContent = message;
    this.status.classList.remove('busy');
  }

  markSaved(id: string, savedPath: string): void {
    const card = this.cards.get(id);
    if (!card) return;
    card.copy.disabled = false;
    card.copy.title = card.copy.getAttribute('aria-label') ?? '';
    card.save.disabled = true;
    card.savedNote.textContent = `Saved to ${savedPath}`;
  }

  private card(image: GalleryImage): Card {
    const root = element('li', 'card');
    const caption = image.revisedPrompt || image.prompt;
    const picture = element('img', 'picture', { src: `data:${image.mime};base64,${image.base64}`, alt: caption });
    const figure = element('figure', 'figure');
    const text = element('figcaption', 'caption');
    const revised = element('p', 'revised');
    revised.textContent = caption;
    const meta = element('p', 'meta');
    meta.textContent = [image.model, image.size, image.quality].filter(Boolean).join(' · ');
    text.append(revised, meta);
    figure.append(picture, text);
    const save = actionButton(
      'save',
      'Save to Workspace',
      `Save image ${image.id.slice(4)} to the workspace as ${image.typeLabel}`,
      false,
    );
    const copy = actionButton('link', 'Copy Markdown Link', `Copy a markdown link to image ${image.id.slice(4)}`, true);
    const again = actionButton(
      'refresh',
      'Regenerate',
      `Regenerate image ${image.id.slice(4)} with the same prompt and settings`,
      true,
    );
    copy.disabled = true;
    copy.title = 'Save the image first';
    save.addEventListener('click', () => this.act('save', image.id));
    copy.addEventListener('click', () => this.act('copyLink', image.id));
    again.addEventListener('click', () => this.act('regenerate', image.id));
    const actions = element('div', 'actions', { role: 'group', 'aria-label': 'Image actions' });
    actions.append(save, copy, again);
    const savedNote = element('p', 'saved', { 'aria-live': 'polite' });
    if (image.savedPath) savedNote.textContent = `Saved to ${image.savedPath}`;
    root.append(figure, actions, savedNote);
    const card = { root, copy, save, savedNote };
    if (image.savedPath) {
      copy.disabled = false;
      save.disabled = true;
    }
    return card;
  }
}
