// The message box: Enter sends, Shift+Enter breaks the line, Escape stops a reply, Up on an empty
// box edits the last message, `@` followed by a name suggests workspace files (arrows + Enter or
// Tab to attach) and, first, the context mentions it could be (@codebase, @research: completed in
// the text, which the host reads when the message goes). Attachments show as removable chips above
// the box, images as thumbnails (composerImages.ts).
import type { Attachment, ImageRef } from '../../shared/chatModel';
import type { ContextMeter, CostEstimate } from '../../shared/chatProtocol';
import { estimateText } from './costText';
import { mentionsStartingWith, type ContextMention } from '../../shared/contextMentions';
import { isAllowShortcut } from './approvalCard';
import { attachmentChip } from './attachmentChip';
import { ContextMeterView, instructionChip } from './contextViews';
import { el, iconButton } from './dom';
import { ComposerImages } from './composerImages';
import type { Send } from './send';

export interface ComposerHooks {
  editLast(): void;
  draftChanged(text: string): void;
}

const MENTION = /(^|\s)@([^\s@]*)$/;
/** The draft's length goes to the host once typing pauses this long (its estimate needs no request). */
const DRAFT_SIZE_DEBOUNCE_MS = 250;

export class Composer {
  readonly element: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly chips: HTMLElement;
  private readonly attachmentChips: HTMLElement;
  private readonly instructionChips: HTMLElement;
  private readonly meter = new ContextMeterView();
  private readonly sendButton: HTMLButtonElement;
  private readonly estimate: HTMLElement;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly stopButton: HTMLButtonElement;
  private readonly suggestions: HTMLUListElement;
  private readonly images: ComposerImages;
  private busy = false;
  private attachments: readonly Attachment[] = [];
  private suggestionPaths: readonly string[] = [];
  /** The context mentions the word after @ could be: listed before the files. */
  private suggestionMentions: readonly ContextMention[] = [];
  private active = 0;
  private requestId = 0;

  constructor(
    private readonly send: Send,
    private readonly hooks: ComposerHooks,
  ) {
    this.input = el('textarea', {
      className: 'composer-input',
      attrs: {
        rows: '2',
        'aria-label': 'Message (Enter to send, Shift+Enter for a new line, @ to add a file)',
        placeholder: 'Ask anything. @ adds a file; Enter sends.',
        'aria-autocomplete': 'list',
        'aria-controls': 'file-suggestions',
      },
    });
    this.attachmentChips = el('span', {
      className: 'attachment-chips',
      attrs: { role: 'group', 'aria-label': 'Attached context' },
    });
    this.instructionChips = el('span', {
      className: 'instruction-chips',
      attrs: { role: 'group', 'aria-label': 'Instruction files in the system prompt' },
    });
    this.chips = el('div', { className: 'chips' }, this.instructionChips, this.attachmentChips);
    this.images = new ComposerImages(send);
    this.suggestions = el('ul', {
      className: 'suggestions',
      attrs: { id: 'file-suggestions', role: 'listbox', 'aria-label': 'Workspace files' },
    });
    this.suggestions.hidden = true;
    this.sendButton = iconButton('send', 'Send', () => this.submit(), { className: 'send' });
    this.estimate = el('span', { className: 'cost-estimate', attrs: { role: 'status' } });
    this.estimate.hidden = true;
    this.stopButton = iconButton('debug-stop', 'Stop', () => this.send({ type: 'stop' }), { className: 'stop' });
    const toolbar = el(
      'div',
      { className: 'composer-toolbar' },
      iconButton('selection', 'Add selection', () => this.send({ type: 'addContext', source: 'selection' })),
      iconButton('file', 'Add active file', () => this.send({ type: 'addContext', source: 'activeFile' })),
      iconButton('file-add', 'Add a workspace file…', () => this.send({ type: 'addContext', source: 'pickFile' })),
      this.images.attachButton,
      el('span', { className: 'spacer' }),
      this.meter.element,
      this.estimate,
      this.stopButton,
      this.sendButton,
    );
    this.element = el(
      'div',
      { className: 'composer' },
      this.suggestions,
      this.chips,
      this.images.thumbs,
      this.images.note,
      this.input,
      toolbar,
    );
    this.images.listen(this.input, this.element);
    this.input.addEventListener('keydown', (event) => this.onKey(event));
    this.input.addEventListener('input', () => {
      this.autosize();
      this.hooks.draftChanged(this.input.value);
      this.noteDraftSize();
      this.updateMention();
    });
    this.setBusy(false);
    this.updateChipsRow();
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.stopButton.hidden = !busy;
    this.sendButton.hidden = busy;
  }

  setAttachments(attachments: readonly Attachment[]): void {
    this.attachments = attachments;
    this.attachmentChips.replaceChildren(
      ...attachments.map((a) => attachmentChip(a, () => this.send({ type: 'removeAttachment', id: a.id }))),
    );
    this.updateChipsRow();
  }

  /** The images waiting for the next message; `srcOf` gives each one's picture URL. */
  setImages(images: readonly ImageRef[], srcOf: (ref: ImageRef) => string): void {
    this.images.set(images, srcOf);
  }

  /** The selected model: the attach button says whether it takes images. */
  setModel(id: string, takesImages: boolean): void {
    this.images.setModel(id, takesImages);
  }

  /** The context meter and the instruction files' chips. */
  setMeter(meter: ContextMeter): void {
    this.meter.set(meter);
    this.instructionChips.replaceChildren(...meter.files.map((file) => instructionChip(file, this.send)));
    this.updateChipsRow();
  }

