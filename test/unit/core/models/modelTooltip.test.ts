// The Models view's tooltip: the fields a user picks a model by, as labelled lines, not a dump of
// every field the catalog sent; catalog text rendered as the text it is (VS Code renders a tree
// item's MarkdownString with marked, as here).
import * as assert from 'node:assert/strict';
import { marked } from 'marked';
import { modelTooltip, plainMarkdown } from '../../../../src/core/models/modelTooltip';
import type { Model } from '../../../../src/core/types/account';

const facts = { category: 'Chat', categoryChosen: false, isDefault: false };
const model = (id: string, extra: Partial<Model> = {}): Model => ({ id, object: 'model', ...extra });
/** The tooltip as the hover shows it: text, one line per field. */
const shown = (markdown: string): string =>
  marked
    .parse(markdown, { async: false, gfm: true })
    .replace(/<br>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .trim();

describe('model tooltip', () => {
  it('says the id, provider, category, status, context, longest answer and prices per million tokens', () => {
    const tooltip = modelTooltip(
      model('sim-openai/gpt-sim-mini', {
        provider: 'sim-openai',
        owned_by: 'sim-openai',
        created: 1767225600,
        provider_info: { status: 'operational' },
        context_length: 128000,
        max_output_tokens: 16384,
        pricing: { input: 0.15, output: 0.6 },
        capabilities: ['tools', 'vision'],
      }),
      { ...facts, isDefault: true },
    );
    assert.equal(
      shown(tooltip),
      [
        'sim-openai/gpt-sim-mini',
        'Provider: sim-openai',
        'Category: Chat (the default)',
        'Status: operational',
        'Context: 128,000 tokens',
        'Longest answer: 16,384 tokens',
        'Price: $0.15 in / $0.60 out per million tokens',
      ].join('\n'),
    );
    assert.doesNotMatch(tooltip, /[{}"]|capabilities|created|1767225600/, 'no JSON, no field names');
  });

  it('prices as catalogs write them: per token (OpenRouter), per million, an input price alone', () => {
    const priceOf = (pricing: Record<string, unknown>, category = 'Chat'): string =>
      /Price: (.*)/.exec(shown(modelTooltip(model('p/m', { pricing }), { ...facts, category })))?.[1] ?? '';
    assert.equal(priceOf({ prompt: '0.000003', completion: '0.000015' }), '$3.00 in / $15.00 out per million tokens');
    assert.equal(priceOf({ input: 2.5, output: 10 }), '$2.50 in / $10.00 out per million tokens');
    assert.equal(priceOf({ input: 0.075, output: 1234.5 }), '$0.075 in / $1,234.50 out per million tokens');
    assert.equal(priceOf({ input: 0.02 }, 'Embedding'), '$0.02 per million input tokens');
    assert.equal(priceOf({ input: 0, output: 0 }), '$0.00 in / $0.00 out per million tokens');
    assert.equal(priceOf({ input: 'free' }), '', 'no price it cannot read');
  });

  it('leaves out what the catalog does not list, and says when the category is the user’s choice', () => {
    const text = shown(
      modelTooltip(model('bare-model'), { category: 'Embedding', categoryChosen: true, isDefault: false }),
    );
    assert.equal(text, ['bare-model', 'Provider: unknown provider', 'Category: Embedding (your choice)'].join('\n'));
  });

  it('shows catalog text as text: no link, image, HTML, emphasis or table', () => {
    const hostile = model('evil/**bold** [link](https://evil.example) ![img](https://evil.example/x.png)', {
      provider: '<img src=x onerror=alert(1)> www.evil.example',
      provider_info: { status: 'down | see admin@evil.example `code` <script>alert(1)</script>\n# heading' },
    });
    const html = marked.parse(modelTooltip(hostile, facts), { async: false, gfm: true });
    assert.doesNotMatch(html, /<(a|img|script|code|em|table|h1)\b/i, html);
    // The only emphasis is the tooltip's own: the id and the labels.
    assert.deepEqual([...html.matchAll(/<strong>(.*?)<\/strong>/g)].map((match) => match[1]).slice(1), [
      'Provider:',
      'Category:',
      'Status:',
    ]);
    const text = shown(modelTooltip(hostile, facts));
    assert.match(text, /^evil\/\*\*bold\*\* \[link\]\(https:\/\/evil\.example\) !\[img\]/);
    assert.match(
      text,
      /Status: down \| see admin@evil\.example `code` &lt;script&gt;alert\(1\)&lt;\/script&gt; # heading/,
    );
  });

  it('plainMarkdown keeps ordinary ids readable', () => {
    assert.equal(plainMarkdown('sim-openai/gpt-sim-mini'), 'sim-openai/gpt-sim-mini');
    assert.equal(plainMarkdown('anthropic/sonnet-4.5'), 'anthropic/sonnet-4.5');
  });
});
