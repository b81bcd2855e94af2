// The chat panel's markdown renderer in jsdom: what markdown becomes, the link/image/active-content
// policies, the code block toolbar, and streaming (same DOM however the text is sliced, frozen
// blocks kept, per-frame work bounded by the tail, not the message).
import * as assert from 'node:assert/strict';
import { seededRandom as random } from '../harness/seededRandom';
import { manual, recorder, render, streamSliced, window } from './markdownKit';

function click(target: Element, init: MouseEventInit = {}): MouseEvent {
  const event = new window.MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  target.dispatchEvent(event);
  return event;
}

const RICH = [
  '# Title\n\nA paragraph with *em*, **strong**, `code`, ~~del~~ and a [link](https://example.com "t").\nSecond line.\n',
  'Setext heading\n===\n\nAnother\n---\n\n> quote\nlazy line\n> > nested\n\n',
  '- one\n- two\n  - nested\n- three\n\n1. first\n\n2. second (loose)\n\n   continued paragraph\n\n7. seven\n',
  '- [ ] open task\n- [x] done task\n\n| Left | Right | Center |\n|:-----|------:|:------:|\n| a | b | c |\n| `x` | **y** | [z](https://z.example) |\n\n',
  '```ts\nconst x: number = 1;\nfunction f(a: string): void {\n  console.log(`<b>${a}</b>`);\n}\n```\n\nText between.\n\n```python\ndef f():\n    return "<script>"\n```\n',
  'Use [the docs][docs] or [this][Docs].\n\n[docs]: https://docs.example/path "Docs"\n\nAfter the definition: [again][docs].\n',
  '<details>\n<summary>More</summary>\n\nhidden *markdown*\n\n</details>\n\nInline <kbd>Ctrl</kbd>+<kbd>C</kbd> and <b onclick="x()">bold</b>.\n',
  'Autolinks: <https://auto.example> and www.example.org and mail@example.com.\n\n***\n\n    indented code\n    block\n\nend\r\nwith CRLF\r\n\r\n',
  '```diff\n- old\n+ new\n```\n\n~~~\ntilde fence\n~~~\n\n````md\n```\nnested fence\n```\n````\n',
  'Paragraph\n```js\nno blank line before fence\n```\nand after\n\n![alt](https://img.example/x.png) ![data](data:image/png;base64,iVBORw0KGgo=)\n',
  '```bash\nunclosed fence at the end\necho "$HOME"\n',
];

