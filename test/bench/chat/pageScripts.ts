// Browser code of the benchmark pages. Each function is sent with Function.prototype.toString into
// a nonce'd inline script (the page has the webviews' CSP, so nothing else may run), so it must be
// self-contained: no imports, no outer bindings, nothing esbuild would add a helper for.

/** The harness's face to the bench (window.__bench). Times are page clock: timeOrigin + now(). */
export interface BenchPage {
  /** Posts a host message to the page (as VS Code does: a window message event) and records the
   *  visible-character count each streamed piece of it completes (0 entries for other messages). */
  deliver(message: unknown, pieceEnds: readonly number[]): void;
  /** Counts text in the first element matching `selector` from now on; false when none matches yet. */
  watch(selector: string): boolean;
  clock(): number;
  /** For each delivered piece: the page time after the paint of the frame that first showed it, or -1. */
  visibleAt(): number[];
  /** Posts a `conversation` message and measures until the frame after its handler has painted. */
  open(message: unknown): void;
  /** Milliseconds from posting the `open` message to the end of the frame that painted it. */
  openMs(): number | undefined;
  /** Page time when `open` posted its message. */
  openStartedAt(): number | undefined;
  longTasks(): { start: number; duration: number }[];
  posted(): unknown[];
}

declare global {
  interface Window {
    __bench?: BenchPage;
    __benchPosted?: unknown[];
    acquireVsCodeApi?: () => {
      postMessage(message: unknown): void;
      getState(): unknown;
      setState(state: unknown): void;
    };
  }
}

/** Stands in for VS Code's webview API (before the bundle runs): records what the page posts. */
export function vscodeApiStub(): void {
  const posted: unknown[] = [];
  let state: unknown;
  window.__benchPosted = posted;
  window.acquireVsCodeApi = () => ({
    postMessage: (message: unknown) => void posted.push(message),
    getState: () => state,
    setState: (next: unknown) => void (state = next),
  });
}

/**
 * The baseline "renderer": the raw text of each message in a text node, nothing parsed. It gets
 * the same messages, the same CSS and the same transport as the chat, so the difference between
 * the two is what the chat app (markdown, highlighting, its DOM) costs.
 */
export function baselineRenderer(): void {
  const root = document.getElementById('root') as HTMLElement;
  const list = document.createElement('div');
  list.className = 'messages';
  root.append(list);
  let current: HTMLElement | undefined;
  const turn = (id: string, text: string): HTMLElement => {
    const article = document.createElement('div');
    article.dataset.turnId = id;
    const raw = document.createElement('div');
    raw.className = 'content';
    raw.style.whiteSpace = 'pre-wrap';
    raw.textContent = text;
    article.append(raw);
    return article;
  };
  window.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as { type: string; [key: string]: unknown };
    if (message.type === 'conversation') {
      const turns = (message.conversation as { turns: { id: string; role: string; text?: string; content?: string }[] })
        .turns;
      const fragment = document.createDocumentFragment();
      for (const t of turns) fragment.append(turn(t.id, (t.role === 'user' ? t.text : t.content) ?? ''));
      list.replaceChildren(fragment);
    } else if (message.type === 'replyStarted') {
      current = turn((message.turn as { id: string }).id, '');
      list.append(current);
    } else if (message.type === 'replyDelta' && typeof message.content === 'string') {
      current?.firstElementChild?.append(message.content);
    }
  });
}

/**
 * Installed after the page's renderer, so its message listener runs after the renderer's.
 *
 * When is text visible? A frame paints whatever the DOM holds once its layout is done. A
 * ResizeObserver on a sentinel whose width flips every frame fires right there (after the rAF
 * callbacks and layout, before paint), so it is the cut: a change made before it is painted in
 * this frame, one made after it (by a task between frames) in the next. The time is then read in a
 * task posted from there, which runs after the frame's paint. The same rule holds for a renderer
 * that mutates in rAF (the chat) and one that mutates in its message task (the baseline).
 */
export function benchHarness(): void {
  const clock = (): number => performance.timeOrigin + performance.now();
  const countVisible = (text: string): number => {
    let count = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 32 && code !== 160) count++;
    }
    return count;
  };
  const pieceEnds: number[] = [];
  const visibleAt: number[] = [];
  let nextPiece = 0;
  let target: Element | null = null;
  let dirty = false;
  let openStart: number | undefined;
  let openHandled = false;
  let openMs: number | undefined;
  const longTasks: { start: number; duration: number }[] = [];
  const posted = window.__benchPosted ?? [];

  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      longTasks.push({ start: performance.timeOrigin + entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const mutations = new MutationObserver(() => void (dirty = true));

  const afterPaint = new MessageChannel();
  let painted: { count: number; opened: boolean }[] = [];
  afterPaint.port1.onmessage = () => {
    const now = clock();
    for (const frame of painted) {
      if (frame.opened && openStart !== undefined) openMs = now - openStart;
      while (nextPiece < pieceEnds.length && (pieceEnds[nextPiece] as number) <= frame.count)
        visibleAt[nextPiece++] = now;
    }
    painted = [];
  };

  const sentinel = document.createElement('div');
  sentinel.setAttribute('aria-hidden', 'true');
  Object.assign(sentinel.style, {
    position: 'fixed',
    left: '0',
    top: '0',
    width: '1px',
    height: '1px',
    visibility: 'hidden',
    pointerEvents: 'none',
  });
  document.body.append(sentinel);
  let wide = false;
  const tick = (): void => {
    requestAnimationFrame(tick);
    wide = !wide;
    sentinel.style.width = wide ? '2px' : '1px';
  };
  requestAnimationFrame(tick);
  new ResizeObserver(() => {
    const count = dirty && target ? countVisible(target.textContent ?? '') : -1;
    dirty = false;
    const opened = openHandled;
    openHandled = false;
    if (count < 0 && !opened) return;
    painted.push({ count, opened });
    afterPaint.port2.postMessage(0);
  }).observe(sentinel);

  window.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string }).type === 'conversation' && openStart !== undefined && openMs === undefined)
      openHandled = true;
  });

  window.__bench = {
    deliver(message, ends) {
      for (const end of ends) {
        pieceEnds.push(end);
        visibleAt.push(-1);
      }
      window.postMessage(message, '*');
    },
    watch(selector) {
      target = document.querySelector(selector);
      if (target) mutations.observe(target, { childList: true, subtree: true, characterData: true });
      dirty = true;
      return target !== null;
    },
    clock,
    visibleAt: () => visibleAt,
    open(message) {
      openStart = clock();
      openMs = undefined;
      window.postMessage(message, '*');
    },
    openMs: () => openMs,
    openStartedAt: () => openStart,
    longTasks: () => longTasks,
    posted: () => posted,
  };
}