  private updateChipsRow(): void {
    this.chips.hidden = this.attachmentChips.childElementCount === 0 && this.instructionChips.childElementCount === 0;
  }

  setText(text: string): void {
    this.input.value = text;
    this.autosize();
    this.hooks.draftChanged(text);
    this.noteDraftSize(0);
  }

  /** The estimate beside Send (undefined hides it). */
  setEstimate(estimate: CostEstimate | undefined): void {
    this.estimate.hidden = !estimate;
    if (!estimate) return;
    const { text, title } = estimateText(estimate);
    this.estimate.textContent = text;
    this.estimate.title = title;
    this.estimate.classList.toggle('unknown', estimate.kind === 'unknown');
  }

  /** Tells the host the draft's length once typing pauses (`delay` 0: at once, e.g. after a send). */
  private noteDraftSize(delay = DRAFT_SIZE_DEBOUNCE_MS): void {
    if (this.draftTimer) clearTimeout(this.draftTimer);
    this.draftTimer = setTimeout(() => {
      this.draftTimer = undefined;
      this.send({ type: 'draftSize', chars: this.input.value.length });
    }, delay);
  }

  focus(): void {
    this.input.focus();
  }

  showSuggestions(requestId: number, paths: readonly string[]): void {
    const match = MENTION.exec(this.beforeCaret());
    if (requestId !== this.requestId || !match) return;
    this.suggestionMentions = mentionsStartingWith(match[2] ?? '');
    this.suggestionPaths = paths;
    this.active = 0;
    this.renderSuggestions();
  }

  private submit(): void {
    if (this.busy) return;
    const text = this.input.value;
    if (!text.trim() && this.attachments.length === 0 && this.images.count === 0) return;
    this.send({ type: 'send', text });
    this.setText('');
    this.closeSuggestions();
  }

  private onKey(event: KeyboardEvent): void {
    // The approval shortcut is the app's (document-wide), never a send.
    if (event.isComposing || isAllowShortcut(event)) return;
    const count = this.suggestionCount();
    if (!this.suggestions.hidden && count) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.active = (this.active + step + count) % count;
        this.renderSuggestions();
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        this.chooseIndex(this.active);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        this.closeSuggestions();
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      this.submit();
    } else if (event.key === 'Escape' && this.busy) {
      event.preventDefault();
      this.send({ type: 'stop' });
    } else if (event.key === 'ArrowUp' && this.input.value === '') {
      event.preventDefault();
      this.hooks.editLast();
    }
  }

  private beforeCaret(): string {
    return this.input.value.slice(0, this.input.selectionStart ?? this.input.value.length);
  }

  private updateMention(): void {
    const match = MENTION.exec(this.beforeCaret());
    if (!match) return this.closeSuggestions();
    this.send({ type: 'suggestFiles', requestId: ++this.requestId, query: match[2] ?? '' });
  }

  private suggestionCount(): number {
    return this.suggestionMentions.length + this.suggestionPaths.length;
  }

  /** Suggestion `index`: a context mention (completed in the text), else a file (attached). */
  private chooseIndex(index: number): void {
    const mention = this.suggestionMentions[index];
    if (mention) this.completeMention(mention);
    else this.choose(this.suggestionPaths[index - this.suggestionMentions.length]);
  }

  private completeMention(mention: ContextMention): void {
    const before = this.beforeCaret().replace(MENTION, `$1@${mention.name} `);
    const after = this.input.value.slice(this.input.selectionStart ?? this.input.value.length);
    this.setText(before + after);
    this.input.setSelectionRange(before.length, before.length);
    this.closeSuggestions();
  }

  private choose(path: string | undefined): void {
    if (!path) return;
    const before = this.beforeCaret().replace(MENTION, '$1');
    const after = this.input.value.slice(this.input.selectionStart ?? this.input.value.length);
    this.setText(before + after);
    this.input.setSelectionRange(before.length, before.length);
    this.send({ type: 'attachFile', path });
    this.closeSuggestions();
  }

  private renderSuggestions(): void {
    const offset = this.suggestionMentions.length;
    const mentionItems = this.suggestionMentions.map((mention, index) => {
      const item = el(
        'li',
        {
          className: `mention${index === this.active ? ' active' : ''}`,
          attrs: { role: 'option', id: `suggestion-${index}`, 'aria-selected': String(index === this.active) },
        },
        el('span', { className: 'mention-name', text: `@${mention.name}` }),
        el('span', { className: 'mention-hint', text: ` ${mention.hint}` }),
      );
      item.addEventListener('mousedown', (event) => {
        event.preventDefault();
        this.completeMention(mention);
      });
      return item;
    });
    this.suggestions.replaceChildren(
      ...mentionItems,
      ...this.suggestionPaths.map((path, pathIndex) => {
        const index = pathIndex + offset;
        const item = el('li', {
          className: index === this.active ? 'active' : '',
          text: path,
          attrs: { role: 'option', id: `suggestion-${index}`, 'aria-selected': String(index === this.active) },
        });
        item.addEventListener('mousedown', (event) => {
          event.preventDefault();
          this.choose(path);
        });
        return item;
      }),
    );
    this.suggestions.hidden = this.suggestionCount() === 0;
    if (this.suggestionCount()) this.input.setAttribute('aria-activedescendant', `suggestion-${this.active}`);
    else this.input.removeAttribute('aria-activedescendant');
  }

  private closeSuggestions(): void {
    this.suggestionPaths = [];
    this.suggestionMentions = [];
    this.suggestions.hidden = true;
    this.input.removeAttribute('aria-activedescendant');
  }

  private autosize(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${Math.min(this.input.scrollHeight, 240)}px`;
  }
}
