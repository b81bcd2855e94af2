// One conversation turn in the DOM. A user turn is plain text (never parsed) with its attachment
// chips and an Edit action; an assistant turn streams: reasoning (collapsed), tool steps with
// approval buttons, the markdown answer, then usage, cost, and an error with its actions.
import { guardedWriteWords, type Attachment, type AssistantTurn, type ChatErrorInfo, type GuardedWrite, type ReplyContext, type ReplyCost, type ReplyStatus, type TokenUsage, type ToolStep, type UserTurn } from '../../shared/chatModel';
import { contextNote } from './contextViews';
import type { ChatToHostMessage } from '../../shared/chatProtocol';
import { approvalCard, armAfterDelay, type Arm } from './approvalCard';
import { el, formatTime, icon, iconButton, textButton } from './dom';
import { StreamingMarkdown, type MarkdownActions } from './markdown/streamingMarkdown';
import { changeView, commandView } from './toolChangeView';

export type Send = (message: ChatToHostMessage) => void;

const ERROR_ACTION_LABELS = { retry: 'Retry', setApiKey: 'Set API Key', openSettings: 'Open Settings', showLog: 'Show Log', refreshCredits: 'Refresh Credits' } as const;
const STEP_ICONS: Record<string, string> = { awaitingApproval: 'question', running: 'loading codicon-modifier-spin', done: 'check', denied: 'circle-slash', failed: 'error' };
const STEP_WORDS: Record<string, string> = { awaitingApproval: 'waiting for your approval', running: 'running', done: 'done', denied: 'denied', failed: 'failed' };
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
}

export function attachmentChip(attachment: Attachment, onRemove?: () => void): HTMLElement {
  const label = attachment.startLine !== undefined ? `${attachment.path}:${attachment.startLine}-${attachment.endLine}` : attachment.path;
  const chip = el('span', { className: 'chip', attrs: { title: `${label}${attachment.truncated ? ' (truncated)' : ''}` } }, icon(attachment.kind === 'selection' ? 'selection' : 'file'), el('span', { className: 'chip-label', text: label }));
  if (onRemove) chip.append(iconButton('close', `Remove ${label}`, onRemove, { className: 'chip-remove' }));
  return chip;
}

/** Files a call writes that are always asked about, each with why (text only: paths come from the model's arguments). */
function guardedNotice(guarded: readonly GuardedWrite[]): HTMLElement {
  const text = `Always asked: ${guarded.map((g) => `${g.path} (this file ${guardedWriteWords(g.reason)})`).join(', ')}`;
  return el('div', { className: 'sensitive-note guarded-note', attrs: { role: 'note' } }, icon('shield'), el('span', { text }));
}

/** The sensitive files a tool call reads, named (text only: paths come from the model's arguments). */
function sensitiveNotice(paths: readonly string[]): HTMLElement {
  const text = `Sensitive ${paths.length === 1 ? 'file' : 'files'} (may hold secrets): ${paths.join(', ')}`;
  return el('div', { className: 'sensitive-note', attrs: { role: 'note' } }, icon('warning'), el('span', { text }));
}

export class UserTurnView {
  readonly element: HTMLElement;

