// Hostile or degenerate model output against the chat's markdown renderer, in jsdom: pathological
// nesting, inputs on which marked is superlinear, blocks too large to render again every frame.
// Whole and streamed, the renderer must not throw, must show every word it received, must fall
// back to plain text past its budgets, and must do work per frame bounded by the new text, not by
// the reply: counted as characters handed to marked, DOMPurify and highlight.js (markdownWork.ts),
// never timed. (Chromium runs the same inputs in test/ui/xssCorpus.test.ts; the times are the
// benchmark's, test/bench/chatBench.ts.)
import * as assert from 'node:assert/strict';
import { Lexer } from 'marked';
import { hostileInputs, inOrder, shownWords, wordsOf, type HostileInput } from '../harness/hostileMarkdown';
import { manual, render, streamSliced } from './markdownKit';
import { meterWork, type Work } from './markdownWork';

/** jsdom builds DOM far slower than Chromium: the largest inputs at a quarter of the benchmark's size (250 KB). */
const SCALE = 0.25;
/**
 * Most characters one frame may hand to each library, whatever the reply: a few times the
 * renderer's budgets (a tail of 4 KB plus a last block of 16 KB, lexed as blocks and inline) plus
 * a few times the new text. The inputs that are about size are 60 KB to 250 KB, so a renderer
 * whose work per frame follows the reply fails.
 */
const PER_FRAME = { lexed: 48_000, sanitized: 64_000, highlighted: 12_000 };
/** Elements inside each other: quotes and lists 12 deep (two elements a level) and emphasis 8 deep, with room. */
const MAX_DOM_DEPTH = 40;
const perFrameOf = (input: HostileInput): number => Math.max(input.perFrame, 200);

/** What must hold of any rendering of `input`: every word shown, in order, and no DOM nested past MAX_DOM_DEPTH. */
function assertShown(input: HostileInput, element: Element, how: string): void {
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

/** Streams `input` a frame at a time, failing at the first frame that hands a library more than PER_FRAME. */
function streamMetered(input: HostileInput): { element: HTMLElement; frames: number; most: Work } {
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
        assert.ok(work[key] <= PER_FRAME[key], `frame ${frames} (${at + slice} characters in) ${key} ${work[key]} characters: more than ${PER_FRAME[key]}`);
      }
    }
    view.finish();
    while (frame()) ; // reference links refreshed after the end, if any were left
    return { element, frames, most };
  } finally {
    meter.stop();
  }
}