describe('chat markdown: rendering', () => {
  it('renders headings, paragraphs, emphasis, lists, tables, blockquotes and rules', () => {
    const element = render(RICH.slice(0, 4).join('\n'));
    assert.equal(element.querySelector('h1')?.textContent, 'Title');
    assert.equal(element.querySelector('h2')?.textContent, 'Another');
    assert.ok(
      element.querySelector('p em') &&
        element.querySelector('p strong') &&
        element.querySelector('p del') &&
        element.querySelector('p code'),
    );
    assert.equal(element.querySelectorAll('blockquote blockquote').length, 1);
    assert.ok(element.querySelector('ul ul li'));
    assert.equal(element.querySelectorAll('ol').length >= 1, true);
    const table = element.querySelector('table');
    assert.ok(table);
    assert.deepEqual(
      Array.from(table.querySelectorAll('th'), (th) => th.getAttribute('align')),
      ['left', 'right', 'center'],
    );
    assert.equal(table.querySelectorAll('tbody tr').length, 2);
    const boxes = Array.from(element.querySelectorAll('input'));
    assert.equal(boxes.length, 2);
    assert.ok(boxes.every((box) => box.type === 'checkbox' && box.disabled));
    assert.deepEqual(
      boxes.map((box) => box.checked),
      [false, true],
    );
    assert.ok(render('a\n\n***\n\nb').querySelector('hr'));
  });

  it('highlights fenced code and gives each block a toolbar of real buttons', () => {
    const element = render(RICH[4] ?? '');
    const blocks = element.querySelectorAll('.md-code-block');
    assert.equal(blocks.length, 2);
    const first = blocks[0]!;
    assert.equal(first.querySelector('code')?.className, 'hljs language-typescript');
    assert.ok(first.querySelector('.hljs-keyword'), 'keywords are highlighted');
    assert.ok(first.querySelector('.hljs-string, .hljs-template-variable, .hljs-subst'));
    assert.equal(
      first.querySelector('code')?.textContent,
      'const x: number = 1;\nfunction f(a: string): void {\n  console.log(`<b>${a}</b>`);\n}',
    );
    assert.equal(first.querySelector('code b'), null, 'HTML inside code is text');
    const buttons = Array.from(first.querySelectorAll('.md-code-toolbar button'));
    assert.deepEqual(
      buttons.map((b) => b.getAttribute('aria-label')),
      ['Apply to File', 'Copy', 'Insert at Cursor', 'New File'],
    );
    assert.ok(buttons.every((b) => b.getAttribute('type') === 'button'));
    assert.deepEqual(
      buttons.map((b) => b.querySelector('.codicon')?.className),
      ['codicon codicon-diff-single', 'codicon codicon-copy', 'codicon codicon-insert', 'codicon codicon-new-file'],
    );
    assert.equal(first.querySelector('.md-code-language')?.textContent, 'ts');
    assert.ok(blocks[1]?.querySelector('code.language-python .hljs-string'));
  });

  it('shows the file a fence names in the toolbar, as text, and none when it names none', () => {
    const element = render(
      '```ts src/app/main.ts\nconst a = 1;\n```\n\n```python title="tools/<b>run</b>.py"\nx\n```\n\n```ts\ny\n```',
    );
    const [named, hostile, plain] = Array.from(element.querySelectorAll('.md-code-block'));
    const file = (block: Element | undefined): HTMLElement | null | undefined => block?.querySelector('.md-code-file');
    assert.equal(file(named)?.textContent, 'src/app/main.ts');
    assert.equal(file(named)?.hidden, false);
    assert.equal(named?.querySelector('.md-code-language')?.textContent, 'ts');
    assert.equal(file(hostile)?.hidden, true, 'not a path (markup in it): nothing named');
    assert.equal(file(hostile)?.querySelector('b'), null);
    assert.equal(file(plain)?.hidden, true);
    assert.equal(file(plain)?.textContent, '');
  });

  it('toolbar buttons hand the exact code and the fence language to the actions', () => {
    const actions = recorder();
    const { view, element } = manual(actions);
    view.setText(
      '```rust\nfn main() { println!("<hi>"); }\n```\n\n```\nplain & simple\n```\n\n```made-up-lang\nx\n```',
    );
    const [rust, plain, unknown] = Array.from(element.querySelectorAll('.md-code-block'));
    const press = (block: Element | undefined, action: string): void => {
      const button = block?.querySelector(`button[data-md-action="${action}"]`);
      assert.ok(button);
      click(button);
    };
    press(rust, 'copy');
    press(rust, 'insert');
    press(rust, 'newFile');
    press(plain, 'newFile');
    press(unknown, 'newFile');
    assert.deepEqual(actions.calls, [
      ['copy', 'fn main() { println!("<hi>"); }'],
      ['insert', 'fn main() { println!("<hi>"); }'],
      ['newFile', 'fn main() { println!("<hi>"); }', 'rust'],
      ['newFile', 'plain & simple', ''],
      ['newFile', 'x', 'made-up-lang'],
    ]);
    assert.equal(unknown?.querySelector('code span.hljs-keyword'), null, 'no grammar, no guessing');
    assert.equal(
      rust?.querySelector('[data-md-action="copy"]')?.getAttribute('aria-label'),
      'Copied',
      'copy gives feedback',
    );
  });
});

