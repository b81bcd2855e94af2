// The chat webview: renders what the host sends and sends what the user does. Streaming touches
// only the reply being written (deltas are appended to it); a whole conversation is rendered only
// when one is opened.
import type { AssistantTurn, ChatTurn, Conversation, UserTurn } from '../../shared/chatModel';
import { assertNever, type ConnectionState, type HostToChatMessage } from '../../shared/chatProtocol';
import { allowFirstPending, approvalHint, approvalLabel, isAllowShortcut, isOnceOnly, type Arm } from './approvalCard';
import { AssistantTurnView } from './assistantTurnView';
import { AutoScroll } from './autoscroll';
import { Composer } from './composer';
import { renderConnectionCard } from './connectionCard';
import { DeferredReplies, EAGER_TURNS } from './deferredReplies';
import { el } from './dom';
import { HistoryView } from './historyView';
import { NoticeBar } from './noticeBar';
import type { MarkdownActions } from './markdown/streamingMarkdown';
import type { Send } from './send';
import { SettingsBar } from './settingsBar';
import { UserTurnView } from './userTurnView';
import { imageSrc } from './imageThumb';

export interface DraftState {
  readonly draft?: string;
}

export interface ChatAppOptions {
  /** When approval cards start to take decisions (default: ARMING_MS after they appear; tests arm on their own terms). */
  readonly armApprovals?: Arm;
}

export class ChatApp {
  private readonly header: SettingsBar;
  private readonly messages: HTMLElement;
  private readonly composer: Composer;
  private readonly history: HistoryView;
  private readonly connection: HTMLElement;
  private readonly chat: HTMLElement;
  private readonly scroll: AutoScroll;
  private readonly announcer: HTMLElement;
  private readonly notices: NoticeBar;
  private readonly replies = new Map<string, AssistantTurnView>();
  private readonly users: UserTurnView[] = [];
  private conversationId = '';
  /** Where the conversations' images load from (the host's `imageRoot`). */
  private imageRoot = '';
  /** Turns of the open conversation whose reply has a checkpoint. */
  private checkpointTurns = new Set<string>();
  /** Of those, the ones whose files were restored to before them. */
  private restoredTurns = new Set<string>();
  private busy = false;
  private readonly markdownActions: MarkdownActions;
  /** Older replies of the opened conversation whose markdown is rendered later (see DeferredReplies). */
  private deferred: DeferredReplies | undefined;

