// The hole prompt: its documented format (which the local gateway parses), a marker that cannot
// be confused with the file's text, the budget cut (prefix end and suffix start kept, whole lines
// of snippets with what is left), and max_tokens by shape.
import * as assert from 'node:assert/strict';
import type { CompletionInput } from '../../src/core/completions/completionInput';
import { BLOCK_MAX_TOKENS, LINE_MAX_TOKENS, buildCompletionPrompt } from '../../src/core/completions/completionPrompt';
import { estimateTextTokens } from '../../src/core/context/tokenEstimate';
import { parseHolePrompt } from '../gateway/completionModel';

const BUDGET = { contextTokens: 16000, maxInputTokens: 3000 };

function input(over: Partial<CompletionInput>): CompletionInput {
  return {
    languageId: 'typescript',
    path: 'src/math.ts',
    prefix: 'export function add(a: number, b: number): number {\n  return ',
    suffix: ';\n}\n',
    imports: '',
    snippets: [],
    ...over,
  };
}

describe('buildCompletionPrompt: a hole for chat models', () => {
  it('says to answer only the code for the marker, and carries path, language, prefix, marker, suffix in the documented format', () => {
    const prompt = buildCompletionPrompt(input({}), BUDGET);
    assert.match(prompt.system, /ONLY the code that replaces <\|FILL_HERE\|>/);
    assert.match(prompt.system, /No markdown fences, no explanation/);
    assert.match(prompt.system, /do not repeat the code before or after/);
    assert.equal(
      prompt.user,
      'Path: src/math.ts\nLanguage: typescript\nHole marker: <|FILL_HERE|>\n\n<|FILE_START|>\nexport function add(a: number, b: number): number {\n  return <|FILL_HERE|>;\n}\n\n<|FILE_END|>',
    );
    assert.equal(prompt.marker, '<|FILL_HERE|>');
    assert.equal(prompt.languageId, 'typescript');
    assert.deepEqual(parseHolePrompt(prompt.user), {
      language: 'typescript',
      prefix: prompt.sentPrefix,
      suffix: prompt.sentSuffix,
    });
  });

  it('asks for few tokens on a line and more on a block', () => {
    assert.equal(buildCompletionPrompt(input({}), BUDGET).maxTokens, LINE_MAX_TOKENS);
    const block = buildCompletionPrompt(
      input({ prefix: 'def mean(values):\n    ', suffix: '\n', languageId: 'python' }),
      BUDGET,
    );
    assert.equal(block.shape, 'block');
    assert.equal(block.maxTokens, BLOCK_MAX_TOKENS);
    assert.match(block.system, /stop where the block/);
  });

  it('picks another marker when the file already contains it, so the hole is unambiguous', () => {
    const prompt = buildCompletionPrompt(
      input({ prefix: 'const tokens = ["<|FILL_HERE|>", "<|FILE_END_1|>"];\nconst x = ' }),
      BUDGET,
    );
    assert.equal(prompt.marker, '<|FILL_HERE_2|>');
    assert.equal(prompt.user.split('<|FILL_HERE_2|>').length, 3, 'the marker line and the hole');
    assert.equal(prompt.user.split('<|FILE_START_2|>').length, 2);
    assert.equal(prompt.user.split('<|FILE_END_2|>').length, 2);
    assert.deepEqual(parseHolePrompt(prompt.user), {
      language: 'typescript',
      prefix: prompt.sentPrefix,
      suffix: prompt.sentSuffix,
    });
  });

  it('finds a free marker in one pass, also when the file holds thousands of them', () => {
    const markers = Array.from({ length: 1500 }, (_, n) => `"<|FILL_HERE${n === 0 ? '' : `_${n}`}|>",`).join('\n');
    const prompt = buildCompletionPrompt(input({ prefix: `const all = [\n${markers}\n];\nconst x = ` }), {
      contextTokens: 200_000,
      maxInputTokens: 100_000,
    });
    assert.ok(prompt.sentPrefix.includes('<|FILL_HERE_1499|>'), 'the whole list was sent');
    assert.equal(prompt.marker, '<|FILL_HERE_1500|>');
    assert.equal(prompt.user.split(prompt.marker).length, 3, 'the marker line and the hole');
    assert.deepEqual(parseHolePrompt(prompt.user), {
      language: 'typescript',
      prefix: prompt.sentPrefix,
      suffix: prompt.sentSuffix,
    });
  });

  it('cuts a long file to the budget, keeping the end of the prefix and the start of the suffix in whole lines, the prefix getting most', () => {
    const lines = (n: number, tag: string): string =>
      Array.from({ length: n }, (_, i) => `const ${tag}${i} = ${i};\n`).join('');
    const prefix = `${lines(2000, 'before')}const last = `;
    const prompt = buildCompletionPrompt(input({ prefix, suffix: `;\n${lines(2000, 'after')}` }), BUDGET);
    for (const maxInputTokens of [2000, 2001, 2002, 3001]) {
      const cut = buildCompletionPrompt(input({ prefix, suffix: `;\n${lines(2000, 'after')}` }), {
        ...BUDGET,
        maxInputTokens,
      });
      assert.equal(
        prefix.charAt(prefix.length - cut.sentPrefix.length - 1),
        '\n',
        `the prefix sent starts at a line start (${maxInputTokens})`,
      );
    }
    assert.ok(prompt.sentPrefix.endsWith('const before1999 = 1999;\nconst last = '));
    assert.ok(prompt.sentPrefix.startsWith('const before'), 'starts at a line start');
    assert.ok(prompt.sentSuffix.startsWith(';\nconst after0 = 0;\n'));
    assert.ok(prompt.sentSuffix.endsWith(';\n'), 'ends at a line end');
    assert.ok(prompt.sentPrefix.length > 2.5 * prompt.sentSuffix.length, 'the prefix gets most');
    assert.ok(estimateTextTokens(prompt.system + prompt.user) <= BUDGET.maxInputTokens, 'within the input budget');
    assert.ok(estimateTextTokens(prompt.system + prompt.user) > BUDGET.maxInputTokens * 0.8, 'and uses most of it');
  });

  it('gives the suffix what the prefix does not need, and the other way round', () => {
    const long = Array.from({ length: 3000 }, (_, i) => `x${i}();\n`).join('');
    const nearStart = buildCompletionPrompt(input({ prefix: 'a(', suffix: `);\n${long}` }), BUDGET);
    assert.ok(nearStart.sentSuffix.length > 6000, `suffix ${nearStart.sentSuffix.length}`);
    const nearEnd = buildCompletionPrompt(input({ prefix: `${long}a(`, suffix: ');\n' }), BUDGET);
    assert.ok(nearEnd.sentPrefix.length > 7000, `prefix ${nearEnd.sentPrefix.length}`);
  });

  it('adds neighbouring snippets as comments labelled by path, and imports outside the window, only with the room left', () => {
    const snippets = [
      { path: 'src/vector.ts', text: 'export interface Vector {\n  x: number;\n  y: number;\n}\n' },
      { path: 'src/big.ts', text: 'export const big = 1;\n'.repeat(5000) },
    ];
    const prompt = buildCompletionPrompt(input({ imports: "import { Vector } from './vector';", snippets }), BUDGET);
    assert.ok(
      prompt.user.includes(
        'Other files, for reference only (not part of this file):\n// Path: src/vector.ts\n// export interface Vector {\n//   x: number;\n//   y: number;\n// }\n',
      ),
    );
    assert.ok(
      prompt.user.includes("Imports of this file (above the part shown):\nimport { Vector } from './vector';\n"),
    );
    const big = prompt.user.split('\n').filter((line) => line === '// export const big = 1;').length;
    assert.ok(big > 10 && big < 5000, `whole lines of the big snippet, cut to the room left (${big})`);
    assert.ok(estimateTextTokens(prompt.system + prompt.user) <= BUDGET.maxInputTokens);
    const python = buildCompletionPrompt(
      input({ languageId: 'python', snippets: [{ path: 'util.py', text: 'def f():\n    pass\n' }] }),
      BUDGET,
    );
    assert.ok(python.user.includes('# Path: util.py\n# def f():\n#     pass\n'));
  });

  it('leaves out imports the prefix already shows', () => {
    const prompt = buildCompletionPrompt(
      input({ prefix: "import { a } from './a';\nconst x = ", imports: "import { a } from './a';" }),
      BUDGET,
    );
    assert.ok(!prompt.user.includes('Imports of this file'));
  });

  it('sends no snippets when the file fills the budget, and never more than the context allows', () => {
    const prefix = 'let value = 1;\n'.repeat(10_000);
    const prompt = buildCompletionPrompt(
      input({ prefix, snippets: [{ path: 'src/b.ts', text: 'export const b = 2;\n' }] }),
      { contextTokens: 1000, maxInputTokens: 3000 },
    );
    assert.ok(estimateTextTokens(prompt.system + prompt.user) + prompt.maxTokens <= 1000);
    assert.ok(!prompt.user.includes('src/b.ts') || estimateTextTokens(prompt.user) < 1000);
  });
});
