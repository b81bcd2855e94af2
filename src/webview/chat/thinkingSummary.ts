// The reasoning section's summary while a reasoning model thinks: "Thinking… 12 s" with its latest
// thought, ticking every second while nothing else on screen moves (a static collapsed block for
// ten seconds read as a hang); "Thought for 12 s" once the answer starts or the reply ends.
import { el, icon } from './dom';

const LATEST_MAX = 300;

function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The last line with text of what the model thought so far (its end, when long). */
function latestThought(reasoning: string): string {
  const lines = reasoning.split('\n').filter((line) => line.trim() !== '');
  const last = (lines.at(-1) ?? '').trim();
  return last.length > LATEST_MAX ? `…${last.slice(-LATEST_MAX)}` : last;
}

export class ThinkingSummary {
  readonly element: HTMLElement;
  private readonly label = el('span', { className: 'reasoning-label', text: 'Reasoning' });
  private readonly latest = el('span', { className: 'latest-thought' });
  private started: number | undefined;
  private ended: number | undefined;
  private timer: number | undefined;

  constructor(private readonly now: () => number = Date.now) {
    this.latest.hidden = true;
    this.element = el('summary', {}, icon('lightbulb'), this.label, this.latest);
  }

  /** Reasoning arrived while the reply streams and no answer text has come yet. */
  thinking(reasoning: string): void {
    if (this.ended !== undefined) return;
    this.started ??= this.now();
    this.latest.textContent = latestThought(reasoning);
    const view = this.element.ownerDocument.defaultView;
    if (this.timer === undefined && view) this.timer = view.setInterval(() => this.tick(), 1000);
    this.render();
  }

  /** The answer started, or the reply ended. */
  stop(): void {
    if (this.started !== undefined && this.ended === undefined) this.ended = this.now();
    this.clearTimer();
    this.render();
  }

  private tick(): void {
    // A reply no longer on screen (another conversation opened) stops its clock.
    if (!this.element.isConnected) this.clearTimer();
    else this.render();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.element.ownerDocument.defaultView?.clearInterval(this.timer);
    this.timer = undefined;
  }

  private render(): void {
    const thinking = this.started !== undefined && this.ended === undefined;
    this.label.textContent =
      this.started === undefined
        ? 'Reasoning'
        : thinking
          ? `Thinking… ${duration(this.now() - this.started)}`
          : `Thought for ${duration((this.ended ?? this.started) - this.started)}`;
    this.latest.hidden = !thinking || !this.latest.textContent;
  }
}
