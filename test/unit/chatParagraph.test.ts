// A paragraph that streams is rendered piece by piece (GrowingParagraph, paragraphCut): the lines
// before a safe cut are rendered once, and the rest again each frame. These tests hold that to
// what matters: the pieces give exactly what the whole paragraph gives (marked's own output, over
// many random texts full of constructs that span lines), and a one-paragraph reply of many parts does not
// make each frame render more as it grows.
import * as assert from 'node:assert/strict';
import { Parser } from 'marked';
import { PART_CHARS, PART_CLASS } from '../../src/webview/chat/markdown/growingParagraph';
import { lexInline } from '../../src/webview/chat/markdown/markdownEngine';
import { lastCutPoint, lexClosed } from '../../src/webview/chat/markdown/paragraphCut';
import { seededRandom } from '../harness/seededRandom';
import { manual, render, streamSliced, window } from './markdownKit';

/** Pieces whose meaning can depend on a later line: delimiters, code spans, links, URLs, HTML, breaks. */
const PIECES = [
  'word ',
  'text',
  ' ',
  '\n',
  '\n',
  '  \n',
  '\\\n',
  ' \n',
  '*',
  '**',
  '***',
  '_',
  '__',
  '~',
  '~~',
  '`',
  '``',
  '\\*',
  '\\',
  '!',
  '"',
  '[a](https://x.example)',
  '[a]',
  '[',
  ']',
  '(',
  ')',
  ' )',
  '\n)',
  '![i](https://i.example/x.png)',
  '[a](\nhttps://z.example)',
  '[c](u "t")',
  '[d](<u v>)',
  '[h](\n',
  '[e]',
  '<',
  '< ',
  '>',
  '<b>',
  '</b>',
  '<x\nyz>',
  'a <b',
  '<https://a.example>',
  '&amp;',
  '&',
  'www.x.example',
  'a@b.example',
  'http://x.example/z_',
  'http://x.example/a`b',
  'www.q.example/*x',
  'http://x.example/(a)',
  'snake_case',
  'é_x',
  'x_',
  '_x',
  'foo*bar',
  '*em*',
  '**strong**',
  '_u_',
  '`code`',
  '~~del~~',
  '~x~',
  '*a **b*',
  'word.\n',
  'x,\n',
  '→',
  '🚀',
  '\t',
  '   ',
  '#',
  '1.',
  ':',
  '|',
  ' * ',
  ' _ ',
  ' ~ ',
  ' ** ',
  '[INFO] ',
  '[a] ',
  'x [y] z',
  '[a][b]',
  '[a][]',
  '[a](',
  '(\nhttps://in.example)',
  '[a] (',
  '<a href="x">',
  '</a>',
  ' https://u.example ',
  '[x]\n',
  '] (',
  '[a]:',
  ' ~5 ',
  'src/*.ts',
  '[a]( )',
  '[a]( u)',
];

/** Reference definitions some texts are lexed with: `[a]` and `[a][b]` are links then. */
const DEFINITIONS = { a: { href: 'https://def.example', title: null }, b: { href: 'https://b.example', title: null } };

/** A paragraph's text as marked gives it: no blank lines, no leading white space, no final newline. */
function paragraphText(next: () => number, pieces: number): string {
  let text = '';
  for (let count = pieces; count > 0; count--) text += PIECES[Math.floor(next() * PIECES.length)] ?? '';
  return text
    .split('\n')
    .filter((line) => /\S/.test(line))
    .join('\n')
    .trimStart();
}

/** Pieces that close what they open (some over lines), so that a long paragraph of them has parts. */
const CLOSING = [
  '*em*',
  '**strong**',
  '`code`',
  '`a * b`',
  '[a](https://x.example)',
  '~~del~~',
  'snake_case',
  ' a < b',
  ' &amp;',
  ' www.x.example',
  '\\*',
  '![i](https://i.example/x.png)',
  '<https://a.example>',
  ' \n',
  '  \n',
  '\\\n',
  ' *open\nclosed later* ',
  ' `span\nacross` ',
];

