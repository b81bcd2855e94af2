// A user turn in the DOM: plain text (never parsed) with its attachment chips, its images as
// thumbnails, and an Edit action.
import type { ImageRef, UserTurn } from '../../shared/chatModel';
import { attachmentChip } from './attachmentChip';
import { el, formatTime, iconButton, textButton } from './dom';
import { imageThumb } from './imageThumb';
import type { Send } from './send';

export class UserTurnView {
  readonly element: HTMLElement;

  constructor(
    readonly turn: UserTurn,
    onEdit: (view: UserTurnView) => void,
    imageSrc: (ref: ImageRef) => string = () => '',
  ) {
    const chips = turn.attachments.length
      ? el('div', { className: 'chips' }, ...turn.attachments.map((a) => attachmentChip(a)))
      : undefined;
    const images = turn.images?.length
      ? el(
          'div',
          { className: 'image-thumbs', attrs: { role: 'group', 'aria-label': 'Images' } },
          ...turn.images.map((ref) => imageThumb(ref, imageSrc(ref))),
        )
      : undefined;
    this.element = el(
      'article',
      { className: 'turn user', attrs: { 'aria-label': 'Your message', 'data-turn-id': turn.id, tabindex: '-1' } },
      el(
        'div',
        { className: 'turn-header' },
        el('span', { className: 'who', text: 'You' }),
        el('span', { className: 'when', text: formatTime(turn.createdAt) }),
        iconButton('edit', 'Edit and resend', () => onEdit(this), { className: 'turn-action' }),
      ),
      chips,
      images,
      el('div', { className: 'user-text', text: turn.text }),
    );
  }

  /** Swaps the text for an editor; Enter (or Save) resends from here, Escape cancels. */
  startEditing(send: Send): void {
    const textBox = this.element.querySelector<HTMLElement>('.user-text');
    if (!textBox || this.element.querySelector('.edit-box')) return;
    const area = el('textarea', { className: 'edit-box', attrs: { 'aria-label': 'Edit your message', rows: '3' } });
    area.value = this.turn.text;
    const finish = (): void => {
      editor.remove();
      textBox.hidden = false;
    };
    const submit = (): void => {
      send({ type: 'editAndResend', turnId: this.turn.id, text: area.value });
      finish();
    };
    const editor = el(
      'div',
      { className: 'edit' },
      area,
      el('div', { className: 'edit-actions' }, textButton('Save & Resend', submit), textButton('Cancel', finish, true)),
    );
    area.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        submit();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        finish();
      }
    });
    textBox.hidden = true;
    textBox.after(editor);
    area.focus();
  }
}