describe('chat markdown: links', () => {
  it('keeps http, https and mailto links, and opens them through the host on click', () => {
    const actions = recorder();
    const { view, element } = manual(actions);
    view.setText(
      '[a](https://a.example/x?q=1) [b](http://b.example) [c](mailto:me@example.com) <https://auto.example> www.site.example',
    );
    const anchors = Array.from(element.querySelectorAll('a'));
    assert.deepEqual(
      anchors.map((a) => a.getAttribute('href')),
      [
        'https://a.example/x?q=1',
        'http://b.example/',
        'mailto:me@example.com',
        'https://auto.example/',
        'http://www.site.example/',
      ],
    );
    for (const anchor of anchors) {
      assert.equal(anchor.getAttribute('rel'), 'noopener noreferrer');
      const event = click(anchor);
      assert.equal(event.defaultPrevented, true, 'the webview never navigates');
    }
    assert.deepEqual(
      actions.calls.map(([, href]) => href),
      anchors.map((a) => a.getAttribute('href')),
    );
    // A click on something inside the link counts too.
    const inner = render('[**bold** link](https://inner.example)');
    assert.ok(inner.querySelector('a strong'));
  });

  const inert = [
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x](jav&#x61;script:alert(1))',
    '[x](&#106;avascript:alert(1))',
    '[x](command:workbench.action.terminal.new)',
    '[x](command:unifiedInference.setApiKey?%5B%5D)',
    '[x](vscode:extension/evil)',
    '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[x](file:///etc/passwd)',
    '[x](vbscript:msgbox(1))',
    '[x](relative/path.md)',
    '[x](#anchor)',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="command:workbench.action.reloadWindow">x</a>',
    '[x][r]\n\n[r]: javascript:alert(1)',
    '<javascript:alert(1)>',
    '[x](  javascript:alert(1))',
    '[x](java\tscript:alert(1))',
    // http(s) links the URL parser refuses: shown as text (they used to throw and stop the render)
    '[x](http://[oops)',
    '[x](http://a%zz)',
    '<a href="https://[::1">x</a>',
  ];
  for (const markdown of inert) {
    it(`renders ${JSON.stringify(markdown)} as text, without an href`, () => {
      const actions = recorder();
      const { view, element } = manual(actions);
      view.setText(markdown);
      assert.equal(element.querySelectorAll('[href]').length, 0, element.innerHTML);
      const text = element.querySelector('.md-inert-link') ?? element.querySelector('p');
      assert.ok(text);
      assert.equal(click(text).defaultPrevented, false);
      assert.deepEqual(actions.calls, []);
    });
  }

  it('prevents a click even on a link whose href was changed after rendering, and does not open it', () => {
    const actions = recorder();
    const { view, element } = manual(actions);
    view.setText('[x](https://ok.example)');
    const anchor = element.querySelector('a');
    assert.ok(anchor);
    anchor.setAttribute('href', 'command:workbench.action.reloadWindow');
    assert.equal(click(anchor).defaultPrevented, true);
    assert.deepEqual(actions.calls, []);
  });
});

describe('chat markdown: images', () => {
  it('shows a remote image as link-looking text, never as an <img>', () => {
    const element = render(
      '![a tracking pixel](https://evil.example/t.png "t") and <img src="http://evil.example/x.gif" alt="raw">',
    );
    assert.equal(element.querySelectorAll('img').length, 0);
    const links = Array.from(element.querySelectorAll('.md-image-link'));
    assert.deepEqual(
      links.map((l) => l.getAttribute('href')),
      ['https://evil.example/t.png', 'http://evil.example/x.gif'],
    );
    assert.deepEqual(
      links.map((l) => l.querySelector('.md-image-alt')?.textContent),
      ['a tracking pixel', 'raw'],
    );
    assert.deepEqual(
      links.map((l) => l.querySelector('.md-image-url')?.textContent),
      ['https://evil.example/t.png', 'http://evil.example/x.gif'],
    );
  });

  it('keeps data: images in raster formats only', () => {
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const element = render(
      `![dot](${png}) ![w](data:image/webp;base64,UklGRg==) ![s](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=) ![h](data:text/html,<b>x</b>) ![j](javascript:alert(1))`,
    );
    assert.deepEqual(
      Array.from(element.querySelectorAll('img'), (img) => img.getAttribute('src')?.slice(0, 15)),
      ['data:image/png;', 'data:image/webp'],
    );
    assert.equal(element.querySelectorAll('[href]').length, 0, 'non-openable image URLs are text');
    assert.equal(element.querySelectorAll('.md-image-link').length, 3);
  });

  it('a remote image inside a link does not nest links', () => {
    const element = render('[![badge](https://img.example/b.svg)](https://site.example)');
    assert.equal(element.querySelectorAll('a').length, 1);
    assert.equal(element.querySelector('a')?.getAttribute('href'), 'https://site.example/');
    assert.equal(element.querySelectorAll('img').length, 0);
  });
});

