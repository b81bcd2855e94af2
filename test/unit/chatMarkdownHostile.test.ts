// Hostile or degenerate model output against the chat's markdown renderer, in jsdom: pathological
// nesting, inputs on which marked is superlinear, blocks too large to render again every frame.
// Whole and streamed, the renderer must not throw, must show every word it received, must fall
// back to plain text past its budgets, and must do work per frame bounded by the new text, not by
// the reply: counted as characters handed to marked, DOMPurify and highlight.js (markdownWork.ts),
// never timed. (Chromium runs the same inputs in test/ui/xssCorpus.test.ts; the times are the
// benchmark's, test/bench/chatBench.ts.)
import * as assert from 'node:assert/strict';
import { Lexer } from 'marked';
import { FREEZE_AFTER } from '../../src/webview/chat/markdown/budgets';
import { hostileInputs, type HostileInput } from '../harness/hostileMarkdown';
import { assertShown, PER_FRAME, streamMetered } from './hostileChecks';
import { manual, render, streamSliced } from './markdownKit';
import { meterWork, type Work } from './markdownWork';

/** jsdom builds DOM far slower than Chromium: the largest inputs at a quarter of the benchmark's size at most. */
const SCALE = 0.25;
/**
 * The inputs about size, just past the largest budget they are checked against (PER_FRAME.lexed,
 * 48 KB): a renderer whose work per frame followed the reply would hand marked more than that in
 * the last frames. The full sizes (250 KB in jsdom) run in `npm run bench -- markdown`.
 */
const AT_MOST = 64 * 1024;
/**
 * Inputs whose tail is frozen past FREEZE_AFTER (no blank line ever ends a block) are held to a
 * tighter bound, the frozen tail lexed as blocks and inline with room, so they can be smaller: the
 * renderer's whole render of thousands of blocks is quadratic in jsdom (not in Chromium).
 */
/**
 * Characters streamed per frame here (the benchmark streams 33): the bound on a frame's work does
 * not depend on the slice, and jsdom's DOM work per frame makes fewer, larger frames much cheaper.
 */
const UNIT_FRAME = 600;
const TAIL_FROZEN: Readonly<Record<string, { atMost: number; lexed: number }>> = {
  'headings without blank lines': { atMost: 24 * 1024, lexed: 3 * FREEZE_AFTER },
};

/** The unit tests' inputs: each input of the corpus once, at its unit size. */
function unitInputs(): { input: HostileInput; bound: Work }[] {
  const framed = (input: HostileInput): HostileInput => ({ ...input, perFrame: Math.max(input.perFrame, UNIT_FRAME) });
  return hostileInputs(SCALE, AT_MOST).map((input) => {
    const frozen = TAIL_FROZEN[input.name];
    if (!frozen) return { input: framed(input), bound: { ...PER_FRAME } };
    const smaller = hostileInputs(SCALE, frozen.atMost).find((candidate) => candidate.name === input.name) ?? input;
    assert.ok(smaller.markdown.length > 2 * frozen.lexed, `${input.name} is past its bound`);
    return { input: framed(smaller), bound: { ...PER_FRAME, lexed: frozen.lexed } };
  });
}

