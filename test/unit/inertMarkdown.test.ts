// A research report is shown in VS Code's markdown preview: nothing in it may load from the
// network. Rendered here with markdown-it, the parser the preview uses, with HTML on as there.
import * as assert from 'node:assert/strict';
import { inertMarkdown } from '../../src/shared/inertMarkdown';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options: { html: boolean; linkify: boolean }) => {
  render(text: string): string;
};

const HOSTILE = [
  '![pixel](https://tracker.example/p.png)',
  '![pixel](<https://tracker.example/a b.png> "t")',
  '![ref][r]\n\n![r]\n\n[r]: https://tracker.example/ref.png',
  '<img src="https://tracker.example/i.png">',
  '<picture><source srcset="https://tracker.example/s.png"></picture>',
  '<video poster="https://tracker.example/v.png"></video>',
  '<iframe src="https://tracker.example/f"></iframe>',
  '<div style="background:url(https://tracker.example/bg.png)">x</div>',
  '<link rel="stylesheet" href="https://tracker.example/c.css">',
  '<style>@import url(https://tracker.example/i.css)</style>',
  '\\\\![escaped backslash](https://tracker.example/e.png)',
  '- item\n\n  ```\n![after a fence in a list](https://tracker.example/l.png)\n```',
  '> quote\n> ![in a quote](https://tracker.example/q.png)',
];

describe('research reports: inert markdown for the preview', () => {
  const md = new MarkdownIt({ html: true, linkify: true });

  it('loads nothing: no image, no HTML element survives, whatever the form', () => {
    for (const text of HOSTILE) {
      const before = md.render(text);
      assert.match(
        before,
        /<img|<source|<video|<iframe|style=|<link|<style/,
        `the sample loads something unless made inert: ${text}`,
      );
      const after = md.render(inertMarkdown(text));
      assert.doesNotMatch(after, /<img|<source|<video|<iframe|<div|<link|<style|<picture/, text);
    }
  });

  it('keeps the text readable: links stay links, code shows the same characters', () => {
    const text = 'See [the source](https://example.com/a) and `a < b && !x`.\n\n```html\n<p>![x](y)</p>\n```\n';
    const html = md.render(inertMarkdown(text));
    assert.match(html, /<a href="https:\/\/example\.com\/a">the source<\/a>/);
    const visible = (s: string): string => s.replace(/\u200B/g, '');
    assert.equal(visible(inertMarkdown(text)), text, 'only invisible characters were added');
  });
});
