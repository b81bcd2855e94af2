// The chat's answer to an action taken in it (see ChatNotices on the host): one line under the
// conversation or the history, read out politely, with its one button (Undo, Open); it goes after a
// while, or at once with its close button.
import type { ChatNotice } from '../../shared/chatProtocol';
import { el, icon, iconButton, textButton } from './dom';
import type { Send } from './send';

const SHOWN_MS = 10_000;
/** Long enough to reach the button. */
const SHOWN_WITH_ACTION_MS = 30_000;

export class NoticeBar {
  readonly element: HTMLElement;
  private timer: number | undefined;

  constructor(private readonly send: Send) {
    this.element = el('div', { className: 'notice', attrs: { role: 'status', 'aria-live': 'polite' } });
    this.element.hidden = true;
  }

  show(notice: ChatNotice): void {
    const view = this.element.ownerDocument.defaultView;
    if (this.timer !== undefined) view?.clearTimeout(this.timer);
    this.element.className = `notice ${notice.severity}`;
    this.element.replaceChildren(
      icon(notice.severity === 'warning' ? 'warning' : 'info'),
      el('span', { className: 'notice-text', text: notice.text }),
      notice.action
        ? textButton(notice.action, () => {
            this.send({ type: 'noticeAction', id: notice.id });
            this.hide();
          })
        : '',
      iconButton('close', 'Dismiss', () => this.hide()),
    );
    this.element.hidden = false;
    this.timer = view?.setTimeout(() => this.hide(), notice.action ? SHOWN_WITH_ACTION_MS : SHOWN_MS);
  }

  hide(): void {
    this.element.hidden = true;
    this.element.replaceChildren();
  }
}