  constructor(readonly turn: UserTurn, onEdit: (view: UserTurnView) => void) {
    const chips = turn.attachments.length ? el('div', { className: 'chips' }, ...turn.attachments.map((a) => attachmentChip(a))) : undefined;
    this.element = el(
      'article',
      { className: 'turn user', attrs: { 'aria-label': 'Your message', 'data-turn-id': turn.id, tabindex: '-1' } },
      el('div', { className: 'turn-header' }, el('span', { className: 'who', text: 'You' }), el('span', { className: 'when', text: formatTime(turn.createdAt) }), iconButton('edit', 'Edit and resend', () => onEdit(this), { className: 'turn-action' })),
      chips,
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
    const editor = el('div', { className: 'edit' }, area, el('div', { className: 'edit-actions' }, textButton('Save & Resend', submit), textButton('Cancel', finish, true)));
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

export class AssistantTurnView {
  readonly element: HTMLElement;
  private readonly markdown: StreamingMarkdown;
  private readonly reasoning: HTMLDetailsElement;
  private readonly reasoningText: HTMLElement;
  private readonly steps: HTMLOListElement;
  private readonly content: HTMLElement;
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
  private readonly arm: Arm;

  constructor(readonly turn: AssistantTurn, private readonly send: Send, actions: MarkdownActions, options: AssistantTurnOptions = {}) {
    this.status = turn.status;
    this.arm = options.armApprovals ?? armAfterDelay;
    this.badge = el('span', { className: 'badge' });
    this.reasoningText = el('div', { className: 'reasoning-text' });
    this.reasoning = el('details', { className: 'reasoning' }, el('summary', {}, icon('lightbulb'), el('span', { text: 'Reasoning' })), this.reasoningText);
    this.steps = el('ol', { className: 'tool-steps', attrs: { 'aria-label': 'Tool calls' } });
    this.content = el('div', { className: 'content markdown', attrs: { 'aria-live': 'polite' } });
    this.errorBox = el('div', { className: 'error-box', attrs: { role: 'alert' } });
    this.footer = el('div', { className: 'turn-footer' });
    this.contextBox = el('div', { className: 'context-box' });
    this.element = el(
      'article',
      { className: 'turn assistant', attrs: { 'aria-label': `Reply from ${turn.model || 'the gateway'}`, 'data-turn-id': turn.id, tabindex: '-1' } },
      el('div', { className: 'turn-header' }, el('span', { className: 'who', text: turn.model || 'Assistant' }), this.badge),
      this.contextBox,
      this.reasoning,
      this.steps,
      this.content,
      this.errorBox,
      this.footer,
    );
    // Apply names the reply and the block's number only: the host applies its own copy of the code.
    this.markdown = new StreamingMarkdown(this.content, { ...actions, apply: (blockIndex) => this.send({ type: 'applyCode', turnId: turn.id, blockIndex }) });
    this.setContext(turn.context);
    if (turn.reasoning) this.reasoningText.textContent = turn.reasoning;
    turn.toolSteps.forEach((step, index) => this.setStep(index, step));
    if (turn.content && options.deferMarkdown && turn.status !== 'streaming') this.defer(turn.content);
    else if (turn.content) this.markdown.setText(turn.content);
    this.usage = turn.usage;
    this.cost = turn.cost;
    this.finishReason = turn.finishReason;
    this.end(turn.status, turn.error);
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
    }
    if (content) this.markdown.append(content);
  }

  /** How the request was fitted into the context window (summary, trims): shown above the reply. */
  setContext(context: ReplyContext | undefined): void {
    const note = contextNote(context);
    this.contextBox.replaceChildren(...(note ? [note] : []));
    this.contextBox.hidden = !note;
  }

  setStep(index: number, step: ToolStep): void {
    const item = this.stepItem(step);
    const existing = this.steps.children[index];
    if (existing) existing.replaceWith(item);
    else this.steps.append(item);
    this.steps.hidden = false;
  }

  private stepItem(step: ToolStep): HTMLLIElement {
    if (step.kind === 'server') {
      return el(
        'li',
        { className: 'tool-step server' },
        el('div', { className: 'step-line' }, icon('server-process'), el('span', { className: 'step-name', text: step.name }), el('span', { className: 'step-status', text: step.server ? `ran on ${step.server}` : 'ran on the gateway' })),
        step.arguments ? el('code', { className: 'step-args', text: step.arguments }) : undefined,
        step.result ? el('details', {}, el('summary', { text: 'Result' }), el('pre', { className: 'step-result', text: step.result })) : undefined,
      );
    }
    const line = el('div', { className: 'step-line' }, icon(STEP_ICONS[step.status] ?? 'tools'), el('span', { className: 'step-name', text: step.name }), el('span', { className: 'step-status', text: STEP_WORDS[step.status] ?? step.status }));
    const sensitive = step.sensitive ?? [];
    // An edit's card shows its change rather than the raw arguments (the diff says it better).
    const shown = step.change ? changeView(step.change, () => this.send({ type: 'openToolDiff', callId: step.id })) : step.command ? commandView(step.command) : el('code', { className: 'step-args', text: step.arguments });
    const item = el('li', { className: `tool-step function ${step.status}${sensitive.length ? ' sensitive' : ''}`, attrs: { 'data-call-id': step.id } }, line, shown);
    // Kept after the decision too: the history shows which secrets a reply read or wrote.
    if (sensitive.length) item.append(sensitiveNotice(sensitive));
    const guarded = step.guarded ?? [];
    if (guarded.length) item.append(guardedNotice(guarded));
    if (step.status === 'awaitingApproval') {
      // Never focused from here: see approvalCard.ts (typing in the composer must not approve).
      item.append(approvalCard(step, (decision) => this.send({ type: 'approveTool', callId: step.id, decision }), this.arm));
    }
    if (step.result) item.append(el('details', {}, el('summary', { text: 'Result' }), el('pre', { className: 'step-result', text: step.result })));
    return item;
  }

  end(status: ReplyStatus, error?: ChatErrorInfo, usage?: TokenUsage, finishReason?: string): void {
    this.status = status;
    if (usage) this.usage = usage;
    if (finishReason) this.finishReason = finishReason;
    if (status !== 'streaming') this.markdown.finish();
    this.element.classList.toggle('streaming', status === 'streaming');
    this.content.setAttribute('aria-busy', String(status === 'streaming'));
    this.reasoning.hidden = !this.reasoningText.textContent;
    this.steps.hidden = this.steps.children.length === 0;
    this.badge.textContent = status === 'streaming' ? 'writing…' : status === 'stopped' ? 'stopped' : status === 'error' ? 'failed' : '';
    this.badge.className = `badge ${status}`;
    this.errorBox.replaceChildren();
    this.errorBox.hidden = !error;
    if (error) {
      this.errorBox.append(el('div', { className: 'error-message' }, icon('error'), el('span', { text: error.message })));
      const actions = el('div', { className: 'error-actions' });
      for (const action of error.actions) actions.append(textButton(ERROR_ACTION_LABELS[action], () => this.send({ type: 'errorAction', action }), action !== 'retry'));
      this.errorBox.append(actions);
    }
    this.renderFooter();
  }

  setCheckpoint(has: boolean): void {
    if (has === this.checkpoint) return;
    this.checkpoint = has;
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
    if (this.usage) parts.push(`${COUNT_FORMAT.format(this.usage.promptTokens)} prompt + ${COUNT_FORMAT.format(this.usage.completionTokens)} completion tokens`);
    const cost = this.cost ? costText(this.cost, this.status) : undefined;
    if (cost) parts.push(cost);
    const info = el('span', { className: 'usage', text: parts.join(' · ') });
    const copy = iconButton('copy', 'Copy reply', () => this.send({ type: 'copyText', text: this.text }), { className: 'turn-action' });
    const regenerate = iconButton('refresh', 'Regenerate', () => this.send({ type: 'regenerate' }), { className: 'turn-action regenerate' });
    // Offered once the reply ended: restoring while its writer still runs would fight it.
    const restore = this.checkpoint && this.status !== 'streaming'
      ? iconButton('discard', 'Restore files to before this reply', () => this.send({ type: 'restoreCheckpoint', turnId: this.turn.id }), { className: 'turn-action restore-checkpoint' })
      : '';
    this.footer.replaceChildren(info, this.status === 'streaming' ? '' : copy, this.status === 'streaming' ? '' : regenerate, restore);
  }
}

/**
 * The cost part of a reply's footer, always with where the figure comes from. A stopped or failed
 * reply often costs nothing: "$0.0000" would only be noise there.
 */
function costText(cost: ReplyCost, status: ReplyStatus): string | undefined {
  if (cost.state === 'pending') return 'cost pending (waiting for the balance to change)';
  if (cost.state === 'unknown') return 'cost unknown (no balance difference could be read)';
  if (cost.credits <= 0) {
    if (status !== 'done') return undefined;
    return cost.source === 'pricing' ? 'free (from pricing)' : cost.source === 'balance' ? 'no charge seen (balance unchanged)' : undefined;
  }
  const source = cost.source === 'pricing' ? 'from pricing' : 'balance change';
  return cost.estimate
    ? `≈ ${formatCost(cost.credits)} (${source}, estimate: other requests overlapped)`
    : `${formatCost(cost.credits)} (${source})`;
}

/** Credits a reply cost: cents for the usual amounts, and tiny ones never rounded to nothing. */
function formatCost(credits: number): string {
  if (credits < 0.0001) return '< $0.0001';
  return `$${credits.toFixed(credits < 1 ? 4 : 2)}`;
}

/** Replies rendered at once when a conversation opens: the view opens at its end, and this many
 *  turns fill more than a screen. Earlier replies are deferred. */
export const EAGER_TURNS = 8;
/** Deferred replies this close to the viewport are rendered before they scroll into view. */
const NEAR_VIEWPORT = '1500px 0px';
/** Longest stretch of rendering in one idle callback (a task stays far below 50 ms). */
const IDLE_SLICE_MS = 8;

type IdleCallback = (deadline?: { timeRemaining(): number }) => void;

/**
 * Renders deferred replies when they come near the viewport (IntersectionObserver), and all the
 * others, newest first, when the page is idle. Work is done in slices of IDLE_SLICE_MS, so a long
 * conversation opens in one short task and is fully rendered soon after without a long task.
 */
export class DeferredReplies {
  private readonly observer: IntersectionObserver;
  private readonly views = new Map<Element, AssistantTurnView>();
  /** Rendered from the end: starts in document order (the newest reply last), and replies near
   *  the viewport are pushed again so they come next. Rendering twice is a no-op. */
  private readonly queue: AssistantTurnView[] = [];
  private cancelIdle: (() => void) | undefined;
  private disposed = false;

  /** False where IntersectionObserver is missing (e.g. jsdom): then nothing is deferred. */
  static get supported(): boolean {
    return typeof IntersectionObserver === 'function';
  }

  constructor(scroller: HTMLElement) {
    this.observer = new IntersectionObserver((entries) => {
      const near = entries.filter((entry) => entry.isIntersecting).flatMap((entry) => this.views.get(entry.target) ?? []);
      if (near.length === 0) return;
      // Farthest first, so the pop() order renders what is nearest the viewport's end first.
      this.queue.push(...near.reverse());
      this.slice(IDLE_SLICE_MS);
    }, { root: scroller, rootMargin: NEAR_VIEWPORT });
  }

  add(view: AssistantTurnView): void {
    if (!view.isDeferred) return;
    this.views.set(view.element, view);
    this.queue.push(view);
    this.observer.observe(view.element);
  }

  /** Starts the idle rendering of what is left. */
  start(): void {
    this.scheduleIdle();
  }

  dispose(): void {
    this.disposed = true;
    this.observer.disconnect();
    this.cancelIdle?.();
    this.views.clear();
    this.queue.length = 0;
  }

  /** Renders queued replies for about `budgetMs` (at least one), then leaves the rest to idle time. */
  private slice(budgetMs: number): void {
    const stop = performance.now() + budgetMs;
    do {
      const view = this.queue.pop();
      if (!view || !this.views.delete(view.element)) continue;
      this.observer.unobserve(view.element);
      // A reply removed since (regenerate, edit) is not worth rendering.
      if (view.element.isConnected) view.render();
    } while (this.queue.length && performance.now() < stop && !this.disposed);
    this.scheduleIdle();
  }

  private scheduleIdle(): void {
    if (this.cancelIdle || this.disposed || this.queue.length === 0) return;
    const run: IdleCallback = (deadline) => {
      this.cancelIdle = undefined;
      this.slice(Math.min(IDLE_SLICE_MS, deadline?.timeRemaining() ?? IDLE_SLICE_MS));
    };
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(run, { timeout: 500 });
      this.cancelIdle = () => cancelIdleCallback(handle);
    } else {
      const handle = window.setTimeout(run, 16);
      this.cancelIdle = () => window.clearTimeout(handle);
    }
  }
}
