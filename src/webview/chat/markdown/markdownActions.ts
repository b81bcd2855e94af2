// Clicks inside rendered markdown. Links never navigate the webview: every click on one is
// prevented and, when its href passes the scheme check, handed to the host (which checks again).
// One delegated listener on the container serves blocks rendered later, so re-rendering the
// streaming tail never has to re-attach handlers.
import { codeBlockIndex, codeBlockOf } from './codeBlocks';
import { safeHref } from './sanitize';
import type { MarkdownActions } from './streamingMarkdown';

const COPIED_FEEDBACK_MS = 1500;

/** Routes link and code-toolbar clicks in `container` to `actions`; returns a function that stops it. */
export function attachMarkdownActions(container: HTMLElement, actions: MarkdownActions): () => void {
  const onClick = (event: MouseEvent): void => {
    const target = elementOf(event.target);
    if (!target) return;
    const button = target.closest('button[data-md-action]');
    if (button && container.contains(button)) {
      event.preventDefault();
      runCodeAction(container, button, actions);
      return;
    }
    const anchor = target.closest('a');
    if (anchor && container.contains(anchor)) {
      event.preventDefault();
      const href = safeHref(anchor.getAttribute('href'));
      if (href) actions.openLink(href);
    }
  };
  // Middle click would otherwise ask the webview to open the link in a new window.
  const onAuxClick = (event: MouseEvent): void => {
    const anchor = elementOf(event.target)?.closest('a');
    if (!anchor || !container.contains(anchor)) return;
    event.preventDefault();
    const href = safeHref(anchor.getAttribute('href'));
    if (href && event.button === 1) actions.openLink(href);
  };
  container.addEventListener('click', onClick);
  container.addEventListener('auxclick', onAuxClick);
  return () => {
    container.removeEventListener('click', onClick);
    container.removeEventListener('auxclick', onAuxClick);
  };
}

function elementOf(target: EventTarget | null): Element | undefined {
  // nodeType rather than instanceof: the container may live in another realm (tests, iframes).
  const node = target as Node | null;
  if (!node) return undefined;
  if (node.nodeType === 1) return node as Element;
  return node.parentElement ?? undefined;
}

function runCodeAction(container: HTMLElement, button: Element, actions: MarkdownActions): void {
  const block = codeBlockOf(button);
  if (!block) return;
  const action = button.getAttribute('data-md-action');
  if (action === 'apply') {
    const index = codeBlockIndex(container, button);
    if (index !== undefined) actions.apply?.(index);
  } else if (action === 'copy') {
    actions.copy(block.code);
    showCopied(button);
  } else if (action === 'insert') {
    actions.insert(block.code);
  } else if (action === 'newFile') {
    actions.newFile(block.code, block.language);
  }
}

/** A check mark and "Copied" on a copy button for a moment: the answer shows where the click was. */
export function showCopied(button: Element): void {
  const icon = button.querySelector('.codicon');
  const view = button.ownerDocument.defaultView;
  if (!icon || !view || icon.classList.contains('codicon-check')) return;
  const label = button.getAttribute('aria-label') ?? 'Copy';
  icon.classList.replace('codicon-copy', 'codicon-check');
  button.setAttribute('aria-label', 'Copied');
  view.setTimeout(() => {
    icon.classList.replace('codicon-check', 'codicon-copy');
    button.setAttribute('aria-label', label);
  }, COPIED_FEEDBACK_MS);
}
