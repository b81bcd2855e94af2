// From what real models answer to what the editor inserts: each rule with an answer shaped the
// way models shape them, and "nothing rather than something wrong" for answers that cannot be
// trusted.
import * as assert from 'node:assert/strict';
import { hasInvisibleCharacter, MAX_ANSWER_CHARS, insertionFrom } from '../../src/core/completions/completionText';
import { visibleControls } from '../../src/shared/visibleControls';
import { promptAt } from './completionCases';

const ADD_LINE = 'export function add(a: number, b: number): number {\n  return |\n}\n';
const ADD_BLOCK = 'export function add(a: number, b: number): number {\n  |\n}\n\nexport const zero = 0;\n';

describe('insertionFrom: what a model answered, made an insertion', () => {
  it('answers the plain answer as it is', () => {
    assert.equal(insertionFrom('a + b;', promptAt(ADD_LINE)), 'a + b;');
  });

  it('strips a markdown fence with a language, and the text outside it', () => {
    assert.equal(insertionFrom('```typescript\na + b;\n```', promptAt(ADD_LINE)), 'a + b;');
    assert.equal(
      insertionFrom(
        'Sure! Here you go:\n\n```ts\nreturn a + b;\n```\n\nThis returns the sum of both numbers.',
        promptAt(ADD_BLOCK),
      ),
      'return a + b;',
    );
  });

  it('strips a fence without a language, also when it never closes (a cut stream)', () => {
    assert.equal(insertionFrom('```\na + b;\n```\n', promptAt(ADD_LINE)), 'a + b;');
    assert.equal(
      insertionFrom('```\nconst sum = a + b;\n  return sum;', promptAt(ADD_BLOCK)),
      'const sum = a + b;\n  return sum;',
    );
  });

  it('strips a leading explanation sentence', () => {
    assert.equal(insertionFrom('Here is the completion:\na + b;', promptAt(ADD_LINE)), 'a + b;');
    assert.equal(insertionFrom('The missing code is:\n\nreturn a + b;', promptAt(ADD_BLOCK)), 'return a + b;');
    assert.equal(insertionFrom('**Completion:**\na + b;', promptAt(ADD_LINE)), 'a + b;');
  });

  it('strips a trailing explanation after the code of a block', () => {
    assert.equal(
      insertionFrom(
        'const sum = a + b;\n  return sum;\n\nThis code adds the two numbers and returns the result.',
        promptAt(ADD_BLOCK),
      ),
      'const sum = a + b;\n  return sum;',
    );
  });

  it('removes the current line when the model typed it again (with or without its indentation)', () => {
    const prompt = promptAt('const items = [1, 2, 3];\nconst total = items.|\n');
    assert.equal(
      insertionFrom('const total = items.reduce((sum, n) => sum + n, 0);', prompt),
      'reduce((sum, n) => sum + n, 0);',
    );
    const indented = promptAt('function f() {\n    const total = items.|\n}\n');
    assert.equal(insertionFrom('const total = items.length;', indented), 'length;');
    assert.equal(insertionFrom('    const total = items.length;', indented), 'length;');
  });

  it('removes the last lines of the prefix when the model started the block again', () => {
    assert.equal(
      insertionFrom('export function add(a: number, b: number): number {\n  return a + b;\n}', promptAt(ADD_BLOCK)),
      'return a + b;',
    );
    assert.equal(
      insertionFrom(
        '```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```',
        promptAt(ADD_BLOCK),
      ),
      'return a + b;',
    );
  });

  it('does not indent again at a cursor that is already indented', () => {
    assert.equal(
      insertionFrom('  const sum = a + b;\n  return sum;', promptAt(ADD_BLOCK)),
      'const sum = a + b;\n  return sum;',
    );
  });

  it("adds the cursor's indentation to block lines the model wrote without it", () => {
    assert.equal(
      insertionFrom('const sum = a + b;\nif (sum > 10) {\n  return 10;\n}\nreturn sum;', promptAt(ADD_BLOCK)),
      'const sum = a + b;\n  if (sum > 10) {\n    return 10;\n  }\n  return sum;',
    );
  });

  it('cuts the end of the answer that repeats the text after the cursor', () => {
    assert.equal(insertionFrom("'hello');", promptAt('console.log(|);\n')), "'hello'");
    assert.equal(
      insertionFrom('user.isAdmin && ready) {', promptAt('if (| && ready) {\n  go();\n}\n')),
      'user.isAdmin',
    );
    assert.equal(insertionFrom('a + b;', promptAt('const sum = |;\n')), 'a + b');
  });

  it('keeps a closing bracket that belongs to the answer even when the suffix starts with one', () => {
    assert.equal(insertionFrom('compute()', promptAt('console.log(|)\n')), 'compute()');
    assert.equal(insertionFrom('"done"', promptAt('print(|)\n', 'python')), '"done"');
  });

  it('keeps a short overlap of words that may be a coincidence', () => {
    assert.equal(insertionFrom('a + b', promptAt('const x = | + c;\n')), 'a + b');
  });

  it('removes an echoed hole marker', () => {
    const prompt = promptAt(ADD_LINE);
    assert.equal(insertionFrom(`a + b;${prompt.marker}`, prompt), 'a + b;');
    assert.equal(insertionFrom('<|FILL_HERE|>a + b;', prompt), 'a + b;');
  });

  it('keeps only the first line for a line', () => {
    assert.equal(
      insertionFrom(
        'a + b;\n}\n\nexport function sub(a: number, b: number): number {\n  return a - b;\n}',
        promptAt(ADD_LINE),
      ),
      'a + b;',
    );
  });

  it('keeps a next-line suggestion at the end of a finished line, not in the middle of one', () => {
    assert.equal(insertionFrom('\n  second();', promptAt('function f() {\n  first();|\n}\n')), '\n  second();');
    assert.equal(insertionFrom('\n  second();', promptAt('function f() {\n  first(|);\n}\n')), undefined);
  });

  it('ends a block where the block the cursor is in closes, leaving a closer the suffix already has', () => {
    const answer = 'if (a > b) {\n    return a - b;\n  }\n  return a + b;\n}\n\nexport function sub() {}';
    assert.equal(insertionFrom(answer, promptAt(ADD_BLOCK)), 'if (a > b) {\n    return a - b;\n  }\n  return a + b;');
  });

  it('brings the closing line when the suffix does not close the block', () => {
    const prompt = promptAt('export function add(a: number, b: number): number {\n  |\n\nexport const zero = 0;\n');
    assert.equal(insertionFrom('return a + b;\n}\n\nexport function sub() {}', prompt), 'return a + b;\n}');
  });

  it('does not count brackets in strings and comments', () => {
    assert.equal(
      insertionFrom('const open = "}"; // a } here\n  return a + b;\n}', promptAt(ADD_BLOCK)),
      'const open = "}"; // a } here\n  return a + b;',
    );
  });

  it('ends a Python block at the first line indented less than the cursor', () => {
    const prompt = promptAt('def mean(values):\n    |\n\n\ndef median(values):\n    pass\n', 'python');
    assert.equal(
      insertionFrom(
        'if not values:\n        return 0.0\n    return sum(values) / len(values)\n\n\ndef median(values):\n    return sorted(values)[len(values) // 2]\n',
        prompt,
      ),
      'if not values:\n        return 0.0\n    return sum(values) / len(values)',
    );
  });

  it('ends a block where the answer starts repeating the code after the cursor', () => {
    const prompt = promptAt('function total(items) {\n  |\n  return result;\n}\n');
    assert.equal(
      insertionFrom('const result = items.reduce((a, b) => a + b, 0);\n  return result;\n}', prompt),
      'const result = items.reduce((a, b) => a + b, 0);',
    );
  });

  it('ends a block at the repeated line even when the answer then goes another way', () => {
    const prompt = promptAt('function total(a) {\n  |\n  const b = 2;\n  return a + b;\n}\n');
    assert.equal(
      insertionFrom('const a2 = a * 2;\n  const b = 2;\n  console.log(a2, b);\n  return a2 + b;\n}', prompt),
      'const a2 = a * 2;',
    );
  });

  it('ends a Python block at a dedent also when nothing follows the cursor in the file', () => {
    const prompt = promptAt('def mean(values):\n    |\n', 'python');
    assert.equal(
      insertionFrom(
        'return sum(values) / len(values)\n\n\ndef median(values):\n    return sorted(values)[len(values) // 2]\n',
        prompt,
      ),
      'return sum(values) / len(values)',
    );
  });

  it('at top level (after a comment, a docblock, an Allman brace, in Python) shows one function, not every one the model wrote', () => {
    const two =
      'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function sub(a: number, b: number): number {\n  return a - b;\n}';
    const one = 'export function add(a: number, b: number): number {\n  return a + b;\n}';
    assert.equal(promptAt('// Adds two numbers.\n|\n').shape, 'block');
    assert.equal(insertionFrom(two, promptAt('// Adds two numbers.\n|\n')), one);
    assert.equal(insertionFrom(two, promptAt('/**\n * Adds two numbers.\n */\n|')), one);
    assert.equal(
      insertionFrom(
        'function add(a, b)\n{\n  return a + b;\n}\nfunction sub(a, b)\n{\n  return a - b;\n}',
        promptAt('// Adds.\n|\n'),
      ),
      'function add(a, b)\n{\n  return a + b;\n}',
    );
    assert.equal(
      insertionFrom(
        'def add(a, b):\n    x = a\n\n    return x + b\n\n\ndef sub(a, b):\n    return a - b\n',
        promptAt('# Adds two numbers.\n|\n', 'python'),
      ),
      'def add(a, b):\n    x = a\n\n    return x + b',
      'a blank line inside the body does not end it',
    );
    assert.equal(
      insertionFrom('const x = {\n  a: 1,\n};\nconst y = 2;', promptAt('// The table.\n|\n')),
      'const x = {\n  a: 1,\n};',
    );
  });

  it('shows nothing for a refusal or a hedge, in either shape', () => {
    for (const refusal of [
      "I'm sorry, but I can't help with that.",
      'I cannot complete this code without more context.',
      'Unfortunately there is not enough context here',
      'It looks like the function is already complete.',
      'As an AI language model, I cannot see the rest of the file.',
      'Sorry, I need more context.',
    ]) {
      assert.equal(insertionFrom(refusal, promptAt(ADD_LINE)), undefined, refusal);
      assert.equal(insertionFrom(refusal, promptAt(ADD_BLOCK)), undefined, refusal);
    }
  });

  it('strips an inline fence or a backtick pair around a one-line answer (a backtick pair stays where backticks are code)', () => {
    assert.equal(insertionFrom('```a + b;```', promptAt(ADD_LINE)), 'a + b;');
    assert.equal(insertionFrom('`a + b;`', promptAt(ADD_LINE, 'python')), 'a + b;');
    assert.equal(insertionFrom('`hello ${a}`;', promptAt('const s = |\n')), '`hello ${a}`;');
    assert.equal(insertionFrom('`a + b`', promptAt(ADD_LINE)), '`a + b`', 'a template literal in TypeScript');
  });

  it('shows nothing for an empty, blank or explanation-only answer', () => {
    assert.equal(insertionFrom('', promptAt(ADD_LINE)), undefined);
    assert.equal(insertionFrom('  \n\n ', promptAt(ADD_LINE)), undefined);
    assert.equal(insertionFrom('```ts\n```', promptAt(ADD_LINE)), undefined);
    assert.equal(insertionFrom('Here is the completion:', promptAt(ADD_LINE)), undefined);
    assert.equal(insertionFrom(');', promptAt('console.log(x|);\n')), undefined);
  });

  it('shows nothing for garbage: control characters, replacement characters, an extremely long line', () => {
    assert.equal(insertionFrom('a + b;\u0000\u0001', promptAt(ADD_LINE)), undefined);
    assert.equal(insertionFrom('a \u001b[31m+ b;', promptAt(ADD_LINE)), undefined);
    assert.equal(insertionFrom('a + \ufffd\ufffd;', promptAt(ADD_LINE)), undefined);
    assert.equal(insertionFrom(`${'x'.repeat(2000)};`, promptAt(ADD_LINE)), undefined);
  });

  it('shows nothing for invisible characters: bidi overrides and isolates, zero-width, C1 controls, tags, separators, soft hyphen', () => {
    const invisible = [
      '\u202a',
      '\u202e',
      '\u2066',
      '\u2069',
      '\u200b',
      '\u200f',
      '\u2060',
      '\ufeff',
      '\u0080',
      '\u009f',
      '\u{e0001}',
      '\u{e007f}',
      '\u2028',
      '\u2029',
      '\u061c',
      '\u00ad',
    ];
    for (const char of invisible) {
      assert.equal(
        insertionFrom(`a + b;${char} // x`, promptAt(ADD_LINE)),
        undefined,
        `U+${char.codePointAt(0)!.toString(16)}`,
      );
      assert.equal(
        insertionFrom(`return a${char} + b;\nconst c = 1;`, promptAt(ADD_BLOCK)),
        undefined,
        `U+${char.codePointAt(0)!.toString(16)} in a block`,
      );
    }
    assert.equal(
      insertionFrom("return a + b;\n\tconst c = 'é 日本 😀';", promptAt(ADD_BLOCK)),
      "return a + b;\n\tconst c = 'é 日本 😀';",
      'tabs, accents, CJK and emoji are text',
    );
  });

  it("the invisible set is the approval card's (src/shared/visibleControls.ts), code point for code point (tab and line feed are code; U+FFFD is not text)", () => {
    const drift: string[] = [];
    for (let code = 0; code <= 0x10ffff && drift.length < 10; code++) {
      const char = String.fromCodePoint(code);
      const shared =
        code !== 0x09 && code !== 0x0a && visibleControls(char).some((segment) => segment.kind === 'control');
      if (hasInvisibleCharacter(char) !== (shared || code === 0xfffd)) drift.push(`U+${code.toString(16)}`);
    }
    assert.deepEqual(drift, []);
  });

  it('reads at most the first 16 KB of a 1 MB answer', () => {
    const huge = `return [\n${'    1,\n'.repeat(150_000)}];`;
    assert.ok(huge.length > 1_000_000);
    const insertion = insertionFrom(huge, promptAt(ADD_BLOCK));
    assert.ok(insertion !== undefined && insertion.length <= MAX_ANSWER_CHARS, `bounded: ${insertion?.length}`);
    assert.equal(insertionFrom(`a + b;\n${'z'.repeat(1_000_000)}`, promptAt(ADD_LINE)), 'a + b;');
    assert.equal(insertionFrom('y'.repeat(1_000_000), promptAt(ADD_LINE)), undefined);
  });
});
