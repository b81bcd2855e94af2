// An assistant turn in the DOM. It streams: reasoning (collapsed), tool steps with approval
// buttons, the markdown answer, then usage, cost, and an error with its actions.
import type {
  AssistantTurn,
  ChatErrorInfo,
  ReplyContext,
  ReplyCost,
  ReplyStatus,
  TokenUsage,
  ToolStep,
} from '../../shared/chatModel';
import { armAfterDelay, type Arm } from './approvalCard';
import { contextNote } from './contextViews';
import { costText } from './costText';
import { el, icon, iconButton, textButton } from './dom';
import { showCopied } from './markdown/markdownActions';
import { ThinkingSummary } from './thinkingSummary';
import { StreamingMarkdown, type MarkdownActions } from './markdown/streamingMarkdown';
import type { Send } from './send';
import { sourcesView } from './sourcesView';
import { toolStepView } from './toolStepView';
import type { ReplySource } from '../../shared/replySources';

const ERROR_ACTION_LABELS = {
  retry: 'Retry',
  setApiKey: 'Set API Key',
  openSettings: 'Open Settings',
  showLog: 'Show Log',
  refreshCredits: 'Refresh Credits',
  openSpendCap: 'Open Spend Cap Setting',
} as const;
/** One formatter for every footer: Number#toLocaleString builds a new one per call (measurable over 250 replies). */
const COUNT_FORMAT = new Intl.NumberFormat();
/** Marks a reply whose stored text shows as plain text until its markdown is rendered. */
const DEFERRED_ATTRIBUTE = 'data-md-deferred';

export interface AssistantTurnOptions {
  /**
   * Show the stored text as plain text and render its markdown only on render(): opening a long
   * conversation then costs a text node per older reply instead of marked, DOMPurify and
   * highlight.js for all of them (see DeferredReplies).
   */
  readonly deferMarkdown?: boolean;
  /** When an approval card's buttons start to take decisions (tests arm at once). */
  readonly armApprovals?: Arm;
  /** The clock of "Thinking… 12 s" (tests set it). */
  readonly now?: () => number;
}

export class AssistantTurnView {
  readonly element: HTMLElement;
  private readonly markdown: StreamingMarkdown;
  private readonly reasoning: HTMLDetailsElement;
  private readonly reasoningText: HTMLElement;
  private readonly steps: HTMLOListElement;
  private readonly content: HTMLElement;
  /** The numbered links to the reply's sources (hidden when it has none). */
  private readonly sourcesBox: HTMLElement;
  private readonly footer: HTMLElement;
  private readonly errorBox: HTMLElement;
  private readonly badge: HTMLElement;
  private readonly contextBox: HTMLElement;
  private status: ReplyStatus;
  private usage: TokenUsage | undefined;
  private cost: ReplyCost | undefined;
  private finishReason: string | undefined;
  /** The stored text while its markdown is not rendered yet. */
  private deferred: string | undefined;
  /** The reply changed files and their pre-images are kept: it offers "Restore files to before this reply". */
  private checkpoint = false;
  /** Its files (and every later reply's) were put back to before it: the footer and its tool cards say so. */
  private restored = false;
  private readonly arm: Arm;
  private readonly thinking: ThinkingSummary;
  private readonly openLink: (href: string) => void;

