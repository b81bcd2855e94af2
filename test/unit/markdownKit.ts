// What the markdown unit tests share: a jsdom document, whole-text rendering, recorded toolbar and
// link actions, and a StreamingMarkdown whose frames run only when the test says so.
import { JSDOM } from 'jsdom';
import { renderMarkdown } from '../../src/webview/chat/markdown/renderMarkdown';
import { StreamingMarkdown, type MarkdownActions } from '../../src/webview/chat/markdown/streamingMarkdown';

export const { window } = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true });
const doc = window.document;

/** `markdown` rendered in one go (renderMarkdown), in a detached element. */
export function render(markdown: string): HTMLElement {
  const element = doc.createElement('div');
  element.append(renderMarkdown(markdown, doc));
  return element;
}

export interface Recorded extends MarkdownActions {
  readonly calls: [string, ...string[]][];
}

export function recorder(): Recorded {
  const calls: [string, ...string[]][] = [];
  return {
    calls,
    copy: (text) => calls.push(['copy', text]),
    insert: (code) => calls.push(['insert', code]),
    newFile: (code, language) => calls.push(['newFile', code, language]),
    openLink: (href) => calls.push(['openLink', href]),
    apply: (blockIndex) => calls.push(['apply', String(blockIndex)]),
  };
}

/** A StreamingMarkdown whose frames run only when the test says so. */
export function manual(actions: MarkdownActions = recorder()): {
  view: StreamingMarkdown;
  element: HTMLElement;
  frame(): boolean;
} {
  const element = doc.createElement('div');
  doc.body.append(element);
  const queue: (() => void)[] = [];
  const view = new StreamingMarkdown(element, actions, (callback) => queue.push(callback));
  return {
    view,
    element,
    frame: () => {
      const callback = queue.shift();
      callback?.();
      return callback !== undefined;
    },
  };
}

/**
 * Streams `text` into a new StreamingMarkdown in slices of `sliceSize()` characters, running a
 * frame after those where `frameNow()` says so, then finish().
 */
export function streamSliced(
  text: string,
  sliceSize: () => number,
  frameNow: () => boolean,
): ReturnType<typeof manual> {
  const streamed = manual();
  for (let at = 0; at < text.length;) {
    const size = sliceSize();
    streamed.view.append(text.slice(at, at + size));
    at += size;
    if (frameNow()) streamed.frame();
  }
  streamed.view.finish();
  return streamed;
}
