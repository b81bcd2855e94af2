// The sanitizing half of the render path: marked's HTML (which may carry raw HTML from the model)
// goes through DOMPurify with an allowlist, then the link, image and checkbox policies are applied
// to the resulting nodes. Nothing here parses HTML again after DOMPurify: the sanitized tree is
// moved into the page as nodes, so there is no serialize-and-reparse step for mutation XSS to use.
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { isOpenableLink } from '../../../shared/chatProtocol';

/** Ordinary markdown output, plus the few harmless HTML tags models like to write. */
const ALLOWED_TAGS = [
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'code',
  'dd',
  'del',
  'details',
  'div',
  'dl',
  'dt',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'input',
  'ins',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
];
/**
 * No `class`, `id`, `name`, `style` or `data-*` from the model: they could spoof the panel's own
 * UI or clobber globals. `data-md-code` is the renderer's own code block placeholder; it is only
 * honoured when it carries the nonce of the current render (see renderGroup in markdownEngine.ts).
 */
const ALLOWED_ATTR = [
  'align',
  'alt',
  'checked',
  'colspan',
  'disabled',
  'href',
  'open',
  'rowspan',
  'src',
  'start',
  'title',
  'type',
  'data-md-code',
];

const MARKDOWN_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

/** Only raster data: images (never svg+xml, which can carry script). */
const SAFE_IMAGE_SRC = /^data:image\/(?:png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]*$/i;

const purifiers = new WeakMap<object, DOMPurify>();

/** One DOMPurify per window, so tests (jsdom) and the webview each sanitize with their own DOM. */
function purifierFor(doc: Document): DOMPurify {
  const view = doc.defaultView;
  if (!view) throw new Error('renderMarkdown needs a document that belongs to a window');
  let purifier = purifiers.get(view);
  if (!purifier) {
    purifier = createDOMPurify(view);
    purifiers.set(view, purifier);
  }
  return purifier;
}

export interface SanitizedMarkdown {
  readonly fragment: DocumentFragment;
  /** The renderer's code block placeholders (`pre[data-md-code]`), for renderGroup to fill. */
  readonly codePlaceholders: readonly Element[];
}

/**
 * Sanitizes marked's HTML into nodes owned by `doc`, with the image, link and input policies
 * applied; undefined when DOMPurify returns nothing usable (a `<frameset>` replaces the whole body
 * of the document it parses into, leaving no body to return).
 */
export function sanitizeMarkdownHtml(html: string, doc: Document): SanitizedMarkdown | undefined {
  const result: unknown = purifierFor(doc).sanitize(html, MARKDOWN_CONFIG);
  if (!isFragment(result)) return undefined;
  const found = collect(result);
  // The policies run while the nodes still belong to DOMPurify's inert document: an <img>
  // adopted into the page starts loading at once, even before it is attached anywhere.
  const replacements = found.images.map((image) => applyImagePolicy(image, doc));
  for (const anchor of [...found.anchors, ...replacements.filter(isAnchor)]) applyLinkPolicy(anchor, doc);
  for (const input of found.inputs) applyInputPolicy(input);
  return { fragment: doc.adoptNode(result), codePlaceholders: found.placeholders };
}

/**
 * One walk over the sanitized tree for the elements the policies handle. (A TreeWalker rather
 * than querySelectorAll: selector engines cache per document, and every sanitize parses into a
 * fresh inert document.)
 */
function collect(root: DocumentFragment): {
  anchors: Element[];
  images: Element[];
  inputs: Element[];
  placeholders: Element[];
} {
  const found = {
    anchors: [] as Element[],
    images: [] as Element[],
    inputs: [] as Element[],
    placeholders: [] as Element[],
  };
  const walker = (root.ownerDocument ?? root).createTreeWalker(root, 1 /* NodeFilter.SHOW_ELEMENT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node as Element;
    switch (element.localName) {
      case 'a':
        found.anchors.push(element);
        break;
      case 'img':
        found.images.push(element);
        break;
      case 'input':
        found.inputs.push(element);
        break;
      case 'pre':
        if (element.hasAttribute('data-md-code')) found.placeholders.push(element);
        break;
      default:
        break;
    }
  }
  return found;
}

function isFragment(value: unknown): value is DocumentFragment {
  return typeof value === 'object' && value !== null && (value as Node).nodeType === 11;
}

/** The href to keep for a link, normalized, or undefined when the link must become plain text. */
export function safeHref(href: string | null): string | undefined {
  if (href === null || !isOpenableLink(href)) return undefined;
  // Keep the URL as the URL parser understood it: what is checked is exactly what is clicked.
  // (One it cannot parse, such as `http://[x`, is shown as text.)
  return URL.canParse(href) ? new URL(href).href : undefined;
}

function isAnchor(element: Element): boolean {
  return element.localName === 'a';
}

function insideLink(element: Element): boolean {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    if (isAnchor(parent)) return true;
  }
  return false;
}

function applyLinkPolicy(anchor: Element, doc: Document): void {
  const href = safeHref(anchor.getAttribute('href'));
  if (href) {
    anchor.setAttribute('href', href);
    anchor.setAttribute('rel', 'noopener noreferrer');
    // The webview has no status bar: a tooltip is the only way to see where a link goes.
    if (!anchor.hasAttribute('title')) anchor.setAttribute('title', href);
    return;
  }
  // command:, javascript:, data:, vscode:, file:, relative... render as their text.
  const span = doc.createElement('span');
  span.className = 'md-inert-link';
  span.append(...Array.from(anchor.childNodes));
  anchor.replaceWith(span);
}

/** Replaces `image` unless it is a raster data: image; returns the element now in its place. */
function applyImagePolicy(image: Element, doc: Document): Element {
  const src = image.getAttribute('src') ?? '';
  if (SAFE_IMAGE_SRC.test(src)) {
    image.className = 'md-image';
    return image;
  }
  // A remote image would be a request the model chose (tracking pixels, CSP noise): show it as
  // a link-looking text instead; clicking it asks the host to open the URL, like any link.
  const alt = image.getAttribute('alt') ?? '';
  const href = insideLink(image) ? undefined : safeHref(src);
  const replacement = doc.createElement(href ? 'a' : 'span');
  replacement.className = 'md-image-link';
  if (href) {
    replacement.setAttribute('href', href);
    replacement.setAttribute('title', `Image: ${href}`);
  }
  const icon = doc.createElement('span');
  icon.className = 'codicon codicon-file-media';
  icon.setAttribute('aria-hidden', 'true');
  const label = doc.createElement('span');
  label.className = 'md-image-alt';
  label.textContent = alt || 'image';
  replacement.append(icon, label);
  if (src) {
    const url = doc.createElement('span');
    url.className = 'md-image-url';
    url.textContent = src;
    replacement.append(' ', url);
  }
  image.replaceWith(replacement);
  return replacement;
}

function applyInputPolicy(input: Element): void {
  if ((input.getAttribute('type') ?? '').toLowerCase() === 'checkbox') input.setAttribute('disabled', '');
  else input.remove();
}
