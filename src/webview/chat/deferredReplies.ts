// Older replies of a long conversation render their markdown late: near the viewport, or when idle.
import type { AssistantTurnView } from './assistantTurnView';

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
    this.observer = new IntersectionObserver(
      (entries) => {
        const near = entries
          .filter((entry) => entry.isIntersecting)
          .flatMap((entry) => this.views.get(entry.target) ?? []);
        if (near.length === 0) return;
        // Farthest first, so the pop() order renders what is nearest the viewport's end first.
        this.queue.push(...near.reverse());
        this.slice(IDLE_SLICE_MS);
      },
      { root: scroller, rootMargin: NEAR_VIEWPORT },
    );
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