describe('chat markdown: a paragraph rendered in pieces', () => {
  it('cut where paragraphCut allows, the pieces render as the whole paragraph does (6,000 random texts)', function () {
    this.timeout(0); // synchronous (it cannot wait on anything), so a time limit would only fail a busy machine
    let cuts = 0;
    for (let docIndex = 0; docIndex < 6000; docIndex++) {
      const next = seededRandom(docIndex + 1);
      const links = docIndex % 2 ? DEFINITIONS : {};
      const html = (markdown: string): string => Parser.parseInline(lexInline(markdown, links));
      const text = paragraphText(next, 3 + Math.floor(next() * 40));
      // As GrowingParagraph does: at the end of each frame, cut the unsettled rest if allowed.
      let settled = 0;
      let pieces = '';
      for (let end = 1; end <= text.length; end += 1 + Math.floor(next() * 8)) {
        const rest = text.slice(settled, end);
        const cut = lastCutPoint(rest);
        const tokens = cut > 0 ? lexClosed(rest.slice(0, cut), links) : undefined;
        if (!tokens) continue;
        pieces += Parser.parseInline(tokens);
        settled += cut;
        cuts++;
      }
      pieces += html(text.slice(settled));
      assert.equal(
        pieces,
        html(text),
        `text ${JSON.stringify(text)} (document ${docIndex}, definitions: ${docIndex % 2 ? 'yes' : 'no'})`,
      );
    }
    assert.ok(cuts > 500, `only ${cuts} cuts were made: the test would not test cutting`);
  });

  it('refuses to cut after anything still open, and after a hard break', () => {
    const refused = [
      '*em opened\n',
      'a `code span\n',
      'see [the\n',
      'x <span\n',
      '~~gone\n',
      'trailing *x\n',
      '[a](\nhttps://x.example) split link\n',
      'took ~5 ms\n',
      'src/*.ts\n',
      '[a]( u) space before the address\n',
    ];
    for (const before of refused) assert.equal(lexClosed(before, {}), undefined, JSON.stringify(before));
    assert.equal(
      lexClosed('a defined [a](\n', DEFINITIONS),
      undefined,
      'a reference link followed by ( may be an inline link',
    );
    const closed = [
      '*em* and **strong**\n',
      'a `code * span`\n',
      '[a](https://x.example) then text\n',
      'snake_case_name\n',
      'a < b\n',
      'plain words\n',
      'ends with a link [a](https://x.example)\n',
      '[INFO] started\n',
      'a * b = c\n',
    ];
    for (const before of closed) assert.ok(lexClosed(before, {}), JSON.stringify(before));
    assert.equal(lastCutPoint('one  \ntwo'), 0, 'a line ending in two spaces breaks only when more follows');
    assert.equal(lastCutPoint('one\ntwo\\\nthree'), 4);
    assert.equal(lastCutPoint('no line break yet'), 0);
  });

  it('streams random paragraphs to the same DOM as setText and renderMarkdown', function () {
    this.timeout(0); // synchronous (it cannot wait on anything), so a time limit would only fail a busy machine
    for (let docIndex = 0; docIndex < 200; docIndex++) {
      const next = seededRandom(docIndex + 31337);
      const definitions = docIndex % 2 ? '[a]: https://def.example\n[b]: https://b.example\n\n' : '';
      const text = `${definitions}Intro line\n${paragraphText(next, 10 + Math.floor(next() * 40))}\n\nAfter.`;
      const whole = manual();
      whole.view.setText(text);
      assert.equal(whole.element.innerHTML, render(text).innerHTML, `setText, text ${JSON.stringify(text)}`);
      const streamed = streamSliced(
        text,
        () => 1 + Math.floor(next() * 12),
        () => next() < 0.8,
      );
      assert.equal(streamed.element.innerHTML, whole.element.innerHTML, `text ${JSON.stringify(text)}`);
    }
  });

  it('splits long random paragraphs into the same parts whether streamed or rendered whole', function () {
    this.timeout(0); // synchronous (it cannot wait on anything), so a time limit would only fail a busy machine
    let parts = 0;
    for (let docIndex = 0; docIndex < 6; docIndex++) {
      const next = seededRandom(docIndex + 4242);
      // Constructs that close, some over several lines, and hard breaks between plain lines.
      let text = 'Start';
      while (text.length < 14_000)
        text +=
          next() < 0.6 ? ` plain words ${text.length}\n` : ` ${CLOSING[Math.floor(next() * CLOSING.length)] ?? ''}`;
      text = text
        .split('\n')
        .filter((line) => /\S/.test(line))
        .join('\n'); // one paragraph: no blank line
      // Then a line that ends it (some only once their next line or character arrives), or turns it into a heading.
      text +=
        [
          '\n- list item',
          '\n| a | b |\n|---|---|\n| 1 | 2 |',
          '\n# heading',
          '\n```js\nx\n```',
          '\n===',
          '\n<div>\nhtml\n</div>',
        ][docIndex] ?? '';
      const whole = render(text);
      parts += whole.querySelectorAll(`.${PART_CLASS}`).length;
      const streamed = streamSliced(
        text,
        () => 1 + Math.floor(next() * 200),
        () => next() < 0.8,
      );
      assert.equal(streamed.element.innerHTML, whole.innerHTML, `document ${docIndex}`);
    }
    assert.ok(parts >= 6, `only ${parts} parts: the test would not test them`);
  });

  it('gives log lines parts, and falls back to whole rendering when raw HTML comes after parts', function () {
    this.timeout(0); // synchronous (it cannot wait on anything), so a time limit would only fail a busy machine
    const log = Array.from({ length: 400 }, (_, line) => `[INFO] step ${line}: a * b = c for snake_case_name`).join(
      '\n',
    );
    for (const text of [
      log,
      `${log}\nthen <b>raw\nHTML</b> at the end`,
      `${log.slice(0, 6000)}\ntook ~5 ms, never closed\n${log.slice(6000)}`,
    ]) {
      const streamed = streamSliced(
        text,
        () => 97,
        () => true,
      );
      assert.equal(streamed.element.innerHTML, render(text).innerHTML, text.slice(-60));
    }
    assert.ok(render(log).querySelectorAll(`.${PART_CLASS}`).length >= 3, 'log lines are split into parts');
  });

  it('keeps emphasis opened on one line and closed lines later, and raw HTML across lines', () => {
    for (const text of [
      '*opened here\nsecond line\nthird line* and after\nlast',
      'a <b>bold\nstill bold</b> plain\nend',
      'code `span\nover lines` done\nend',
    ]) {
      const { view, element, frame } = manual();
      for (const character of text) {
        view.append(character);
        frame();
      }
      view.finish();
      assert.equal(element.innerHTML, render(text).innerHTML, JSON.stringify(text));
    }
  });

  it('renders a 24 KB one-paragraph reply (six parts) with per-frame work that does not grow with it', function () {
    this.timeout(0); // synchronous (it cannot wait on anything), so a time limit would only fail a busy machine
    // The benchmark model's text: words with a line break every dozen, never a blank line.
    const words = [
      'simulated ',
      'token ',
      'stream ',
      '**bytes** ',
      'naïve ',
      'café ',
      '`über` ',
      'data ',
      '→ ',
      'ok ',
      '🚀 ',
      'local\n',
    ];
    let text = '';
    // Six parts (PART_CHARS each) at least: a renderer whose work followed the paragraph would render
    // 20 KB a frame in the last fifth. 100 KB streams in Chromium in test/ui/xssCorpus.test.ts and in
    // `npm run bench`.
    for (let index = 0; text.length < 6 * PART_CHARS; index++) text += words[index % words.length];
    const { view, element, frame } = manual();
    const observer = new window.MutationObserver(() => undefined);
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    const added: number[] = [];
    let paragraph: Element | null = null;
    for (let at = 0; at < text.length; at += 100) {
      view.append(text.slice(at, at + 100));
      frame();
      let characters = 0;
      for (const record of observer.takeRecords()) {
        for (const node of Array.from(record.addedNodes)) characters += node.textContent?.length ?? 0;
      }
      added.push(characters);
      paragraph ??= element.querySelector('p');
      assert.equal(element.querySelector('p'), paragraph, 'the paragraph keeps its element');
    }
    view.finish();
    // Laid out in parts of a few KB (a change relays out one part, not the paragraph), the same parts
    // as the paragraph rendered whole gets (compared below).
    const parts = Array.from(element.querySelectorAll(`p > .${PART_CLASS}`));
    assert.ok(parts.length >= 5, `${parts.length} parts`);
    assert.ok(
      parts.every((part) => (part.textContent?.length ?? 0) < PART_CHARS + 200),
      'a part ends at the first line end after PART_CHARS',
    );
    observer.disconnect();
    const late = added.slice(-Math.floor(added.length / 5));
    assert.ok(late.reduce((a, b) => a + b, 0) / late.length < 400, 'late frames render about what arrived');
    console.log(
      `      ${text.length} chars in ${added.length} frames: characters rendered per frame max ${Math.max(...added)}, last fifth average ${(late.reduce((a, b) => a + b, 0) / late.length).toFixed(0)}`,
    );
    // The most is when the paragraph's first part is formed from what it showed so far.
    assert.ok(
      Math.max(...added) < PART_CHARS + 1000,
      `a frame rendered ${Math.max(...added)} characters of a ${text.length}-character paragraph`,
    );
    assert.equal(element.querySelectorAll('p').length, 1);
    assert.equal(element.innerHTML, render(text).innerHTML);
  });
});
