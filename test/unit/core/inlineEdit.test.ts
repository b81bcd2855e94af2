// The pure parts of inline edit: the prompt (bounded context, refinement), the replacement out of
// real answers (fences, prose, line endings), the streamed lines, the instruction history (bounded,
// no secrets) and how a review's changes are drawn as decorations.
import * as assert from 'node:assert/strict';
import { computeHunks } from '../../../src/core/apply/lineHunks';
import { inlineChangeViews, JOINED_LINES, MAX_GHOST_CHARS } from '../../../src/core/inlineEdit/inlineDiffLines';
import {
  inlineEditPrompt,
  replacementFromAnswer,
  surroundingCode,
} from '../../../src/core/inlineEdit/inlineEditPrompt';
import { StreamedReplacement, streamedReplacement } from '../../../src/core/inlineEdit/streamedReplacement';
import { codeFromAnswer } from '../../../src/core/apply/mergeAnswer';
import { followLineScope, hunksInScope, withScopeReplaced } from '../../../src/core/inlineEdit/lineScope';
import { splitLines } from '../../../src/core/edits/lineEndings';
import {
  MAX_REMEMBERED_INSTRUCTIONS,
  parseHistory,
  rememberInstruction,
} from '../../../src/core/inlineEdit/instructionHistory';

describe('inline edit (pure)', () => {
  describe('surroundingCode', () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i}\n`).join('');
    it('keeps whole lines within the budget on each side', () => {
      const start = text.indexOf('line 100');
      const end = text.indexOf('line 101');
      const { before, after } = surroundingCode(text, start, end, 50);
      assert.ok(before.length <= 50 && after.length <= 50);
      assert.ok(before.startsWith('line ') && before.endsWith('line 99\n'), before);
      assert.ok(after.startsWith('line 101\n') && after.endsWith('\n'), after);
    });
    it('gives the whole file when it fits', () => {
      const { before, after } = surroundingCode('a\nb\nc\n', 2, 4, 1000);
      assert.equal(before, 'a\n');
      assert.equal(after, 'c\n');
    });
  });

  describe('inlineEditPrompt', () => {
    it('names the file and language, fences every part, and asks for the replacement only', () => {
      const prompt = inlineEditPrompt({
        path: 'src/a.ts',
        language: 'typescript',
        before: 'const x = 1;\n',
        selection: 'const y = 2;\n',
        after: '',
        instruction: 'rename y to z',
      });
      assert.match(prompt.user, /^File: src\/a\.ts \(typescript\)/);
      assert.match(prompt.user, /The selection:\n```typescript\nconst y = 2;\n```/);
      assert.match(prompt.user, /Instruction: rename y to z$/);
      assert.match(prompt.system, /replaces the selection and nothing else/);
      assert.doesNotMatch(prompt.user, /previous proposal/);
    });
    it('a refinement carries the earlier instructions and the previous proposal', () => {
      const prompt = inlineEditPrompt({
        path: 'a.py',
        language: 'python',
        before: '',
        selection: 'x = 1\n',
        after: '',
        instruction: 'and add a comment',
        previous: { instructions: ['use y'], proposal: 'y = 1\n' },
      });
      assert.match(prompt.user, /Earlier instructions for this selection: "use y"/);
      assert.match(prompt.user, /previous proposal[^\n]*\n```python\ny = 1\n```/);
      assert.match(prompt.user, /Refine your previous proposal: and add a comment$/);
    });
    it('uses a fence longer than any backtick run in the code', () => {
      const prompt = inlineEditPrompt({
        path: 'a.md',
        language: 'markdown',
        before: '```js\n```\n',
        selection: 'x\n',
        after: '',
        instruction: 'i',
      });
      assert.equal(prompt.fence, '````');
    });
  });

  describe('replacementFromAnswer', () => {
    it('a fenced answer with prose around it gives only the code', () => {
      const answer = 'Sure! Here is the updated code:\n\n```ts\nconst z = 2;\n```\n\nThis renames y to z.';
      assert.equal(replacementFromAnswer(answer, 'const y = 2;\n', '```'), 'const z = 2;\n');
    });
    it("keeps the selection's line endings and its final line break (or its absence)", () => {
      assert.equal(replacementFromAnswer('```\na\nb\n```', 'x\r\ny\r\n'), 'a\r\nb\r\n');
      assert.equal(replacementFromAnswer('```\na\n```', 'x'), 'a');
      assert.equal(replacementFromAnswer('a', 'x\n'), 'a\n');
    });
  });

  describe('streamedReplacement', () => {
    it('waits for the opening fence, then gives whole lines only, and stops at the closing fence', () => {
      assert.equal(streamedReplacement('Here is'), undefined);
      assert.equal(streamedReplacement('Here is:\n```ts\nconst a'), '');
      assert.equal(streamedReplacement('```ts\nconst a = 1;\nconst b'), 'const a = 1;\n');
      assert.equal(streamedReplacement('```ts\nconst a = 1;\n```\nExplained.\n'), 'const a = 1;\n');
    });
    it('does linear work on an answer that comes in small pieces, and gives what the whole answer gives', () => {
      const code = Array.from({ length: 3000 }, (_, i) => `const value${i} = ${i};`).join('\n');
      const answer = `Here it is:\n\n\`\`\`ts\n${code}\n\`\`\`\nDone.\n`;
      const stream = new StreamedReplacement();
      let changes = 0;
      for (let i = 0; i < answer.length; i += 4) if (stream.push(answer.slice(i, i + 4))) changes++;
      assert.equal(stream.current, `${code}\n`);
      assert.equal(stream.current, streamedReplacement(answer));
      assert.equal(changes, 3001, 'one change per code line (and the opening fence)');
      // Each character is looked at a bounded number of times (redoing the answer per piece: ~answer²/8).
      assert.ok(
        stream.scanned <= 3 * answer.length,
        `${stream.scanned} characters scanned for an answer of ${answer.length}`,
      );
    });
    it("writes the lines in the selection's line endings (a CRLF file is not all changed)", () => {
      assert.equal(
        streamedReplacement('```ts\nconst a = 1;\nconst b = 2;\r\nconst', '\r\n'),
        'const a = 1;\r\nconst b = 2;\r\n',
      );
    });
    it("follows the final extraction's fence rules: the fence asked for wins over shorter ones inside the code", () => {
      const answer = '````md\n# Title\n```js\nx();\n```\nEnd.\n````\nSome prose.\n';
      assert.equal(streamedReplacement(answer, '\n', '````'), codeFromAnswer(answer, '````'));
      // An opener's info string never holds a backtick (codeFromAnswer's rule): ```a`b is text, not a fence.
      assert.equal(streamedReplacement('``` a`b\nstill prose\n'), undefined);
    });
  });

  describe('instruction history', () => {
    it('puts the newest first, once, and stays bounded', () => {
      let history: string[] = [];
      for (let i = 0; i < MAX_REMEMBERED_INSTRUCTIONS + 5; i++) history = rememberInstruction(history, `do ${i}`);
      history = rememberInstruction(history, 'do 33');
      assert.equal(history.length, MAX_REMEMBERED_INSTRUCTIONS);
      assert.equal(history[0], 'do 33');
      assert.equal(history.filter((h) => h === 'do 33').length, 1);
    });
    it('never remembers what looks like a credential, but keeps long paths', () => {
      assert.deepEqual(rememberInstruction([], 'use key sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c'), []);
      assert.deepEqual(rememberInstruction([], 'move it to src/extension/inlineEdit/inlineEditSession.ts'), [
        'move it to src/extension/inlineEdit/inlineEditSession.ts',
      ]);
    });
    it('parses whatever globalState held', () => {
      assert.deepEqual(parseHistory(['a', 3, 'a', '', 'b']), ['a', 'b']);
      assert.deepEqual(parseHistory({}), []);
    });
  });

  describe('inlineChangeViews', () => {
    it('marks removed lines and pairs each added line with one, the rest joined on the last', () => {
      const base = 'a\nb\nc\nd\n';
      const proposal = 'a\nB\nX\nY\nd\n';
      const [view] = inlineChangeViews(computeHunks(base, proposal), 5);
      assert.deepEqual(view?.removed, [1, 2]);
      assert.deepEqual(view?.ghosts, [
        { line: 1, text: 'B' },
        { line: 2, text: `X${JOINED_LINES}Y` },
      ]);
      assert.equal(view?.anchor, 1);
    });
    it('a pure insertion shows on the line above; a deletion has no ghost', () => {
      const views = inlineChangeViews(computeHunks('a\nb\nc\n', 'a\nnew\nb\n'), 4);
      assert.deepEqual(views[0], { removed: [], ghosts: [{ line: 0, text: 'new' }], anchor: 0, added: ['new'] });
      assert.deepEqual(views[1], { removed: [2], ghosts: [], anchor: 2, added: [] });
    });
    it('cuts a long added line', () => {
      const [view] = inlineChangeViews(computeHunks('a\n', `${'x'.repeat(1000)}\n`), 2);
      assert.equal(view?.ghosts[0]?.text.length, MAX_GHOST_CHARS);
    });
  });
});

