// The browser side of the robustness half of the corpus: each input of test/harness/hostileMarkdown
// (built here in the page, up to 64 KB, rather than sent over the wire) goes through the chat's real
// render path twice, streamed a frame's worth at a time with a render per slice and set whole. What
// is recorded is state: anything thrown (or reported to window.onerror), the words of the input
// missing from what is shown, how deep the DOM got, how many animation frames the page painted
// while the input streamed (it yields one every few renders: a page frozen by one render paints
// none), and how many blocks fell back to plain text.
import { StreamingMarkdown, type MarkdownActions } from '../../../src/webview/chat/markdown/streamingMarkdown';
import { hostileInputs, inOrder, shownWords, wordsOf } from '../../harness/hostileMarkdown';

export interface HostileResult {
  readonly name: string;
  readonly characters: number;
  readonly errors: string[];
  /** Per render path, the first word not shown in order, or '' when all are. */
  readonly missing: { streamed: string; whole: string };
  readonly depth: number;
  readonly renders: number;
  readonly yields: number;
  readonly framesPainted: number;
  readonly plainBlocks: number;
}

/** Renders between two yields to the browser while an input streams. */
const RENDERS_PER_YIELD = 16;
/**
 * Half the benchmark's size (5,000 table rows...), and every input about size capped just past the
 * largest budget the unit tests check it against (48 KB lexed a frame; the renderer's own length
 * budgets are 16 KB): past that, a larger input takes the same paths (plain text, frozen tail,
 * growing parts), only longer. Streamed at least 100 characters a render. The corpus checks what
 * is shown and that nothing throws or freezes; the full sizes (1 MB) stream in Chromium in
 * `npm run bench -- chat`, which measures the time per frame.
 */
const SCALE = 0.5;
const AT_MOST = 64 * 1024;
const MIN_PER_RENDER = 100;

const inputs = (): ReturnType<typeof hostileInputs> => hostileInputs(SCALE, AT_MOST);

export const hostileCount = (): number => inputs().length;

export async function renderHostile(
  index: number,
  actions: MarkdownActions,
  parent: HTMLElement,
): Promise<HostileResult> {
  const input = inputs()[index];
  if (!input) throw new Error(`no hostile input ${index}`);
  const errors: string[] = [];
  const onError = (event: ErrorEvent): void => void errors.push(`window.onerror: ${event.message}`);
  window.addEventListener('error', onError);
  let framesPainted = 0;
  let counting = true;
  const tick = (): void => {
    framesPainted++;
    if (counting) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const target = (mode: string): HTMLElement => {
    const element = document.createElement('div');
    element.className = 'rendered';
    element.dataset.mode = mode;
    parent.append(element);
    return element;
  };
  const streamed = target('streamed');
  let renders = 0;
  let yields = 0;
  try {
    const queue: (() => void)[] = [];
    const view = new StreamingMarkdown(streamed, actions, (callback) => queue.push(callback));
    const perRender = Math.max(input.perFrame, MIN_PER_RENDER);
    for (let at = 0; at < input.markdown.length; at += perRender) {
      view.append(input.markdown.slice(at, at + perRender));
      queue.splice(0).forEach((callback) => callback());
      if (++renders % RENDERS_PER_YIELD === 0) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        yields++;
      }
    }
    view.finish();
    queue.splice(0).forEach((callback) => callback());
  } catch (error) {
    errors.push(`streamed: ${String(error)}`);
  }
  const whole = target('whole');
  try {
    new StreamingMarkdown(whole, actions).setText(input.markdown);
  } catch (error) {
    errors.push(`whole: ${String(error)}`);
  }
  await new Promise((resolve) => requestAnimationFrame(resolve));
  counting = false;
  window.removeEventListener('error', onError);
  const words = shownWords(input);
  const missing = (element: HTMLElement): string => {
    const text = element.cloneNode(true) as HTMLElement;
    for (const toolbar of Array.from(text.querySelectorAll('.md-code-toolbar'))) toolbar.remove();
    const found = inOrder(words, wordsOf(text.textContent ?? ''));
    return found.ok ? '' : `word ${found.at}: ${found.missing ?? ''}`;
  };
  return {
    name: input.name,
    characters: input.markdown.length,
    errors,
    missing: { streamed: missing(streamed), whole: missing(whole) },
    depth: Math.max(depthOf(streamed), depthOf(whole)),
    renders,
    yields,
    framesPainted,
    plainBlocks: parent.querySelectorAll('.md-plain').length,
  };
}

function depthOf(root: Element): number {
  let deepest = 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let depth = 0;
    for (let at: Node | null = node; at && at !== root; at = at.parentNode) depth++;
    deepest = Math.max(deepest, depth);
    if (deepest > 1000) break;
  }
  return deepest;
}