describe('chat markdown: hostile output', function () {
  this.timeout(0); // every test here is synchronous (jsdom, up to 64 KB per input): a time limit would only fail a busy machine

  for (const { input, bound } of unitInputs()) {
    it(`${input.name} (${(input.markdown.length / 1024).toFixed(0)} KB): whole and streamed, every word shown, work per frame bounded`, () => {
      assertShown(input, render(input.markdown), 'whole');
      const { element, frames, most } = streamMetered(input, bound);
      assertShown(input, element, 'streamed');
      if (process.env.MARKDOWN_WORK_LOG)
        console.log(
          `      most per frame: lexed ${most.lexed}, sanitized ${most.sanitized}, highlighted ${most.highlighted}; ${frames} frames`,
        );
    });
  }

  it('keeps nesting past the budget as text: 12 quote levels, 8 emphasis levels, the rest shown as typed', () => {
    const quotes = render(`${'> '.repeat(4000)}deepest`);
    assert.equal(quotes.querySelectorAll('blockquote').length, 12);
    assert.ok((quotes.textContent ?? '').includes(`${'> '.repeat(100)}`), 'the markers past the limit are text');
    const emphasis = render(`${'*'.repeat(5000)}middle${'*'.repeat(5000)}`);
    const deepest = Math.max(
      0,
      ...Array.from(emphasis.querySelectorAll('em, strong'), (node) => {
        let depth = 0;
        for (let at: Element | null = node; at && at !== emphasis; at = at.parentElement)
          if (/^(?:EM|STRONG)$/.test(at.tagName)) depth++;
        return depth;
      }),
    );
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
    assert.equal(
      render(`${'<div>'.repeat(20)}fine${'</div>'.repeat(20)}`).querySelectorAll('div').length,
      20,
      'shallow HTML is kept',
    );
  });

  it('shows a table past REDRAW_LIMIT as plain text, streamed as whole, and a smaller one as a table', () => {
    const table = (rows: number): string =>
      `| n | name |\n|---|---|\n${Array.from({ length: rows }, (_, i) => `| ${i} | row${i} |`).join('\n')}\n\nAfter.`;
    assert.ok(render(table(100)).querySelector('table'));
    const big = table(1200);
    const whole = render(big);
    assert.equal(whole.querySelector('table'), null);
    assert.equal(whole.querySelector('.md-plain')?.textContent, big.slice(0, big.indexOf('\n\nAfter.')));
    assert.equal(whole.querySelector('p:last-child')?.textContent, 'After.');
    const streamed = streamSliced(
      big,
      () => 997,
      () => true,
    );
    assert.equal(streamed.element.innerHTML, whole.innerHTML);
  });

  it('streams a fence over the tail limit segment by segment, the same as whole, and closes it without highlighting it again', () => {
    // 1,000 lines (36 KB): past twice TAIL_LIMIT, and far past what closing it may highlight.
    const code = Array.from({ length: 1000 }, (_, i) => `const value${i} = ${i}; // line ${i}`).join('\n');
    const text = `Intro.\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAfter the fence.`;
    const meter = meterWork();
    let closing: Work;
    let streamed: ReturnType<typeof manual>;
    try {
      streamed = manual();
      const end = text.indexOf('\n```\n\nAfter');
      for (let at = 0; at < end; at += 500) {
        streamed.view.append(text.slice(at, Math.min(at + 500, end)));
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
    // 1,400 blocks: past two groups of GROUP_NODES (512, blockGroups.ts). 6,000 in `npm run bench -- markdown`.
    const headings = 700;
    const text = Array.from({ length: headings }, (_, i) => `# heading${i}\n\nline ${i}`).join('\n\n');
    const streamed = streamSliced(
      text,
      () => 500,
      () => true,
    );
    const whole = manual();
    whole.view.setText(text);
    assert.equal(streamed.element.innerHTML, whole.element.innerHTML);
    assert.ok(streamed.element.querySelectorAll(':scope > .md-blocks').length >= 2);
    assert.ok(streamed.element.childNodes.length < 600, `${streamed.element.childNodes.length} nodes at the top`);
    assert.equal(streamed.element.querySelectorAll('h1').length, headings);
  });

  it('contains text that marked throws on: that text is shown as typed, the blocks around it render', () => {
    const inlineTokens = Lexer.prototype.inlineTokens;
    Lexer.prototype.inlineTokens = function (this: Lexer, src: string, tokens?: Parameters<typeof inlineTokens>[1]) {
      if (src.includes('EXPLODE')) throw new RangeError('Maximum call stack size exceeded');
      return inlineTokens.call(this, src, tokens);
    };
    try {
      const text = '# Title\n\nbefore *it*\n\nEXPLODE *here*\n\n- after';
      for (const element of [
        render(text),
        streamSliced(
          text,
          () => 3,
          () => true,
        ).element,
      ]) {
        assert.equal(element.querySelector('h1')?.textContent, 'Title');
        assert.deepEqual(
          Array.from(element.querySelectorAll('p'), (p) => p.textContent),
          ['before it', 'EXPLODE *here*'],
          'that paragraph as typed',
        );
        assert.equal(element.querySelectorAll('em').length, 1);
        assert.equal(element.querySelector('li')?.textContent, 'after');
      }
    } finally {
      Lexer.prototype.inlineTokens = inlineTokens;
    }
  });
});
