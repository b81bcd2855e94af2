// The browser side of the XSS corpus test: bundled with esbuild, loaded by nonce into a page with
// the webviews' CSP, it renders model output through the real path (StreamingMarkdown, streamed
// in slices and set whole) and records anything that would show a payload ran.
import { StreamingMarkdown, type MarkdownActions } from '../../../src/webview/chat/markdown/streamingMarkdown';
import { hostileCount, renderHostile, type HostileResult } from './hostileHarness';

export interface HarnessState {
  /** Payload ids that reached __xss(), alert() and friends. */
  readonly hits: string[];
  /** `window.__pwned` as the payloads may set it. */
  readonly pwned: string;
  readonly violations: string[];
  readonly actions: [string, string][];
  /** The page's address, when it is not the one it loaded with. */
  readonly location: string;
  /** The page's base URL, when it is not its address (a <base> got into the page). */
  readonly baseURI: string;
}

export type Slicing = 'fine' | 'coarse';

export interface Harness {
  /** Renders one payload three ways: streamed in slices (a render per slice), streamed with the
   *  default requestAnimationFrame scheduler, and setText. Fine slices are 1 to 6 characters (every
   *  state a payload passes through while it streams); coarse ones up to ten times that. */
  render(id: number, name: string, markdown: string, slicing: Slicing): Promise<void>;
  /** Renders one reply in a chat-like frame (for the screenshot). */
  showcase(markdown: string): void;
  /** Streams `text` in `perFrame`-character appends, one render each; returns each render's time
   *  including the layout it causes (ms), and whether the result is what setText of it gives. */
  measure(text: string, perFrame: number): Promise<{ times: number[]; sameAsWhole: boolean }>;
  /** How many inputs test/harness/hostileMarkdown.ts has. */
  hostileCount(): number;
  /**
   * Renders hostile input `index` (hostileHarness.ts), audits what it rendered like the payloads,
   * then removes it (some are 64 KB): the result, with the audit's findings.
   */
  hostile(index: number): Promise<HostileResult & { findings: string[] }>;
  /** Everything in the rendered output that would be dangerous, as readable findings. */
  audit(): string[];
  state(): HarnessState;
}

declare global {
  interface Window {
    xssHarness?: Harness;
    __pwned?: unknown;
    __xss?: (id: unknown) => void;
  }
}

const hits: string[] = [];
const violations: string[] = [];
const calls: [string, string][] = [];
const startLocation = location.href;

window.__xss = (id: unknown): void => void hits.push(String(id));
for (const name of ['alert', 'confirm', 'prompt', 'print'] as const) {
  (window as unknown as Record<string, unknown>)[name] = (message?: unknown): void =>
    void hits.push(`${name}(${String(message)})`);
}
document.addEventListener('securitypolicyviolation', (event) => {
  violations.push(`${event.violatedDirective} blocked ${event.blockedURI || '(nothing named)'}`);
});

const actions: MarkdownActions = {
  copy: (text) => void calls.push(['copy', text]),
  insert: (code) => void calls.push(['insert', code]),
  newFile: (code, language) => void calls.push(['newFile', `${language}:${code}`]),
  openLink: (href) => void calls.push(['openLink', href]),
};

function nextRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

function slices(text: string, seed: number, slicing: Slicing): string[] {
  const random = nextRandom(seed);
  const parts: string[] = [];
  // Fine: 1 to 6 characters, or to a 400th of the text for the larger payloads (some are 17 KB,
  // past the renderer's budgets): every intermediate state is still rendered, in a few thousand
  // renders. Coarse: ten times that.
  const most = Math.max(6, Math.ceil(text.length / 400)) * (slicing === 'fine' ? 1 : 10);
  for (let at = 0; at < text.length;) {
    const size = 1 + Math.floor(random() * most);
    parts.push(text.slice(at, at + size));
    at += size;
  }
  return parts;
}

function section(id: number, name: string): HTMLElement {
  const root = document.getElementById('corpus');
  if (!root) throw new Error('no #corpus');
  const item = document.createElement('section');
  item.className = 'payload';
  const title = document.createElement('h3');
  title.className = 'payload-title';
  title.textContent = `#${id} ${name}`;
  item.append(title);
  root.append(item);
  return item;
}

function container(parent: HTMLElement, mode: string): HTMLElement {
  const element = document.createElement('div');
  element.className = 'rendered';
  element.dataset.mode = mode;
  parent.append(element);
  return element;
}

const nextFrame = (): Promise<void> => new Promise((done) => requestAnimationFrame(() => done()));

const FORBIDDEN_TAGS = new Set([
  'SCRIPT',
  'IFRAME',
  'FRAME',
  'FRAMESET',
  'OBJECT',
  'EMBED',
  'APPLET',
  'FORM',
  'TEXTAREA',
  'SELECT',
  'OPTION',
  'SVG',
  'MATH',
  'STYLE',
  'META',
  'BASE',
  'LINK',
  'VIDEO',
  'AUDIO',
  'SOURCE',
  'TRACK',
  'TEMPLATE',
  'NOSCRIPT',
  'PORTAL',
  'PICTURE',
  'PARAM',
  'XMP',
  'LISTING',
  'PLAINTEXT',
  'TITLE',
  'MARQUEE',
  'DIALOG',
  'CANVAS',
  'AREA',
  'MAP',
  'IMAGE',
  'ISINDEX',
  'KEYGEN',
]);
const SAFE_HREF = /^(?:https?:\/\/|mailto:)/i;
const SAFE_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp);base64,/i;

