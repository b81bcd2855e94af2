// A jsdom page for the webview code's unit tests, with the browser globals that code reads
// (document, requestAnimationFrame, the event classes) installed for the enclosing describe block
// and removed after it. `perTest`: a new page for each test (an app that listens to its document's
// keys must not hear the next test's).
import { JSDOM } from 'jsdom';

const GLOBALS = [
  'window',
  'document',
  'requestAnimationFrame',
  'Node',
  'HTMLElement',
  'KeyboardEvent',
  'MouseEvent',
] as const;

export interface WebviewPage {
  /** The page of the running test. */
  readonly dom: JSDOM;
  /** Its `<main id="root">`, emptied before each test. */
  readonly root: HTMLElement;
}

export function useWebviewPage(options: { perTest?: boolean } = {}): WebviewPage {
  let dom: JSDOM | undefined;
  const open = (): void => {
    dom?.window.close();
    dom = new JSDOM('<!doctype html><html><body><main id="root"></main></body></html>', { pretendToBeVisual: true });
    const g = globalThis as Record<string, unknown>;
    const page = dom;
    for (const name of GLOBALS)
      g[name] =
        name === 'requestAnimationFrame'
          ? page.window.requestAnimationFrame.bind(page.window)
          : (page.window as unknown as Record<string, unknown>)[name];
  };
  const close = (): void => {
    const g = globalThis as Record<string, unknown>;
    for (const name of GLOBALS) delete g[name];
    dom?.window.close();
    dom = undefined;
  };
  if (options.perTest) {
    beforeEach(open);
    afterEach(close);
  } else {
    before(open);
    after(close);
  }
  beforeEach(() => page.root.replaceChildren());
  const page: WebviewPage = {
    get dom(): JSDOM {
      if (!dom) throw new Error('no page outside a test');
      return dom;
    },
    get root(): HTMLElement {
      return this.dom.window.document.getElementById('root') as HTMLElement;
    },
  };
  return page;
}