describe('chat markdown: hostile output', function () {
  this.timeout(0); // every test here is synchronous (jsdom, up to 250 KB per input): a time limit would only fail a busy machine

  for (const input of hostileInputs(SCALE)) {
    it(`${input.name} (${(input.markdown.length / 1024).toFixed(0)} KB): whole and streamed, every word shown, work per frame bounded`, () => {
      assertShown(input, render(input.markdown), 'whole');
      const { element, frames, most } = streamMetered(input);
      assertShown(input, element, 'streamed');
      if (process.env.MARKDOWN_WORK_LOG) console.log(`      most per frame: lexed ${most.lexed}, sanitized ${most.sanitized}, highlighted ${most.highlighted}; ${frames} frames`);
    });
  }

  it('keeps nesting past the budget as text: 12 quote levels, 8 emphasis levels, the rest shown as typed', () => {
    const quotes = render(`${'> '.repeat(4000)}deepest`);
    assert.equal(quotes.querySelectorAll('blockquote').length, 12);
    assert.ok((quotes.textContent ?? '').includes(`${'> '.repeat(100)}`), 'the markers past the limit are text');
    const emphasis = render(`${'*'.repeat(5000)}middle${'*'.repeat(5000)}`);
    const deepest = Math.max(0, ...Array.from(emphasis.querySelectorAll('em, strong'), (node) => {
      let depth = 0;
      for (let at: Element | null = node; at && at !== emphasis; at = at.parentElement) if (/^(?:EM|STRONG)$/.test(at.tagName)) depth++;
      return depth;
    }));
    assert.ok(deepest > 0 && deepest <= 8, `emphasis nested ${deepest} deep`);
    const lists = render(`${'- '.repeat(3000)}innermost`);
    assert.equal(lists.querySelectorAll('ul').length, 12);
  });

  it('shows raw HTML nested past the budget as plain text, and inert', () => {
    const element = render(`${'<div>'.repeat(100)}<img src=x onerror=alert(1)>inside${'</div>'.repeat(100)}`);
    assert.equal(element.querySelectorAll('div').length, 0);
    assert.equal(element.querySelectorAll('img').length, 0);
    assert.ok(element.querySelector('.md-plain'), element.innerHTML.slice(0, 200));
    assert.ok((element.textContent ?? '').includes('<img src=x onerror=alert(1)>inside'));
    assert.equal(render(`${'<div>'.repeat(20)}fine${'</div>'.repeat(20)}`).querySelectorAll('div').length, 20, 'shallow HTML is kept');
  });

  it('shows a table past REDRAW_LIMIT as plain text, streamed as whole, and a smaller one as a table', () => {
    const table = (rows: number): string => `| n | name |\n|---|---|\n${Array.from({ length: rows }, (_, i) => `| ${i} | row${i} |`).join('\n')}\n\nAfter.`;
    assert.ok(render(table(100)).querySelector('table'));
    const big = table(1200);
    const whole = render(big);
    assert.equal(whole.querySelector('table'), null);
    assert.equal(whole.querySelector('.md-plain')?.textContent, big.slice(0, big.indexOf('\n\nAfter.')));
    assert.equal(whole.querySelector('p:last-child')?.textContent, 'After.');
    const streamed = streamSliced(big, () => 397, () => true);
    assert.equal(streamed.element.innerHTML, whole.innerHTML);
  });

  it('streams a fence over the tail limit segment by segment, the same as whole, and closes it without highlighting it again', () => {
    const code = Array.from({ length: 3000 }, (_, i) => `const value${i} = ${i}; // line ${i}`).join('\n');
    const text = `Intro.\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAfter the fence.`;
    const meter = meterWork();
    let closing: Work;
    let streamed: ReturnType<typeof manual>;
    try {
      streamed = manual();
      const end = text.indexOf('\n```\n\nAfter');
      for (let at = 0; at < end; at += 200) {
        streamed.view.append(text.slice(at, Math.min(at + 200, end)));
        streamed.frame();
      }
      meter.take();
      streamed.view.append(text.slice(end));
      streamed.frame();
      closing = meter.take();
      streamed.view.finish();
    } finally {
      meter.stop();
    }
    assert.ok(closing.highlighted < 8_000, `closing the fence highlighted ${closing.highlighted} characters`);
    const block = streamed.element.querySelector('.md-code-block code');
    assert.equal(block?.textContent, code);
    assert.equal(streamed.element.innerHTML, render(text).innerHTML);
  });

  it('gathers the blocks of a long reply into groups (laying out a container costs per child), the same streamed as set whole', () => {
    const text = Array.from({ length: 3000 }, (_, i) => `# heading${i}\n\nline ${i}`).join('\n\n');
    const streamed = streamSliced(text, () => 200, () => true);
    const whole = manual();
    whole.view.setText(text);
    assert.equal(streamed.element.innerHTML, whole.element.innerHTML);
    assert.ok(streamed.element.querySelectorAll(':scope > .md-blocks').length >= 20);
    assert.ok(streamed.element.childNodes.length < 600, `${streamed.element.childNodes.length} nodes at the top`);
    assert.equal(streamed.element.querySelectorAll('h1').length, 3000);
  });

  it('contains text that marked throws on: that text is shown as typed, the blocks around it render', () => {
    const inlineTokens = Lexer.prototype.inlineTokens;
    Lexer.prototype.inlineTokens = function (this: Lexer, src: string, tokens?: Parameters<typeof inlineTokens>[1]) {
      if (src.includes('EXPLODE')) throw new RangeError('Maximum call stack size exceeded');
      return inlineTokens.call(this, src, tokens);
    };
    try {
      const text = '# Title\n\nbefore *it*\n\nEXPLODE *here*\n\n- after';
      for (const element of [render(text), streamSliced(text, () => 3, () => true).element]) {
        assert.equal(element.querySelector('h1')?.textContent, 'Title');
        assert.deepEqual(Array.from(element.querySelectorAll('p'), (p) => p.textContent), ['before it', 'EXPLODE *here*'], 'that paragraph as typed');
        assert.equal(element.querySelectorAll('em').length, 1);
        assert.equal(element.querySelector('li')?.textContent, 'after');
      }
    } finally {
      Lexer.prototype.inlineTokens = inlineTokens;
    }
  });
});