describe('inline edit: followLineScope', () => {
  const base = 'a\nb\nc\nd\ne\n';
  it('moves with lines typed above and stays with lines typed below', () => {
    assert.deepEqual(followLineScope(base, 'new\na\nb\nc\nd\ne\n', { start: 2, end: 4 }), { start: 3, end: 5 });
    assert.deepEqual(followLineScope(base, 'a\nb\nc\nd\ne\nmore\n', { start: 2, end: 4 }), { start: 2, end: 4 });
    assert.deepEqual(followLineScope(base, 'b\nc\nd\ne\n', { start: 2, end: 4 }), { start: 1, end: 3 });
  });
  it("the hunks of a scope diffed alone are the whole document's diff", () => {
    // Distinct lines: with repeated ones both diffs are right but may pair the repeats differently.
    const text = Array.from({ length: 300 }, (_, i) => `line ${i}\n`).join('') + 'last';
    const lines = splitLines(text);
    const cases: Array<[number, number, string]> = [
      [10, 20, 'line 12\nnew\nline 15\n'],
      [0, 5, ''],
      [295, 301, 'line 296\nchanged\nlast'],
      [150, 150, 'inserted\n'],
      [40, 60, lines.slice(40, 60).join('')],
    ];
    for (const [start, end, replacement] of cases) {
      const scope = { start, end };
      assert.deepEqual(
        hunksInScope(lines, scope, replacement),
        computeHunks(text, withScopeReplaced(text, scope, replacement)),
        `${start}-${end}`,
      );
    }
  });
  it('is undefined when the typing touched the scope', () => {
    assert.equal(followLineScope(base, 'a\nb\nC\nd\ne\n', { start: 2, end: 4 }), undefined);
    assert.equal(followLineScope(base, 'a\nb\nc\nx\nd\ne\n', { start: 2, end: 4 }), undefined);
  });
});