describe('chat markdown: active content is removed', () => {
  const cases: [string, string][] = [
    ['<script>alert(1)</script>', 'script'],
    ['<img src=x onerror=alert(1)>', '[onerror], img'],
    [
      '<p onclick="alert(1)" style="color:red" class="codicon" id="root" name="x">p</p>',
      '[onclick], [style], [class], [id], [name]',
    ],
    ['<iframe srcdoc="<script>alert(1)</script>"></iframe>', 'iframe, [srcdoc]'],
    ['<object data="x"></object><embed src="x">', 'object, embed'],
    [
      '<form action="https://evil.example"><input type="text" name="q"><button>go</button></form>',
      'form, input, button',
    ],
    ['<svg onload=alert(1)><script>alert(1)</script></svg>', 'svg, script'],
    ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', 'math, style, img, [onerror]'],
    [
      '<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/"><link rel="stylesheet" href="https://evil.example/x.css">',
      'meta, base, link',
    ],
    ['<style>body{background:url(https://evil.example/x)}</style>', 'style'],
    ['<details open ontoggle=alert(1)><summary>s</summary>x</details>', '[ontoggle]'],
    ['<input type="checkbox" onclick="alert(1)">', '[onclick], input:not([disabled])'],
    ['<video src=x onerror=alert(1)></video><audio src=x></audio>', 'video, audio'],
    ['<a href="https://ok.example" target="_blank" ping="https://evil.example">x</a>', '[target], [ping]'],
    [
      '<div data-md-code="guess:0">forged placeholder</div><pre data-md-code="guess:0">x</pre>',
      '[data-md-code], .md-code-block',
    ],
    ['<frameset onload=alert(1)><frame src="https://evil.example">', 'frameset, frame, [onload]'],
  ];
  for (const [markdown, forbidden] of cases) {
    it(`removes ${forbidden} from ${JSON.stringify(markdown).slice(0, 70)}`, () => {
      const element = render(markdown);
      assert.equal(element.querySelector(forbidden), null, element.innerHTML);
    });
  }

  it('keeps harmless HTML models write (kbd, details, sub/sup)', () => {
    const element = render(RICH[6] ?? '');
    assert.equal(element.querySelectorAll('kbd').length, 2);
    assert.ok(element.querySelector('details summary'));
    assert.equal(element.querySelector('b')?.hasAttribute('onclick'), false);
  });

  it('shows a block DOMPurify cannot return (a frameset replaces its body) as text', () => {
    const element = render('before\n\n<frameset onload=alert(1)>\n\nafter');
    assert.equal(element.querySelector('frameset'), null);
    assert.deepEqual(
      Array.from(element.querySelectorAll('p'), (p) => p.textContent),
      ['before', '<frameset onload=alert(1)>', 'after'],
    );
  });

  it('an unclosed raw tag cannot swallow the blocks after it', () => {
    const element = render('<div>\n\nnot inside\n\n</div>');
    assert.equal(element.querySelector(':scope div p'), null);
    assert.ok(element.querySelector(':scope > p'));
  });
});

