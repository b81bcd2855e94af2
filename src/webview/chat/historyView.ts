// The history list: conversations with title, date and model; search; open, rename, export and
// delete. Rows are buttons (keyboard reachable); actions have labels for screen readers.
import type { ConversationSummary } from '../../shared/chatModel';
import { conversationCostText } from './costText';
import { el, formatTime, iconButton } from './dom';
import type { Send } from './send';

export class HistoryView {
  readonly element: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly search: HTMLInputElement;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: Send,
    close: () => void,
  ) {
    this.search = el('input', {
      className: 'history-search',
      attrs: { type: 'search', placeholder: 'Search conversations', 'aria-label': 'Search conversations' },
    });
    this.search.addEventListener('input', () => {
      if (this.searchTimer) clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => this.send({ type: 'searchHistory', query: this.search.value }), 150);
    });
    this.search.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') close();
    });
    this.list = el('ul', { className: 'history-list', attrs: { 'aria-label': 'Conversations' } });
    this.element = el(
      'section',
      { className: 'history', attrs: { 'aria-label': 'Chat history' } },
      el(
        'div',
        { className: 'history-header' },
        el('h2', { text: 'History' }),
        iconButton('close', 'Back to the chat', close),
      ),
      this.search,
      this.list,
    );
  }

  focus(): void {
    this.search.focus();
  }

  render(conversations: readonly ConversationSummary[], query: string, currentId: string): void {
    if (this.search.value !== query && document.activeElement !== this.search) this.search.value = query;
    if (conversations.length === 0) {
      this.list.replaceChildren(
        el('li', {
          className: 'empty',
          text: query ? `No conversation mentions "${query}".` : 'No conversations yet.',
        }),
      );
      return;
    }
    this.list.replaceChildren(
      ...conversations.map((c) => {
        const open = el(
          'button',
          { className: 'history-open', attrs: { type: 'button', 'aria-current': String(c.id === currentId) } },
          el('span', { className: 'history-title', text: c.title }),
          el('span', {
            className: 'history-meta',
            text: [
              formatTime(c.updatedAt),
              c.model || 'no model',
              `${c.turnCount} messages`,
              ...(c.cost ? [conversationCostText(c.cost)] : []),
            ].join(' · '),
          }),
        );
        open.addEventListener('click', () => this.send({ type: 'openConversation', id: c.id }));
        return el(
          'li',
          { className: 'history-item', attrs: { 'data-id': c.id } },
          open,
          el(
            'span',
            { className: 'history-actions' },
            iconButton('edit', `Rename ${c.title}`, () => this.send({ type: 'renameConversation', id: c.id })),
            iconButton('export', `Export ${c.title} to Markdown`, () =>
              this.send({ type: 'exportConversation', id: c.id }),
            ),
            iconButton('trash', `Delete ${c.title}`, () => this.send({ type: 'deleteConversation', id: c.id })),
          ),
        );
      }),
    );
  }
}
