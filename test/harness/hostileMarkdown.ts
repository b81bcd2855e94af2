// Model output written to freeze or break a markdown renderer: nesting that makes a recursive
// parser overflow its stack, text that makes marked's inline lexer quadratic (or worse), and blocks
// so large that rendering them again on every streamed frame would cost O(reply) per frame. One
// list for the unit tests (jsdom), the XSS/robustness corpus (Chromium) and the chat benchmark, at
// a size each can afford (`scale`: 1 is the benchmark's, up to 1 MB).

export interface HostileInput {
  readonly name: string;
  readonly markdown: string;
  /** Characters streamed per frame: 33 (500 tokens/s at 60 fps), more for the 1 MB inputs. */
  readonly perFrame: number;
  /** Markup in `markdown` whose words are not shown as text (tags, definitions, a fence's info string). */
  readonly markup?: RegExp;
}

const upTo = (size: number, unit: (index: number) => string): string => {
  let text = '';
  for (let index = 0; text.length < size; index++) text += unit(index);
  return text;
};

/**
 * The inputs. `scale` shrinks the largest ones (the 1 MB inputs, and the long tables, lists and
 * runs of headings or definitions) for jsdom; nesting and the 100 KB runs keep their size, which
 * is what they are about. `atMost` caps every input that is about size (not the nesting ones) at
 * that many characters: the unit tests take them just past the budgets they check, the benchmark
 * at full size.
 */
export function hostileInputs(scale = 1, atMost = Infinity): HostileInput[] {
  const size = (bytes: number): number => Math.min(atMost, bytes > 100_000 ? Math.round(bytes * scale) : bytes);
  const count = (items: number): number => (items > 2_000 ? Math.round(items * scale) : items);
  /** Up to `items` lines, stopping once the text holds `cap` characters. */
  const lines = (items: number, line: (index: number) => string, cap = atMost): string => {
    const out: string[] = [];
    let length = 0;
    for (let index = 0; index < items && length < cap; index++) {
      const next = line(index);
      out.push(next);
      length += next.length + 1;
    }
    return out.join('\n');
  };
  return [
    { name: 'nested blockquotes (4,000 deep)', markdown: `${'> '.repeat(4000)}deepest quote`, perFrame: 33 },
    {
      name: 'blockquote nesting growing line by line',
      markdown: lines(count(300), (i) => `${'>'.repeat(i + 1)} quote${i}`, Infinity),
      perFrame: 33,
    },
    {
      name: 'nested lists (deeper each line)',
      markdown: lines(count(300), (i) => `${'  '.repeat(i)}- item${i}`, Infinity),
      perFrame: 33,
    },
    { name: 'list markers on one line', markdown: `${'- '.repeat(3000)}innermost`, perFrame: 33 },
    {
      name: 'nested divs',
      markdown: `${'<div>'.repeat(5000)}inside${'</div>'.repeat(5000)}`,
      perFrame: 33,
      markup: /<\/?div>/g,
    },
    { name: 'nested emphasis', markdown: `${'*'.repeat(5000)}middle${'*'.repeat(5000)}`, perFrame: 33 },
    { name: 'endless emphasis runs', markdown: upTo(size(100_000), (i) => `*a${i} **b ***c `), perFrame: 33 },
    {
      name: 'emphasis runs over lines',
      markdown: upTo(size(100_000), (i) => (i % 6 === 5 ? `*a${i} **b\n` : `*a${i} **b ***c `)),
      perFrame: 33,
    },
    { name: 'delimiter soup', markdown: upTo(size(100_000), (i) => `**b${i % 10} |`), perFrame: 33 },
    { name: 'snake_case run', markdown: upTo(size(100_000), () => 'a_b_'), perFrame: 33 },
    { name: 'open brackets', markdown: `${'['.repeat(60_000)}bracketed`, perFrame: 33 },
    { name: 'brackets and parentheses', markdown: upTo(size(90_000), (i) => `](( ${i % 10}`), perFrame: 33 },
    { name: 'backtick runs', markdown: upTo(size(60_000), (i) => `${'`'.repeat(1 + (i % 5))}t${i} `), perFrame: 33 },
    {
      name: 'table of 10,000 rows',
      markdown: `| n | name |\n|---|---|\n${lines(count(10_000), (i) => `| ${i} | row${i} |`)}\n`,
      perFrame: 33,
    },
    { name: 'long list', markdown: lines(count(8_000), (i) => `- entry${i} with **bold**`), perFrame: 33 },
    { name: 'headings without blank lines', markdown: lines(count(20_000), (i) => `# heading${i}`), perFrame: 33 },
    {
      name: 'many reference definitions',
      markdown: `${lines(count(2_000), (i) => `See [r${i}] and [r${i + 1}].`, atMost / 2)}\n\n${lines(count(20_000), (i) => `[r${i}]: https://example.com/${i}`, atMost / 2)}\n`,
      perFrame: 33,
      markup: /^\[r\d+\]: \S+$/gm,
    },
    { name: 'one 1 MB line', markdown: upTo(size(1_000_000), (i) => `word${i} **bold** \`code\` `), perFrame: 1_000 },
    {
      name: 'huge code fence',
      markdown: `\`\`\`ts\n${upTo(size(1_000_000), (i) => `export const value${i} = { id: ${i}, name: "n${i}" };\n`)}\`\`\`\n\nafter`,
      perFrame: 1_000,
      markup: /^```ts$/m,
    },
    {
      name: 'code fence of one 1 MB line',
      markdown: `\`\`\`\n${upTo(size(1_000_000), (i) => `x${i}`)}\n\`\`\`\n`,
      perFrame: 1_000,
    },
  ];
}

/** The words (letters and digits) of `text`, in order: what a reader of the rendered reply must find. */
export function wordsOf(text: string): string[] {
  return text.match(/[A-Za-z0-9]+/g) ?? [];
}

/**
 * The words a rendering of `input` must show, in order: every word of its source that is not
 * markup. (A plain-text fallback shows the markup's words too, so check for a subsequence.)
 */
export function shownWords(input: HostileInput): string[] {
  return wordsOf(input.markup ? input.markdown.replace(input.markup, ' ') : input.markdown);
}

/** Whether `words` appear in `shown` in the same order (others may come between). */
export function inOrder(
  words: readonly string[],
  shown: readonly string[],
): { ok: boolean; missing?: string; at?: number } {
  let next = 0;
  for (const word of shown) if (word === words[next]) next++;
  return next === words.length ? { ok: true } : { ok: false, missing: words[next], at: next };
}
