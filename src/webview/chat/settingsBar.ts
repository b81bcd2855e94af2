// The bar above the conversation: the model (a button that opens VS Code's searchable list of the
// catalog's chat models, with prices and context) and the per-conversation parameters (temperature, max tokens, reasoning effort, thinking budget,
// system prompt) behind a toggle.
import {
  EFFORT_THINKING_BUDGET,
  THINKING_MIN_BUDGET,
  type ChatParameters,
  type ConversationCost,
  type ReasoningEffort,
} from '../../shared/chatModel';
import { conversationCostText, conversationCostTitle } from './costText';
import type { ModelOption } from '../../shared/chatProtocol';
import { el, icon, iconButton } from './dom';
import type { Send } from './send';

function numberOrUndefined(value: string): number | undefined {
  const n = Number(value);
  return value.trim() === '' || !Number.isFinite(n) ? undefined : n;
}

export class SettingsBar {
  readonly element: HTMLElement;
  private readonly model: HTMLButtonElement;
  private readonly modelName: HTMLElement;
  private readonly params: HTMLElement;
  private readonly temperature: HTMLInputElement;
  private readonly maxTokens: HTMLInputElement;
  private readonly effort: HTMLSelectElement;
  private readonly thinking: HTMLInputElement;
  private readonly system: HTMLTextAreaElement;
  private readonly title: HTMLElement;
  private readonly cost: HTMLElement;
  private readonly paramsToggle: HTMLButtonElement;

  constructor(
    private readonly send: Send,
    actions: { newChat(): void; history(): void },
  ) {
    this.modelName = el('span', { className: 'model-name' });
    this.model = el(
      'button',
      { className: 'model-picker', attrs: { type: 'button', 'aria-haspopup': 'listbox' } },
      this.modelName,
      icon('chevron-down'),
    );
    this.model.addEventListener('click', () => this.send({ type: 'pickModel' }));
    this.title = el('span', { className: 'conversation-title' });
    this.cost = el('span', { className: 'conversation-cost' });
    this.cost.hidden = true;
    this.paramsToggle = iconButton('settings', 'Parameters', () => this.toggleParams());
    this.paramsToggle.setAttribute('aria-expanded', 'false');
    this.temperature = el('input', {
      attrs: {
        type: 'number',
        min: '0',
        max: '2',
        step: '0.1',
        placeholder: 'default',
        'aria-label': 'Temperature (0 to 2)',
      },
    });
    this.maxTokens = el('input', {
      attrs: { type: 'number', min: '1', step: '1', placeholder: 'default', 'aria-label': 'Max tokens' },
    });
    this.effort = el(
      'select',
      { attrs: { 'aria-label': 'Reasoning effort' } },
      ...['', 'low', 'medium', 'high'].map((v) => el('option', { text: v || 'default', attrs: { value: v } })),
    );
    // /messages has no reasoning_effort: say what the effort becomes there (gatewayAnswer maps it).
    this.effort.title = `Chat completions: sent as reasoning_effort. Messages API (Anthropic-style models): becomes a thinking budget of ${EFFORT_THINKING_BUDGET.low} / ${EFFORT_THINKING_BUDGET.medium} / ${EFFORT_THINKING_BUDGET.high} tokens (low / medium / high), unless Thinking budget is set.`;
    this.thinking = el('input', {
      attrs: {
        type: 'number',
        min: String(THINKING_MIN_BUDGET),
        step: '256',
        placeholder: 'off',
        'aria-label': `Extended thinking budget in tokens (at least ${THINKING_MIN_BUDGET}; empty turns it off)`,
      },
    });
    this.system = el('textarea', {
      attrs: { rows: '3', placeholder: 'System prompt (optional)', 'aria-label': 'System prompt' },
    });
    const row = (label: string, input: HTMLElement): HTMLElement =>
      el('label', { className: 'param' }, el('span', { text: label }), input);
    this.params = el(
      'div',
      { className: 'params', attrs: { role: 'group', 'aria-label': 'Parameters of this conversation' } },
      row('Temperature', this.temperature),
      row('Max tokens', this.maxTokens),
      row('Reasoning effort', this.effort),
      row('Thinking budget', this.thinking),
      row('System prompt', this.system),
    );
    this.params.hidden = true;
    for (const input of [this.temperature, this.maxTokens, this.effort, this.thinking, this.system])
      input.addEventListener('change', () => this.emitParameters());
    this.element = el(
      'header',
      { className: 'chat-header' },
      el(
        'div',
        { className: 'header-row' },
        this.model,
        this.paramsToggle,
        iconButton('history', 'History', actions.history),
        iconButton('add', 'New chat', actions.newChat),
      ),
      el('div', { className: 'title-row' }, this.title, this.cost),
      this.params,
    );
  }

  setTitle(title: string): void {
    this.title.textContent = title;
  }

  /** The conversation's total cost beside its title (nothing when no reply told one). */
  setCost(cost: ConversationCost | undefined): void {
    const text = conversationCostText(cost);
    this.cost.hidden = !text;
    this.cost.textContent = text ?? '';
    this.cost.title = cost ? conversationCostTitle(cost) : '';
  }

  setModels(models: readonly ModelOption[], selected: string, loading: boolean, error?: string): void {
    const shown = selected || (loading ? 'Loading models…' : error ? 'Models unavailable' : 'No model');
    this.modelName.textContent = shown;
    this.model.dataset['model'] = selected;
    const other = models.find((m) => m.id === selected && !m.isChat);
    this.model.title = error
      ? `The model list could not be read: ${error}`
      : other
        ? `${selected} is not a chat model of the catalog: choose a chat model.`
        : `${shown}. Choose another chat model`;
    this.model.setAttribute('aria-label', `Model: ${shown}. Choose another chat model`);
  }

  setParameters(parameters: ChatParameters): void {
    this.temperature.value = parameters.temperature?.toString() ?? '';
    this.maxTokens.value = parameters.maxTokens?.toString() ?? '';
    this.effort.value = parameters.reasoningEffort ?? '';
    this.thinking.value = parameters.thinkingBudget?.toString() ?? '';
    this.system.value = parameters.systemPrompt ?? '';
  }

  private toggleParams(): void {
    this.params.hidden = !this.params.hidden;
    this.paramsToggle.setAttribute('aria-expanded', String(!this.params.hidden));
    if (!this.params.hidden) this.temperature.focus();
  }

  private emitParameters(): void {
    const temperature = numberOrUndefined(this.temperature.value);
    const maxTokens = numberOrUndefined(this.maxTokens.value);
    const budget = numberOrUndefined(this.thinking.value);
    const parameters: ChatParameters = {
      ...(temperature !== undefined ? { temperature: Math.min(2, Math.max(0, temperature)) } : {}),
      ...(maxTokens !== undefined && maxTokens >= 1 ? { maxTokens: Math.floor(maxTokens) } : {}),
      ...(this.effort.value ? { reasoningEffort: this.effort.value as ReasoningEffort } : {}),
      ...(budget !== undefined ? { thinkingBudget: Math.max(THINKING_MIN_BUDGET, Math.floor(budget)) } : {}),
      ...(this.system.value.trim() ? { systemPrompt: this.system.value } : {}),
    };
    this.send({ type: 'setParameters', parameters });
    this.setParameters(parameters);
  }
}