describe('chat markdown: streaming', () => {
  const documents = [...RICH, RICH.join('\n')];

  it('gives the same DOM as setText however the text is sliced (and as renderMarkdown)', function () {
    this.timeout(0); // synchronous (it cannot wait on anything), so a time limit would only fail a busy machine
    let runs = 0;
    for (const [docIndex, text] of documents.entries()) {
      const whole = manual();
      whole.view.setText(text);
      assert.equal(whole.element.innerHTML, render(text).innerHTML, `renderMarkdown differs for document ${docIndex}`);
      for (let seed = 1; seed <= 8; seed++) {
        const next = random(seed * 1000 + docIndex);
        const streamed = streamSliced(
          text,
          () => (next() < 0.2 ? 1 : 1 + Math.floor(next() * (next() < 0.8 ? 8 : 120))),
          () => next() < 0.7,
        );
        assert.equal(streamed.view.text, text);
        assert.equal(streamed.element.innerHTML, whole.element.innerHTML, `document ${docIndex}, seed ${seed}`);
        runs++;
      }
    }
    assert.equal(runs, documents.length * 8);
  });

  it('gives the same DOM as setText for random soups of block starts (lists, fences, tables, quotes, HTML)', function () {
    this.timeout(0); // synchronous (it cannot wait on anything), so a time limit would only fail a busy machine
    // Lines whose meaning depends on their neighbours: lazy continuations, list items joining a
    // list across blank lines, tables interrupting paragraphs, setext underlines, HTML blocks.
    const pieces = [
      '# H\n',
      'para text *em*\n',
      '\n',
      '- a\n',
      '* b\n',
      '1. x\n',
      '7) y\n',
      '  indented\n',
      '    code\n',
      '> q\n',
      '```js\nx\n```\n',
      '```\n',
      '~~~\n',
      '| a | b |\n',
      '|---|---|\n',
      '---\n',
      '===\n',
      '[r]: https://r.example\n',
      '[x][r]\n',
      '<div>\n',
      '</div>\n',
      '<b>x</b>\n',
      '- [ ] t\n',
      '\t- tab\n',
      '***\n',
      '+ plus\n',
      '2. two\n',
      '<pre>\n',
      '<!--\n',
      '-->\n',
      '\n\n',
      'text',
      ' ',
      '-',
      '1',
      '>',
      'a <a href="x"> b\n',
      'https://u.example c\n',
    ];
    for (let docIndex = 0; docIndex < 60; docIndex++) {
      const next = random(docIndex + 77);
      let text = '';
      for (let count = 5 + Math.floor(next() * 25); count > 0; count--)
        text += pieces[Math.floor(next() * pieces.length)] ?? '';
      const whole = manual();
      whole.view.setText(text);
      for (let seed = 0; seed < 3; seed++) {
        const slicer = random(seed * 7919 + docIndex);
        const streamed = streamSliced(
          text,
          () => (slicer() < 0.5 ? 1 : 1 + Math.floor(slicer() * 10)),
          () => slicer() < 0.8,
        );
        assert.equal(streamed.element.innerHTML, whole.element.innerHTML, `text ${JSON.stringify(text)}, seed ${seed}`);
      }
    }
  });

  it('renders an unclosed fence as a code block while it streams, then closes it', () => {
    const { view, element, frame } = manual();
    view.append('Look:\n\n```py');
    frame();
    view.append('thon\nprint("<b>hi</b>")\nx = 1');
    frame();
    const block = element.querySelector('.md-code-block');
    assert.ok(block, element.innerHTML);
    assert.equal(block.querySelector('code')?.textContent, 'print("<b>hi</b>")\nx = 1');
    assert.equal(block.querySelectorAll('button').length, 4);
    view.append('\n``');
    frame();
    assert.equal(element.querySelector('.md-code-block code')?.textContent, 'print("<b>hi</b>")\nx = 1\n``');
    view.append('`\n\nAfter the fence.');
    view.finish();
    assert.equal(element.querySelector('.md-code-block code')?.textContent, 'print("<b>hi</b>")\nx = 1');
    assert.equal(element.querySelector('.md-code-block + p, p:last-child')?.textContent, 'After the fence.');
  });

  it('renders at most once per frame, and finish() renders what is pending', () => {
    const { view, element, frame } = manual();
    view.append('Hello');
    view.append(', ');
    view.append('world');
    assert.equal(element.textContent, '', 'nothing before the frame');
    assert.equal(frame(), true);
    assert.equal(frame(), false, 'one frame was requested for three appends');
    assert.equal(element.textContent?.trim(), 'Hello, world');
    view.append('!');
    view.finish();
    assert.equal(element.textContent?.trim(), 'Hello, world!');
    frame(); // the frame requested by the last append finds nothing left to do
    assert.equal(element.textContent?.trim(), 'Hello, world!');
  });

  it('handles \\r\\n split across appends', () => {
    const { view, element } = manual();
    for (const piece of ['line one\r', '\n\r', '\nline two\r', '\n']) view.append(piece);
    view.finish();
    assert.equal(element.querySelectorAll('p').length, 2);
    assert.equal(view.text, 'line one\r\n\r\nline two\r\n');
  });

  it('keeps frozen blocks as the same nodes, and a streaming fence as the same element', function () {
    this.timeout(0); // synchronous (it cannot wait on anything), so a time limit would only fail a busy machine
    const { view, element, frame } = manual();
    view.append('# Heading\n\nFirst paragraph.\n\n');
    frame();
    view.append('Second');
    frame();
    const heading = element.querySelector('h1');
    const first = element.querySelector('p');
    assert.ok(heading && first);
    view.append(' paragraph.\n\n```ts\nconst a = 1;\n');
    frame();
    const block = element.querySelector('.md-code-block');
    const firstSegment = block?.querySelector('.md-code-segment');
    assert.ok(block && firstSegment);
    for (let line = 0; line < 300; line += 3) {
      view.append(
        `const value${line} = ${line}; // line ${line}, long enough to fill segments\nlet a${line} = 'one';\nlet b${line} = "two";\n`,
      );
      frame();
      assert.equal(element.querySelector('.md-code-block'), block, 'the fence is updated in place');
    }
    const segments = block.querySelectorAll('.md-code-segment');
    assert.ok(segments.length > 3, 'a long block is split into segments');
    const early = segments[0];
    view.append('const last = true;\n');
    frame();
    assert.equal(block.querySelectorAll('.md-code-segment')[0], early, 'completed segments are not re-highlighted');
    view.append('```\n\nThe end.');
    view.finish();
    assert.equal(element.querySelector('h1'), heading);
    assert.equal(element.querySelector('p'), first);
    assert.ok(heading.isConnected && first.isConnected);
    assert.equal(element.querySelector('.md-code-block'), block);
  });

  it('updates earlier reference links when their definition arrives later', () => {
    const { view, element, frame } = manual();
    for (const piece of ['See [the docs][d].\n\n', 'More text.\n\n', '[d]: https://docs.example\n\n', 'Tail.']) {
      view.append(piece);
      frame();
    }
    view.finish();
    assert.equal(element.querySelector('a')?.getAttribute('href'), 'https://docs.example/');
  });

  it('keeps per-frame work small on a 40 KB reply (work follows the tail, not the message)', function () {
    this.timeout(0); // synchronous (it cannot wait on anything), so a time limit would only fail a busy machine
    const paragraph =
      'Streaming text with **bold**, `code` and a [link](https://example.com) that goes on for a while. ';
    const parts: string[] = [];
    let size = 0;
    // 40 KB: ten times FREEZE_AFTER, so the last fifth is far past anything the tail holds; what is
    // compared (the first fifth against the last) does not depend on the size. 100 KB streams in
    // Chromium in test/ui/xssCorpus.test.ts and in `npm run bench`.
    for (let section = 0; size < 40_000; section++) {
      const part =
        section % 4 === 3
          ? `\`\`\`ts\n${Array.from({ length: 60 }, (_, i) => `export const item${section}_${i} = { id: ${i}, name: "n${i}" };`).join('\n')}\n\`\`\`\n\n`
          : section % 4 === 2
            ? `${Array.from({ length: 12 }, (_, i) => `- item ${i}: ${paragraph.slice(0, 40)}`).join('\n')}\n\n`
            : `## Section ${section}\n\n${paragraph.repeat(6)}\n\n`;
      parts.push(part);
      size += part.length;
    }
    const text = parts.join('');
    const { view, element, frame } = manual();
    // The benchmark streams ~33 characters per 60 Hz frame (500 tokens/s); jsdom is far slower
    // than Chromium, so frames here carry 100 characters: what is measured is how the work per
    // frame scales with the message, which the slice size does not change. (Render times in
    // Chromium are measured by test/ui/xssCorpus.test.ts.)
    const perFrame = 100;
    const observer = new window.MutationObserver(() => undefined);
    observer.observe(element, { childList: true, subtree: true });
    const touched: number[] = [];
    for (let at = 0; at < text.length; at += perFrame) {
      view.append(text.slice(at, at + perFrame));
      frame();
      let nodes = 0;
      for (const record of observer.takeRecords()) nodes += record.addedNodes.length + record.removedNodes.length;
      touched.push(nodes);
    }
    view.finish();
    observer.disconnect();
    const frames = touched.length;
    const average = (list: number[]): number => list.reduce((a, b) => a + b, 0) / Math.max(list.length, 1);
    const early = average(touched.slice(0, Math.floor(frames / 5)));
    const late = average(touched.slice(-Math.floor(frames / 5)));
    const max = Math.max(...touched);
    console.log(
      `      ${text.length} chars in ${frames} frames: nodes added+removed per frame avg ${average(touched).toFixed(1)}, first fifth ${early.toFixed(1)}, last fifth ${late.toFixed(1)}, max ${max}; ${element.childNodes.length} top-level nodes at the end`,
    );
    assert.ok(max < 200, `max ${max} nodes in one frame`);
    assert.ok(late < early * 2 + 10, 'per-frame work does not grow with the message');
    assert.ok(element.childNodes.length > 80, `${element.childNodes.length} top-level nodes`);
    const whole = manual();
    whole.view.setText(text);
    assert.equal(element.innerHTML, whole.element.innerHTML);
  });
});
