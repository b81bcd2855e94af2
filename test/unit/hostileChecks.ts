// The checks the hostile-markdown unit tests run on each input, shared with the markdown benchmark
// (test/bench/markdownBench.ts), which runs them on the same inputs at full size: every word shown
// in order, no DOM nested past MAX_DOM_DEPTH, and work per streamed frame within PER_FRAME.
import * as assert from 'node:assert/strict';
import { inOrder, shownWords, wordsOf, type HostileInput } from '../harness/hostileMarkdown';
import { manual } from './markdownKit';
import { meterWork, type Work } from './markdownWork';

/**
 * Most characters one frame may hand to each library, whatever the reply: a few times the
 * renderer's budgets (a tail of 4 KB plus a last block of 16 KB, lexed as blocks and inline) plus
 * a few times the new text. An input about size is longer than `lexed`, so a renderer whose work
 * per frame follows the reply fails.
 */
export const PER_FRAME: Readonly<Work> = { lexed: 48_000, sanitized: 64_000, highlighted: 12_000 };
/** Elements inside each other: quotes and lists 12 deep (two elements a level) and emphasis 8 deep, with room. */
const MAX_DOM_DEPTH = 40;
const perFrameOf = (input: HostileInput): number => Math.max(input.perFrame, 200);

/** What must hold of any rendering of `input`: every word shown, in order, and no DOM nested past MAX_DOM_DEPTH. */
export function assertShown(input: HostileInput, element: Element, how: string): void {
  const text = element.cloneNode(true) as Element;
  for (const toolbar of Array.from(text.querySelectorAll('.md-code-toolbar'))) toolbar.remove();
  const found = inOrder(shownWords(input), wordsOf(text.textContent ?? ''));
  assert.ok(found.ok, `${how}: word ${found.at} (${JSON.stringify(found.missing)}) is not shown`);
  assert.ok(domDepth(element) <= MAX_DOM_DEPTH, `${how}: elements nested ${domDepth(element)} deep`);
}

function domDepth(root: Element): number {
  let deepest = 0;
  const walk = (element: Element, depth: number): void => {
    deepest = Math.max(deepest, depth);
    if (depth > MAX_DOM_DEPTH) return; // deep enough to fail; jsdom's DOM may be deeper than the stack
    for (const child of Array.from(element.children)) walk(child, depth + 1);
  };
  walk(root, 0);
  return deepest;
}

/** Streams `input` a frame at a time, failing at the first frame that hands a library more than `bound`. */
export function streamMetered(
  input: HostileInput,
  bound: Readonly<Work> = PER_FRAME,
): { element: HTMLElement; frames: number; most: Work } {
  const meter = meterWork();
  const most: Work = { lexed: 0, sanitized: 0, highlighted: 0 };
  let frames = 0;
  try {
    const { view, element, frame } = manual();
    const slice = perFrameOf(input);
    for (let at = 0; at < input.markdown.length; at += slice) {
      view.append(input.markdown.slice(at, at + slice));
      meter.take();
      frame();
      const work = meter.take();
      frames++;
      for (const key of ['lexed', 'sanitized', 'highlighted'] as const) {
        most[key] = Math.max(most[key], work[key]);
        assert.ok(
          work[key] <= bound[key],
          `frame ${frames} (${at + slice} characters in) ${key} ${work[key]} characters: more than ${bound[key]}`,
        );
      }
    }
    view.finish();
    while (frame()); // reference links refreshed after the end, if any were left
    return { element, frames, most };
  } finally {
    meter.stop();
  }
}
