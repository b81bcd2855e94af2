// The context window in the chat: the composer's meter ("12.3k / 128k" with a thin bar), the
// instruction-file chips, and the note a reply shows when its request was compacted (the summary
// readable in a collapsed block). Text only: the summary is model output, shown as plain text.
import type { ReplyContext } from '../../shared/chatModel';
import type { ContextMeter, InstructionFileChip } from '../../shared/chatProtocol';
import { el, icon } from './dom';
import type { Send } from './send';

const FULL = new Intl.NumberFormat('en-US');

/** 950 -> "950", 12_345 -> "12.3k", 128_000 -> "128k", 1_000_000 -> "1M". */
export function compactCount(value: number): string {
  if (value < 1000) return String(Math.round(value));
  if (value < 1_000_000) {
    const k = value / 1000;
    return `${k < 100 ? Number(k.toFixed(1)) : Math.round(k)}k`;
  }
  const m = value / 1_000_000;
  return `${m < 100 ? Number(m.toFixed(1)) : Math.round(m)}M`;
}

/** From here on the meter warns (a request soon needs compacting). */
const METER_WARNING = 0.8;

export class ContextMeterView {
  readonly element: HTMLElement;
  private readonly fill: HTMLElement;
  private readonly label: HTMLElement;

  constructor() {
    this.fill = el('span', { className: 'context-meter-fill' });
    this.label = el('span', { className: 'context-meter-text' });
    this.element = el(
      'div',
      { className: 'context-meter', attrs: { role: 'meter', 'aria-valuemin': '0', tabindex: '0' } },
      el('span', { className: 'context-meter-bar', attrs: { 'aria-hidden': 'true' } }, this.fill),
      this.label,
    );
    this.element.hidden = true;
  }

  set(meter: ContextMeter): void {
    const used = meter.usedTokens;
    const how =
      meter.source === 'measured'
        ? "measured: the gateway's count for the last reply"
        : 'estimated from the text (about 3 characters a token) until a reply reports usage';
    this.element.hidden = false;
    if (meter.contextLength) {
      const ratio = Math.min(1, used / meter.contextLength);
      this.label.textContent = `${compactCount(used)} / ${compactCount(meter.contextLength)}`;
      this.fill.style.width = `${(ratio * 100).toFixed(1)}%`;
      this.element.classList.toggle('warning', ratio >= METER_WARNING && ratio < 1);
      this.element.classList.toggle('full', ratio >= 1);
      this.element.setAttribute('aria-valuemax', String(meter.contextLength));
      this.element.setAttribute('aria-valuenow', String(Math.min(used, meter.contextLength)));
      this.element.setAttribute(
        'aria-label',
        `Context: ${FULL.format(used)} of ${FULL.format(meter.contextLength)} tokens used`,
      );
      this.element.title = `Context: ${FULL.format(used)} of ${FULL.format(meter.contextLength)} tokens (${Math.round(ratio * 100)}%), ${how}. Older turns are compacted before a request would overflow.`;
    } else {
      this.label.textContent = `${compactCount(used)} / ?`;
      this.fill.style.width = '0%';
      this.element.classList.remove('warning', 'full');
      this.element.removeAttribute('aria-valuemax');
      this.element.setAttribute('aria-valuenow', String(used));
      this.element.setAttribute(
        'aria-label',
        `Context: ${FULL.format(used)} tokens used; the model's context length is unknown`,
      );
      this.element.title = `Context: ${FULL.format(used)} tokens, ${how}. The model catalog does not list this model's context length, so the chat compacts only if the gateway says the request is too long.`;
    }
    this.element.classList.toggle('estimated', meter.source === 'estimated');
  }
}

export function instructionChip(file: InstructionFileChip, send: Send): HTMLElement {
  const name = file.path;
  const chip = el(
    'button',
    {
      className: 'chip instruction-chip',
      attrs: {
        type: 'button',
        'aria-label': `Instructions from ${name}, added to the system prompt (about ${FULL.format(file.tokens)} tokens${file.truncated ? ', cut to 32 KB' : ''}). Open the file.`,
        title: `${name}: the repository's instructions, added to the system prompt (about ${FULL.format(file.tokens)} tokens${file.truncated ? ', cut to 32 KB' : ''}). Click to open. Turn off with unifiedInference.chat.useInstructionFiles.`,
      },
    },
    icon('book'),
    el('span', { className: 'chip-label', text: name.split('/').pop() ?? name }),
  );
  chip.addEventListener('click', () => send({ type: 'openInstructionFile', path: file.path }));
  return chip;
}

/** What a reply says about how its request was fitted: the summary (collapsed), and notes. */
export function contextNote(context: ReplyContext | undefined): HTMLElement | undefined {
  if (!context) return undefined;
  const notes: string[] = [];
  if (context.dropped)
    notes.push(
      `The first ${context.dropped.turns} turns were left out of the request to fit the model's context window (${context.dropped.reason}). They are still here.`,
    );
  if (context.trimmedResults)
    notes.push(
      `${context.trimmedResults} long tool ${context.trimmedResults === 1 ? 'result was' : 'results were'} trimmed in the request (beginning and end kept).`,
    );
  if (context.trimmedMessageChars)
    notes.push(
      `Your message alone was too long for the model's context window: ${FULL.format(context.trimmedMessageChars)} characters from its middle were left out of the request.`,
    );
  if (context.retried)
    notes.push('The gateway found the request too long, so it was compacted further and sent again.');
  if (!context.summary && notes.length === 0) return undefined;
  const box = el('div', { className: 'context-note', attrs: { role: 'note' } });
  if (context.summary) {
    box.append(
      el(
        'details',
        { className: 'context-summary' },
        el(
          'summary',
          {},
          icon('fold'),
          el('span', {
            text: `Earlier turns summarized (the first ${context.summary.turns}) to fit the model's context window`,
          }),
        ),
        el('div', { className: 'context-summary-text', text: context.summary.text }),
        el('div', {
          className: 'context-summary-foot',
          text: 'Requests send this summary instead of those turns; the turns themselves stay in the conversation.',
        }),
      ),
    );
  }
  for (const note of notes)
    box.append(el('div', { className: 'context-line' }, icon('info'), el('span', { text: note })));
  return box;
}