window.xssHarness = {
  async render(id, name, markdown, slicing) {
    const item = section(id, name);
    const queue: (() => void)[] = [];
    const sliced = new StreamingMarkdown(container(item, 'slices'), actions, (callback) => queue.push(callback));
    for (const part of slices(markdown, id + 1, slicing)) {
      sliced.append(part);
      // Every intermediate state goes through the DOM: a payload must be inert half-typed too.
      queue.splice(0).forEach((callback) => callback());
    }
    sliced.finish();

    const framed = new StreamingMarkdown(container(item, 'frames'), actions);
    for (const part of slices(markdown, id + 1000, slicing)) framed.append(part);
    await nextFrame();
    framed.finish();

    new StreamingMarkdown(container(item, 'whole'), actions).setText(markdown);
  },

  showcase(markdown) {
    const root = document.getElementById('corpus');
    if (!root) throw new Error('no #corpus');
    root.replaceChildren();
    const turn = document.createElement('article');
    turn.className = 'turn';
    const who = document.createElement('div');
    who.className = 'turn-author';
    const icon = document.createElement('span');
    icon.className = 'codicon codicon-sparkle';
    who.append(icon, ' Assistant (hostile output, rendered inert)');
    const body = document.createElement('div');
    turn.append(who, body);
    root.append(turn);
    new StreamingMarkdown(body, actions).setText(markdown);
  },

  async measure(text, perFrame) {
    const root = document.getElementById('corpus');
    if (!root) throw new Error('no #corpus');
    root.replaceChildren();
    const target = document.createElement('div');
    root.append(target);
    const times: number[] = [];
    const queue: (() => void)[] = [];
    const view = new StreamingMarkdown(target, actions, (callback) => queue.push(callback));
    for (let at = 0; at < text.length; at += perFrame) {
      view.append(text.slice(at, at + perFrame));
      // One frame's work as the main thread sees it: the render plus the layout it causes.
      const started = performance.now();
      queue.splice(0).forEach((callback) => callback());
      void document.body.offsetHeight;
      times.push(performance.now() - started);
      if (times.length % 200 === 0) await nextFrame();
    }
    view.finish();
    const whole = document.createElement('div');
    new StreamingMarkdown(whole, actions).setText(text);
    return { times, sameAsWhole: target.innerHTML === whole.innerHTML };
  },

  hostileCount,

  async hostile(index) {
    const item = section(1000 + index, `hostile input ${index}`);
    const result = await renderHostile(index, actions, item);
    const findings = auditIn(item);
    item.remove();
    return { ...result, findings };
  },

  audit() {
    const root = document.getElementById('corpus');
    return root ? auditIn(root) : ['no #corpus'];
  },

  state() {
    return {
      hits: [...hits],
      pwned: typeof window.__pwned === 'undefined' ? '' : String(window.__pwned),
      violations: [...violations],
      actions: calls.map(([kind, value]) => [kind, value] as [string, string]),
      location: location.href === startLocation ? '' : location.href,
      baseURI: document.baseURI === startLocation ? '' : document.baseURI,
    };
  },
};

/** Everything under `root`'s rendered output that would be dangerous, as readable findings. */
function auditIn(root: Element): string[] {
  const findings: string[] = [];
  for (const element of Array.from(root.querySelectorAll('.rendered *'))) {
    const where = `${element.closest('.payload')?.querySelector('.payload-title')?.textContent ?? '?'} (${element.closest('.rendered')?.getAttribute('data-mode') ?? '?'})`;
    const tag = element.tagName.toUpperCase();
    if (FORBIDDEN_TAGS.has(tag) || element.namespaceURI !== 'http://www.w3.org/1999/xhtml')
      findings.push(`${where}: <${element.tagName}>`);
    for (const { name, value } of Array.from(element.attributes)) {
      const lower = name.toLowerCase();
      if (
        lower.startsWith('on') ||
        [
          'style',
          'srcdoc',
          'srcset',
          'action',
          'formaction',
          'background',
          'poster',
          'ping',
          'target',
          'xlink:href',
          'id',
          'name',
          'http-equiv',
        ].includes(lower)
      ) {
        findings.push(`${where}: ${name}="${value}"`);
      }
      if (lower === 'href' && !SAFE_HREF.test(value)) findings.push(`${where}: href="${value}"`);
      if (lower === 'src' && !(tag === 'IMG' && SAFE_IMAGE.test(value)))
        findings.push(`${where}: src="${value.slice(0, 60)}"`);
    }
    if (
      tag === 'INPUT' &&
      !((element as HTMLInputElement).type === 'checkbox' && (element as HTMLInputElement).disabled)
    )
      findings.push(`${where}: active <input>`);
    if (tag === 'BUTTON' && !element.closest('.md-code-toolbar'))
      findings.push(`${where}: <button> outside a code toolbar`);
  }
  return findings;
}
