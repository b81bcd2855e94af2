// When the provider may abort the stream: each rule with answers arriving in pieces, as they do.
import * as assert from 'node:assert/strict';
import type { CompletionPrompt } from '../../src/core/completions/completionInput';
import { completionIsComplete } from '../../src/core/completions/completionStop';
import { MAX_ANSWER_CHARS, MAX_LINE_CHARS } from '../../src/core/completions/completionText';
import { promptAt } from './completionCases';

const LINE = promptAt('export function add(a: number, b: number): number {\n  return |\n}\n');
const BLOCK = promptAt('export function add(a: number, b: number): number {\n  |\n}\n\nexport const zero = 0;\n');
const PYTHON = promptAt('def mean(values):\n    |\n', 'python');

/** Feeds `answer` in 3-character deltas and returns the text seen when it first said complete (undefined: never). */
function stopsAt(answer: string, prompt: CompletionPrompt): string | undefined {
  for (let end = 3; end < answer.length + 3; end += 3) {
    const soFar = answer.slice(0, Math.min(end, answer.length));
    if (completionIsComplete(soFar, prompt)) return soFar;
  }
  return undefined;
}

describe('completionIsComplete: stop paying once the answer is complete', () => {
  it('a line is complete at the newline after its content, not before', () => {
    assert.equal(completionIsComplete('a + b', LINE), false);
    assert.equal(completionIsComplete('a + b;\n', LINE), true);
    assert.equal(
      stopsAt('a + b;\n}\n\nexport function sub() {\n', LINE),
      'a + b;\n}\n',
      'at the delta that brought the newline',
    );
  });

  it('a line does not count an opening fence or a leading sentence as its content', () => {
    assert.equal(completionIsComplete('Here is the completion:\n', LINE), false);
    assert.equal(completionIsComplete('Here is the completion:\n\n```ts\n', LINE), false);
    assert.equal(completionIsComplete('Here is the completion:\n\n```ts\na + b;', LINE), false);
    assert.equal(completionIsComplete('Here is the completion:\n\n```ts\na + b;\n', LINE), true);
  });

  it('a block is complete when its block closes, even before the closing line ends', () => {
    const answer = 'if (a > b) {\n    return a - b;\n  }\n  return a + b;\n}\n\nexport function sub() {}\n';
    assert.equal(
      completionIsComplete('if (a > b) {\n    return a - b;\n  }\n  return a + b;\n', BLOCK),
      false,
      'nested blocks are balanced',
    );
    assert.equal(stopsAt(answer, BLOCK), 'if (a > b) {\n    return a - b;\n  }\n  return a + b;\n}\n\n');
    assert.equal(completionIsComplete('return a + b;\n}', BLOCK), true);
  });

  it('a block ignores brackets in strings and comments', () => {
    assert.equal(completionIsComplete('const close = "}"; // } too\n  return a;\n', BLOCK), false);
  });

  it('a block the model starts by typing the prefix again closes at its own closing bracket', () => {
    const answer =
      'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function sub() {\n';
    assert.equal(
      completionIsComplete('export function add(a: number, b: number): number {\n  return a + b;\n', BLOCK),
      false,
    );
    assert.equal(stopsAt(answer, BLOCK), 'export function add(a: number, b: number): number {\n  return a + b;\n}');
  });

  it('a Python block ignores brackets in # comments', () => {
    assert.equal(completionIsComplete('total = 0  # the ) of the call below\n    for v in values:\n', PYTHON), false);
  });

  it('a Python block is complete at a dedent below the cursor', () => {
    assert.equal(
      completionIsComplete('if not values:\n        return 0.0\n    return sum(values) / len(values)\n\n\n', PYTHON),
      false,
    );
    assert.equal(
      completionIsComplete('if not values:\n        return 0.0\n    return sum(values) / len(values)\n\n\nd', PYTHON),
      true,
    );
  });

  it('any answer is complete once a closing fence arrives', () => {
    assert.equal(completionIsComplete('```ts\nconst sum = a + b;\nreturn sum;\n', BLOCK), false);
    assert.equal(completionIsComplete('```ts\nconst sum = a + b;\nreturn sum;\n```\n', BLOCK), true);
  });

  it('a block is complete once it repeats the code after the cursor', () => {
    const prompt = promptAt('function total(items) {\n  |\n  return result;\n}\n');
    assert.equal(completionIsComplete('const result = items.reduce((a, b) => a + b, 0);\n', prompt), false);
    assert.equal(
      completionIsComplete('const result = items.reduce((a, b) => a + b, 0);\n  return result;\n', prompt),
      true,
    );
  });

  it('is complete past the answer cap or at a line too long to be code', () => {
    assert.equal(completionIsComplete('x();\n'.repeat(Math.ceil(MAX_ANSWER_CHARS / 5)), BLOCK), true);
    assert.equal(completionIsComplete('x'.repeat(MAX_LINE_CHARS + 1), BLOCK), true);
  });

  it('reads a stream in pieces as it reads it whole, and starts again for another stream on the same prompt', () => {
    const answer = '```ts\nconst sum = a + b;\nif (sum > 10) {\n    return 10;\n  }\n  return sum;\n}\n';
    const prompt = promptAt('export function add(a: number, b: number): number {\n  |\n}\n');
    assert.equal(
      stopsAt(answer, prompt),
      '```ts\nconst sum = a + b;\nif (sum > 10) {\n    return 10;\n  }\n  return sum;\n}',
    );
    assert.equal(completionIsComplete('const x = 1;\n', prompt), false, 'a new stream is not the old one continued');
    assert.equal(completionIsComplete('const x = 1;\n}', prompt), true);
  });

  it('at top level the answer is complete once its first block closes, or at a line after a blank line (Python)', () => {
    const two =
      'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n';
    assert.equal(
      completionIsComplete(
        'export function add(a: number, b: number): number {\n  return a + b;\n',
        promptAt('// Adds two numbers.\n|\n'),
      ),
      false,
    );
    assert.equal(
      completionIsComplete(
        'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
        promptAt('// Adds two numbers.\n|\n'),
      ),
      true,
      'complete at the closing line',
    );
    assert.ok(
      (stopsAt(two, promptAt('// Adds two numbers.\n|\n'))?.length ?? Infinity) <=
        'export function add(a: number, b: number): number {\n  return a + b;\n}\n\ne'.length,
    );
    const python = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n';
    const pythonPrompt = promptAt('# Adds two numbers.\n|\n', 'python');
    assert.equal(
      completionIsComplete('def add(a, b):\n    x = a\n\n    return x + b\n\n\n', pythonPrompt),
      false,
      'a blank line inside the body ends nothing',
    );
    assert.equal(completionIsComplete('def add(a, b):\n    x = a\n\n    return x + b\n\n\nd', pythonPrompt), true);
    assert.ok(
      stopsAt(python, promptAt('# Adds two numbers.\n|\n', 'python'))?.startsWith(
        'def add(a, b):\n    return a + b\n\n\nd',
      ),
    );
    assert.equal(
      completionIsComplete('if (a > b) {\n    return a - b;\n  }\n', BLOCK),
      false,
      'inside a block, an inner block closing ends nothing',
    );
  });
});
