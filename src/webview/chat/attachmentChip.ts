// A file or selection added as context, shown as a chip (in the composer, removable, and on the user turn that sent it).
import type { Attachment } from '../../shared/chatModel';
import { el, icon, iconButton } from './dom';

/** Each kind's codicon (a research report: the beaker of the Research view). */
const KIND_ICONS: Readonly<Record<Attachment['kind'], string>> = {
  selection: 'selection',
  file: 'file',
  research: 'beaker',
};

export function attachmentChip(attachment: Attachment, onRemove?: () => void): HTMLElement {
  const label =
    attachment.startLine !== undefined
      ? `${attachment.path}:${attachment.startLine}-${attachment.endLine}`
      : attachment.path;
  const chip = el(
    'span',
    { className: 'chip', attrs: { title: `${label}${attachment.truncated ? ' (truncated)' : ''}` } },
    icon(KIND_ICONS[attachment.kind]),
    el('span', { className: 'chip-label', text: label }),
  );
  if (onRemove) chip.append(iconButton('close', `Remove ${label}`, onRemove, { className: 'chip-remove' }));
  return chip;
}