  constructor(
    readonly turn: AssistantTurn,
    private readonly send: Send,
    actions: MarkdownActions,
    options: AssistantTurnOptions = {},
  ) {
    this.status = turn.status;
    this.arm = options.armApprovals ?? armAfterDelay;
    this.badge = el('span', { className: 'badge' });
    this.reasoningText = el('div', { className: 'reasoning-text' });
    this.thinking = new ThinkingSummary(options.now);
    this.reasoning = el('details', { className: 'reasoning' }, this.thinking.element, this.reasoningText);
    this.steps = el('ol', { className: 'tool-steps', attrs: { 'aria-label': 'Tool calls' } });
    this.content = el('div', { className: 'content markdown', attrs: { 'aria-live': 'polite' } });
    this.sourcesBox = el('div', { className: 'sources-box' });
    this.errorBox = el('div', { className: 'error-box', attrs: { role: 'alert' } });
    this.footer = el('div', { className: 'turn-footer' });
    this.contextBox = el('div', { className: 'context-box' });
    this.element = el(
      'article',
      {
        className: 'turn assistant',
        attrs: { 'aria-label': `Reply from ${turn.model || 'the gateway'}`, 'data-turn-id': turn.id, tabindex: '-1' },
      },
      el(
        'div',
        { className: 'turn-header' },
        el('span', { className: 'who', text: turn.model || 'Assistant' }),
        this.badge,
      ),
      this.contextBox,
      this.reasoning,
      this.steps,
      this.content,
      this.sourcesBox,
      this.errorBox,
      this.footer,
    );
    // Apply names the reply and the block's number only: the host applies its own copy of the code.
    this.markdown = new StreamingMarkdown(this.content, {
      ...actions,
      apply: (blockIndex) => this.send({ type: 'applyCode', turnId: turn.id, blockIndex }),
    });
    this.setContext(turn.context);
    if (turn.reasoning) this.reasoningText.textContent = turn.reasoning;
    turn.toolSteps.forEach((step, index) => this.setStep(index, step));
    if (turn.content && options.deferMarkdown && turn.status !== 'streaming') this.defer(turn.content);
    else if (turn.content) this.markdown.setText(turn.content);
    this.usage = turn.usage;
    this.cost = turn.cost;
    this.finishReason = turn.finishReason;
    this.openLink = actions.openLink;
    this.setSources(turn.sources ?? []);
    this.end(turn.status, turn.error);
  }

  /** Shows the reply's sources under it; links open through the host, as the markdown's links do. */
  setSources(sources: readonly ReplySource[]): void {
    const list = sourcesView(sources, this.openLink);
    this.sourcesBox.replaceChildren(...(list ? [list] : []));
    this.sourcesBox.hidden = !list;
  }

  get text(): string {
    return this.deferred ?? this.markdown.text;
  }

  get isDeferred(): boolean {
    return this.deferred !== undefined;
  }

  private defer(text: string): void {
    this.deferred = text;
    this.content.setAttribute(DEFERRED_ATTRIBUTE, '');
    // Readable (and found by the find widget) until rendered; set through the CSSOM, which the CSP allows.
    this.content.style.whiteSpace = 'pre-wrap';
    this.content.textContent = text;
  }

  /** Renders the markdown of a deferred reply (no-op otherwise). */
  render(): void {
    const text = this.deferred;
    if (text === undefined) return;
    this.deferred = undefined;
    this.content.removeAttribute(DEFERRED_ATTRIBUTE);
    this.content.style.removeProperty('white-space');
    this.markdown.setText(text);
  }

  append(content: string | undefined, reasoning: string | undefined): void {
    this.render();
    if (reasoning) {
      this.reasoningText.append(reasoning);
      this.reasoning.hidden = false;
      if (this.status === 'streaming' && !this.markdown.text)
        this.thinking.thinking(this.reasoningText.textContent ?? '');
    }
    if (content) {
      this.thinking.stop();
      this.markdown.append(content);
    }
  }

  /** How the request was fitted into the context window (summary, trims): shown above the reply. */
  setContext(context: ReplyContext | undefined): void {
    const note = contextNote(context);
    this.contextBox.replaceChildren(...(note ? [note] : []));
    this.contextBox.hidden = !note;
  }

  setStep(index: number, step: ToolStep): void {
    const item = toolStepView(step, this.send, this.arm);
    const existing = this.steps.children[index];
    if (existing) existing.replaceWith(item);
    else this.steps.append(item);
    this.steps.hidden = false;
  }