  constructor(
    root: HTMLElement,
    private readonly send: Send,
    draft: DraftState | undefined,
    saveDraft: (state: DraftState) => void,
    private readonly options: ChatAppOptions = {},
  ) {
    this.markdownActions = {
      copy: (text) => send({ type: 'copyText', text }),
      insert: (code) => send({ type: 'insertCode', code }),
      newFile: (code, language) => send({ type: 'newFile', code, language }),
      openLink: (href) => send({ type: 'openLink', href }),
    };
    this.header = new SettingsBar(send, {
      newChat: () => send({ type: 'newConversation' }),
      history: () => this.showHistory(true),
    });
    this.messages = el('div', {
      className: 'messages',
      attrs: { role: 'log', 'aria-label': 'Conversation', tabindex: '0' },
    });
    this.composer = new Composer(send, {
      editLast: () => this.editLast(),
      draftChanged: (text) => saveDraft({ draft: text }),
    });
    this.history = new HistoryView(send, () => this.showHistory(false));
    this.notices = new NoticeBar(send);
    this.connection = el('div', { className: 'connection' });
    this.announcer = el('div', { className: 'visually-hidden', attrs: { 'aria-live': 'polite', role: 'status' } });
    this.chat = el(
      'div',
      { className: 'chat' },
      this.header.element,
      this.connection,
      this.messages,
      this.composer.element,
    );
    this.history.element.hidden = true;
    root.replaceChildren(this.chat, this.history.element, this.notices.element, this.announcer);
    root.removeAttribute('aria-live');
    this.scroll = new AutoScroll(this.messages);
    if (draft?.draft) this.composer.setText(draft.draft);
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.busy && !event.defaultPrevented) send({ type: 'stop' });
      // Ctrl+L / Cmd+L: the webview takes it, since VS Code's keybinding for it never matches while
      // the focus is inside a webview view (its context keys describe the workbench, not the frame).
      if (isNewChatShortcut(event) && !event.defaultPrevented) {
        event.preventDefault();
        event.stopPropagation();
        send({ type: 'newConversation' });
      }
      // The explicit way to allow from the keyboard, wherever the focus is (the card never takes it).
      // Taken, it goes no further: VS Code, which gets the webview's keys from the window, never sees it.
      if (isAllowShortcut(event) && !this.chat.hidden && allowFirstPending(this.messages)) {
        event.preventDefault();
        event.stopPropagation();
      }
    });
  }

  handle(message: HostToChatMessage): void {
    switch (message.type) {
      case 'connectionState':
        return this.showConnection(message.state);
      case 'models':
        this.composer.setModel(
          message.selected,
          message.models.some((model) => model.id === message.selected && model.takesImages === true),
        );
        return this.header.setModels(message.models, message.selected, message.loading, message.error);
      case 'parameters':
        return this.header.setParameters(message.parameters);
      case 'conversation':
        return this.openConversation(message.conversation, message.busy);
      case 'title':
        return this.header.setTitle(message.title);
      case 'userTurn':
        this.addTurn(message.turn);
        this.scroll.follow();
        return;
      case 'turnsRemoved':
        return this.removeFrom(message.fromId);
      case 'replyStarted':
        this.setBusy(true);
        this.addTurn(message.turn);
        this.scroll.follow();
        return;
      case 'replyDelta':
        this.replies.get(message.id)?.append(message.content, message.reasoning);
        this.scroll.contentChanged();
        return;
      case 'toolStep': {
        const step = message.step;
        this.replies.get(message.id)?.setStep(message.index, step);
        // Said, not focused: the focus stays where the user is typing.
        if (step.kind === 'function' && step.status === 'awaitingApproval')
          this.announcer.textContent = `Waiting for your approval: ${approvalLabel(step)} ${approvalHint(isOnceOnly(step))}`;
        this.scroll.contentChanged();
        return;
      }
      case 'replyEnded': {
        const view = this.replies.get(message.id);
        if (message.sources) view?.setSources(message.sources);
        view?.end(message.status, message.error, message.usage, message.finishReason);
        this.setBusy(false);
        this.announcer.textContent =
          message.status === 'error'
            ? `Reply failed: ${message.error?.message ?? ''}`
            : message.status === 'stopped'
              ? message.error
                ? `Reply stopped: ${message.error.message}`
                : 'Reply stopped.'
              : 'Reply finished.';
        this.scroll.contentChanged();
        return;
      }
      case 'replyCost':
        this.replies.get(message.id)?.setCost(message.cost);
        return;
      case 'replyContext':
        this.replies.get(message.id)?.setContext(message.context);
        this.scroll.contentChanged();
        return;
      case 'contextMeter':
        return this.composer.setMeter(message.meter);
      case 'costEstimate':
        return this.composer.setEstimate(message.estimate);
      case 'conversationCost':
        return this.header.setCost(message.cost);
      case 'attachments':
        return this.composer.setAttachments(message.attachments);
      case 'images':
        return this.composer.setImages(message.images, (ref) => imageSrc(this.imageRoot, this.conversationId, ref));
      case 'imageRoot':
        this.imageRoot = message.root;
        return;
      case 'history':
        return this.history.render(message.conversations, message.query, this.conversationId);
      case 'fileSuggestions':
        return this.composer.showSuggestions(message.requestId, message.paths);
      case 'prefill':
        this.showHistory(false);
        this.composer.setText(message.text);
        this.composer.focus();
        return;
      case 'showView':
        return this.showHistory(message.view === 'history');
      case 'notice':
        return this.notices.show(message.notice);
      case 'checkpoints':
        this.checkpointTurns = new Set(message.turnIds);
        this.restoredTurns = new Set(message.restored);
        for (const [id, view] of this.replies)
          view.setCheckpoint(this.checkpointTurns.has(id), this.restoredTurns.has(id));
        return;
      default:
        assertNever(message);
    }
  }

  private showConnection(state: ConnectionState): void {
    const ready = state.baseUrl !== '' && state.keySource !== 'none';
    this.connection.hidden = ready;
    if (!ready) renderConnectionCard(this.connection, state, (command) => this.send({ type: 'runCommand', command }));
  }

  private openConversation(conversation: Conversation, busy: boolean): void {
    if (conversation.id !== this.conversationId) {
      this.checkpointTurns = new Set();
      this.restoredTurns = new Set();
    }
    this.conversationId = conversation.id;
    this.replies.clear();
    this.users.length = 0;
    this.deferred?.dispose();
    // A 500-message conversation rendered whole took about a second (markdown, sanitizing and
    // highlighting of every reply); only the end is on screen when it opens.
    this.deferred = DeferredReplies.supported ? new DeferredReplies(this.messages) : undefined;
    const eagerFrom = conversation.turns.length - EAGER_TURNS;
    this.header.setTitle(conversation.title);
    const fragment = document.createDocumentFragment();
    conversation.turns.forEach((turn, index) => fragment.append(this.turnElement(turn, index < eagerFrom)));
    this.messages.replaceChildren(fragment);
    this.deferred?.start();
    if (conversation.turns.length === 0) this.messages.append(this.emptyState());
    this.setBusy(busy);
    this.showHistory(false, false);
    this.scroll.follow();
  }

  private emptyState(): HTMLElement {
    return el(
      'div',
      { className: 'empty-state' },
      el('p', { text: 'Ask about your code, or anything else.' }),
      el('p', {
        className: 'hint',
        text: 'Add context with the buttons below or @file. Enter sends, Shift+Enter adds a line, Escape stops, ↑ edits your last message.',
      }),
    );
  }

  private turnElement(turn: ChatTurn, deferMarkdown = false): HTMLElement {
    if (turn.role === 'user') {
      const view = new UserTurnView(
        turn,
        (v) => v.startEditing(this.send),
        (ref) => imageSrc(this.imageRoot, this.conversationId, ref),
      );
      this.users.push(view);
      return view.element;
    }
    const defer = deferMarkdown && this.deferred !== undefined;
    const view = new AssistantTurnView(turn, this.send, this.markdownActions, {
      deferMarkdown: defer,
      armApprovals: this.options.armApprovals,
    });
    if (defer) this.deferred?.add(view);
    if (this.checkpointTurns.has(turn.id)) view.setCheckpoint(true, this.restoredTurns.has(turn.id));
    this.replies.set(turn.id, view);
    return view.element;
  }

  private addTurn(turn: UserTurn | AssistantTurn): void {
    this.messages.querySelector('.empty-state')?.remove();
    this.messages.append(this.turnElement(turn));
  }

  private removeFrom(turnId: string): void {
    const first = Array.from(this.messages.children).find((node) => node.getAttribute('data-turn-id') === turnId);
    if (!first) return;
    let node: Element | null = first;
    while (node) {
      const next: Element | null = node.nextElementSibling;
      const id = node.getAttribute('data-turn-id');
      if (id) this.replies.delete(id);
      node.remove();
      node = next;
    }
    const remaining = new Set(
      Array.from(this.messages.querySelectorAll('[data-turn-id]'), (n) => n.getAttribute('data-turn-id')),
    );
    for (let i = this.users.length - 1; i >= 0; i--)
      if (!remaining.has(this.users[i]?.turn.id ?? '')) this.users.splice(i, 1);
  }

  private editLast(): void {
    const last = this.users[this.users.length - 1];
    if (!last) return;
    last.element.scrollIntoView?.({ block: 'nearest' }); // absent in jsdom
    last.startEditing(this.send);
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    this.composer.setBusy(busy);
    this.messages.setAttribute('aria-busy', String(busy));
  }

  /** `focus`: only after the user's own action; a page that loads must not take the focus (it
   *  would close a quick pick the user has open in the workbench). */
  private showHistory(show: boolean, focus = true): void {
    this.history.element.hidden = !show;
    this.chat.hidden = show;
    if (show) {
      this.send({ type: 'searchHistory', query: '' });
      if (focus) this.history.focus();
    } else if (focus) {
      this.composer.focus();
    }
  }
}

/** Ctrl+L, or Cmd+L on macOS, with no other modifier. */
function isNewChatShortcut(event: KeyboardEvent): boolean {
  return (
    event.key.toLowerCase() === 'l' &&
    event.ctrlKey !== event.metaKey &&
    !event.altKey &&
    !event.shiftKey &&
    !event.isComposing
  );
}
