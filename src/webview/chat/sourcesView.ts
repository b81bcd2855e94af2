// A reply's sources under it: a numbered list of links, each its page's title (the host name when it
// has none) with the address in its tooltip and accessible name. The list is text built with
// textContent (titles are untrusted); a click never navigates the webview: the address goes to the
// host, which opens it the way it opens every other link of the chat (openLink checks it again).
import { sourceLabel, sourceUrl, type ReplySource } from '../../shared/replySources';
import { el, icon } from './dom';

/** The list, or undefined when there is nothing that may be shown (no source, or none http(s)). */
export function sourcesView(
  sources: readonly ReplySource[],
  openLink: (href: string) => void,
): HTMLElement | undefined {
  const items = sources.flatMap((source) => {
    // Checked here too: a saved conversation reaches the page through the host, but the page trusts nothing.
    const url = sourceUrl(source.url);
    if (url === undefined) return [];
    const label = sourceLabel({ ...source, url });
    const link = el('a', {
      className: 'source-link',
      text: label,
      attrs: { href: url, title: url, 'aria-label': `${label} (${url})` },
    });
    const open = (event: Event): void => {
      event.preventDefault();
      openLink(url);
    };
    link.addEventListener('click', open);
    // A middle click would otherwise ask the webview to open a window of its own.
    link.addEventListener('auxclick', (event) => {
      event.preventDefault();
      if (event.button === 1) openLink(url);
    });
    return [el('li', {}, link)];
  });
  if (items.length === 0) return undefined;
  return el(
    'section',
    { className: 'sources', attrs: { 'aria-label': 'Sources' } },
    el('div', { className: 'sources-title' }, icon('link'), el('span', { text: 'Sources' })),
    el('ol', { className: 'sources-list' }, ...items),
  );
}