  end(status: ReplyStatus, error?: ChatErrorInfo, usage?: TokenUsage, finishReason?: string): void {
    this.status = status;
    if (status !== 'streaming') this.thinking.stop();
    if (usage) this.usage = usage;
    if (finishReason) this.finishReason = finishReason;
    if (status !== 'streaming') this.markdown.finish();
    this.element.classList.toggle('streaming', status === 'streaming');
    this.content.setAttribute('aria-busy', String(status === 'streaming'));
    this.reasoning.hidden = !this.reasoningText.textContent;
    this.steps.hidden = this.steps.children.length === 0;
    this.badge.textContent =
      status === 'streaming' ? 'writing…' : status === 'stopped' ? 'stopped' : status === 'error' ? 'failed' : '';
    this.badge.className = `badge ${status}`;
    this.errorBox.replaceChildren();
    this.errorBox.hidden = !error;
    this.errorBox.classList.toggle('spend-cap', error?.kind === 'spendCap');
    if (error) {
      this.errorBox.append(
        // The spend cap's stop is the user's own limit at work, not a failure: a warning, not an error.
        error.kind === 'spendCap'
          ? el('div', { className: 'error-message spend-cap' }, icon('warning'), el('span', { text: error.message }))
          : el('div', { className: 'error-message' }, icon('error'), el('span', { text: error.message })),
      );
      const actions = el('div', { className: 'error-actions' });
      // The first action is the one that fixes the problem (Set API Key for a refused key): primary.
      error.actions.forEach((action, index) =>
        actions.append(
          textButton(ERROR_ACTION_LABELS[action], () => this.send({ type: 'errorAction', action }), index > 0),
        ),
      );
      this.errorBox.append(actions);
    }
    this.renderFooter();
  }

  setCheckpoint(has: boolean, restored: boolean): void {
    if (has === this.checkpoint && restored === this.restored) return;
    this.checkpoint = has;
    this.restored = restored;
    this.element.classList.toggle('restored', restored);
    // Each change card of the reply says its change was undone.
    for (const header of Array.from(this.steps.querySelectorAll('.tool-change .change-header'))) {
      header.querySelector('.restored-badge')?.remove();
      if (restored) header.append(el('span', { className: 'restored-badge', text: 'Restored' }));
    }
    this.renderFooter();
  }

  setCost(cost: ReplyCost): void {
    this.cost = cost;
    this.renderFooter();
  }

  private renderFooter(): void {
    const parts: string[] = [];
    if (this.finishReason === 'length' || this.finishReason === 'max_tokens') parts.push('cut at the max tokens limit');
    if (this.finishReason === 'tool_rounds') parts.push('stopped after too many tool rounds');
    if (this.usage)
      parts.push(
        `${COUNT_FORMAT.format(this.usage.promptTokens)} prompt + ${COUNT_FORMAT.format(this.usage.completionTokens)} completion tokens`,
      );
    const cost = this.cost ? costText(this.cost, this.status) : undefined;
    if (cost) parts.push(cost);
    const info = el('span', { className: 'usage', text: parts.join(' · ') });
    const copy = iconButton(
      'copy',
      'Copy reply',
      () => {
        this.send({ type: 'copyText', text: this.text });
        showCopied(copy);
      },
      { className: 'turn-action' },
    );
    const regenerate = iconButton('refresh', 'Regenerate', () => this.send({ type: 'regenerate' }), {
      className: 'turn-action regenerate',
    });
    // Offered once the reply ended: restoring while its writer still runs would fight it.
    const restore =
      this.checkpoint && this.status !== 'streaming'
        ? iconButton(
            'discard',
            'Restore checkpoint',
            () => this.send({ type: 'restoreCheckpoint', turnId: this.turn.id }),
            { className: 'turn-action restore-checkpoint', showLabel: true },
          )
        : '';
    if (restore)
      restore.title = 'Restore checkpoint: put the files this reply and later ones changed back as they were before it';
    const restored = this.restored
      ? el(
          'span',
          { className: 'restored-note', attrs: { role: 'note' } },
          icon('check'),
          el('span', { text: 'Restored' }),
        )
      : '';
    if (restored) restored.title = 'The files were restored to before this reply.';
    this.footer.replaceChildren(
      info,
      this.status === 'streaming' ? '' : copy,
      this.status === 'streaming' ? '' : regenerate,
      restore,
      restored,
    );
  }
}
