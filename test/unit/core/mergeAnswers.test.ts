// The shapes real models give to Apply's merge request ("the complete updated file in one fence"):
// the code is taken from them, and an answer that is not the file is refused with what it was.
import * as assert from 'node:assert/strict';
import { codeFromAnswer, fenceFor } from '../../../src/core/apply/mergeAnswer';
import { mergedFileFromAnswer, type AnswerShape, type MergedFile } from '../../../src/core/apply/mergedFile';

/** A TypeScript file of `count` small functions (about 4 lines each). */
function source(count: number): string {
  return Array.from(
    { length: count },
    (_, i) => `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`,
  ).join('\n');
}

const FILE = source(5);
const BLOCK = '// ... existing code ...\nexport function f2(a: number): number {\n  return a * 2;\n}\n';
const MERGED = FILE.replace('  return a + 2;', '  return a * 2;');
const fence = fenceFor(FILE, BLOCK);

function merge(answer: string, current = FILE, block = BLOCK): MergedFile {
  return mergedFileFromAnswer(answer, current, block, fenceFor(current, block));
}

function refused(result: MergedFile): AnswerShape {
  assert.equal(result.ok, false, `refused (got ${JSON.stringify(result)})`);
  return result.shape;
}

describe('apply: the code in the answers real models give', () => {
  it('prose and one fence: the fence', () => {
    const answer = `Here is the updated file:\n\n\`\`\`ts\n${MERGED}\`\`\`\n\nI changed f2 to multiply.\n`;
    assert.equal(codeFromAnswer(answer, fence), MERGED);
    assert.deepEqual(merge(answer), { ok: true, text: MERGED });
  });

  it('a long explanation after the fence is not part of the file', () => {
    const notes = Array.from({ length: 8 }, (_, i) => `- change ${i}`).join('\n');
    const answer = `\`\`\`ts\n${MERGED}\`\`\`\n\nWhat changed:\n${notes}\n`;
    assert.equal(codeFromAnswer(answer, fence), MERGED);
    assert.deepEqual(merge(answer), { ok: true, text: MERGED });
  });

  it('two fences with prose between: never the prose or the fence lines; the fence that is the file wins', () => {
    const test = 'import { f2 } from "./file";\nconsole.log(f2(2));\n';
    const answer = `Here is the change:\n\`\`\`ts\n${MERGED}\`\`\`\nAnd a quick check:\n\`\`\`ts\n${test}\`\`\`\n`;
    assert.equal(codeFromAnswer(answer), MERGED, 'the longest fence, not the span from the first to the last');
    assert.deepEqual(merge(answer), { ok: true, text: MERGED });
    // The file second and shorter than a long unrelated snippet: still the fence that keeps the file.
    const long = Array.from({ length: 40 }, (_, i) => `console.log(${i});`).join('\n');
    const second = `First, a script:\n\`\`\`ts\n${long}\n\`\`\`\nThen the file:\n\`\`\`ts\n${MERGED}\`\`\`\n`;
    assert.deepEqual(merge(second), { ok: true, text: MERGED });
  });

  it('a "before" copy of the file and the "after": the one with the edit', () => {
    const answer = `Before:\n\`\`\`ts\n${FILE}\`\`\`\n\nAfter:\n\`\`\`ts\n${MERGED}\`\`\`\n`;
    assert.deepEqual(merge(answer), { ok: true, text: MERGED });
  });

  it('two snippets with prose between and no file: refused, saying so', () => {
    const answer =
      'Here is the change:\n```ts\nexport function f2(a: number): number {\n  return a * 2;\n}\n```\n' +
      'And also:\n```ts\nexport function f3(a: number): number {\n  return a * 3;\n}\n```\n';
    assert.equal(codeFromAnswer(answer).includes('And also'), false, 'no prose in the code');
    assert.deepEqual(refused(merge(answer)), {
      reason: 'snippets',
      snippets: 2,
      prose: true,
      lines: 3,
      fileLines: FILE.split('\n').length - 1,
    });
  });

  it('prose only, no code at all: refused as prose', () => {
    const answer =
      "I'm sorry, but I can't apply this edit: the function f2 in the edit does not match the file.\nCould you share more context?\n";
    assert.equal(codeFromAnswer(answer), answer);
    assert.equal(refused(merge(answer)).reason, 'prose');
    // Even for a one-line file, where dropping lines proves nothing.
    assert.equal(refused(merge(answer, 'x = 1\n', 'x = 2\n')).reason, 'prose');
    // A bare file without a fence is taken as it is.
    assert.deepEqual(merge(MERGED), { ok: true, text: MERGED });
  });

  it('a fence that is clearly not the file (3 lines for a 200-line file): refused', () => {
    const big = source(50);
    const block = 'export function f7(a: number): number {\n  return a * 7;\n}\n';
    const answer = `Sure:\n\`\`\`ts\n${block}\`\`\`\n`;
    const shape = refused(merge(answer, big, block));
    assert.deepEqual(shape, { reason: 'snippets', snippets: 1, prose: true, lines: 3, fileLines: 199 });
    // The same big file merged is taken.
    const merged = big.replace('  return a + 7;', '  return a * 7;');
    assert.deepEqual(merge(`\`\`\`ts\n${merged}\`\`\`\n`, big, block), { ok: true, text: merged });
  });

  it('a small file whose block rewrites most of it is still a file', () => {
    const small = 'const a = 1;\nconst b = 2;\nconst c = 3;\nexport { a, b, c };\n';
    const block = 'const a = 10;\nconst b = 20;\nconst c = 30;\n';
    const merged = 'const a = 10;\nconst b = 20;\nconst c = 30;\nexport { a, b, c };\n';
    assert.deepEqual(merge(`\`\`\`ts\n${merged}\`\`\``, small, block), { ok: true, text: merged });
  });

  it('a cut answer (the fence never closed): taken when it reached the end of the file, refused when it stopped early', () => {
    const complete = `Here it is:\n\`\`\`ts\n${MERGED}`;
    assert.equal(codeFromAnswer(complete), MERGED);
    assert.deepEqual(merge(complete), { ok: true, text: MERGED });
    const half = MERGED.split('\n').slice(0, 12).join('\n');
    const cut = `\`\`\`ts\n${half}\n`;
    assert.equal(codeFromAnswer(cut), `${half}\n`, 'the code so far');
    const shape = refused(merge(cut));
    assert.equal(shape.reason, 'ended-early');
    assert.equal(shape.lines, 12);
  });

  it('a file with parts left out ("// ... existing code ...") is refused', () => {
    const lazy = `\`\`\`ts\n// ... existing code ...\n${MERGED.split('\n').slice(8).join('\n')}\`\`\`\n`;
    assert.equal(refused(merge(lazy)).reason, 'elided');
  });

  it('a markdown file with fences inside still works when the model used the longer fence it was asked for', () => {
    const readme = '# Tool\n\nInstall:\n\n```sh\nnpm i tool\n```\n\nRun:\n\n```sh\ntool --help\n```\n\nMIT.\n';
    const block = 'Run:\n\n```sh\ntool --help\ntool --version\n```\n';
    const merged = readme.replace('tool --help\n', 'tool --help\ntool --version\n');
    const asked = fenceFor(readme, block);
    assert.equal(asked, '````');
    const answer = `Here is the updated README:\n\n${asked}markdown\n${merged}${asked}\n\nAlso, consider:\n\`\`\`sh\nnpm test\n\`\`\`\n`;
    assert.equal(codeFromAnswer(answer, asked), merged);
    assert.deepEqual(merge(answer, readme, block), { ok: true, text: merged });
    // Wrapped in a plain fence anyway: the span from the first opener to the last closing line,
    // with a long explanation around it too.
    assert.deepEqual(merge(`\`\`\`markdown\n${merged}\`\`\`\n`, readme, block), { ok: true, text: merged });
    const notes = Array.from({ length: 7 }, (_, i) => `- note ${i}`).join('\n');
    assert.deepEqual(merge(`Updated:\n\`\`\`markdown\n${merged}\`\`\`\n${notes}\n`, readme, block), {
      ok: true,
      text: merged,
    });
  });

  it('fence lines of the answer never end up in the file', () => {
    // Two fences with the file's halves: neither half is the file, and the span would carry the fences.
    const lines = MERGED.split('\n');
    const answer = `\`\`\`ts\n${lines.slice(0, 10).join('\n')}\n\`\`\`\n\n\`\`\`ts\n${lines.slice(10).join('\n')}\`\`\`\n`;
    const shape = refused(merge(answer));
    assert.equal(shape.reason, 'snippets');
    assert.equal(shape.snippets, 2);
  });
});
