// The pure parts of Apply: which file a block names, whole file or partial, the file out of a
// merge answer, and hunks (split, take one, give one up, carry a proposal over the user's typing).
import * as assert from 'node:assert/strict';
import { blockTargetPath, pathFromLineAbove } from '../../../src/core/apply/codeTarget';
import { looksLikePath, pathFromFenceInfo } from '../../../src/shared/codeFence';
import {
  applyHunk,
  computeHunks,
  lineRangeOffsets,
  rebaseProposal,
  revertHunk,
  splitLines,
} from '../../../src/core/apply/lineHunks';
import { codeFromAnswer, fenceFor, matchFileConventions, mergePrompt } from '../../../src/core/apply/mergeAnswer';
import { classifyBlock, hasElisionMarkers } from '../../../src/core/apply/wholeFile';

describe('apply: the target path a block names', () => {
  it('reads a path from the fence info string in the forms models write', () => {
    assert.equal(pathFromFenceInfo('ts src/a.ts'), 'src/a.ts');
    assert.equal(pathFromFenceInfo('src/a.ts'), 'src/a.ts');
    assert.equal(pathFromFenceInfo('ts:src/a.ts'), 'src/a.ts');
    assert.equal(pathFromFenceInfo('typescript title="src/app/main.ts"'), 'src/app/main.ts');
    assert.equal(pathFromFenceInfo("python filename='tools/run.py'"), 'tools/run.py');
    assert.equal(pathFromFenceInfo('Makefile.am'), 'Makefile.am');
    assert.equal(pathFromFenceInfo('.env'), '.env');
  });

  it('does not take a language, a URL, a version or prose for a path', () => {
    for (const info of ['ts', 'python', 'c++', 'objective-c', 'https://example.com/a.ts', '1.2.3', '', 'json {1,3}']) {
      assert.equal(pathFromFenceInfo(info), undefined, info);
    }
    assert.equal(looksLikePath('a b.ts'), false);
    assert.equal(looksLikePath('src/'), false);
    assert.equal(looksLikePath('src/*.ts'), false);
    assert.equal(looksLikePath('x'.repeat(400) + '.ts'), false);
  });

  it('reads a path from a label line above the block', () => {
    assert.equal(pathFromLineAbove('`src/a.ts`:'), 'src/a.ts');
    assert.equal(pathFromLineAbove('File: src/a.ts'), 'src/a.ts');
    assert.equal(pathFromLineAbove('**src/a.ts**'), 'src/a.ts');
    assert.equal(pathFromLineAbove('**`src/a.ts`**:'), 'src/a.ts');
    assert.equal(pathFromLineAbove('### src/lib/util.py'), 'src/lib/util.py');
    assert.equal(pathFromLineAbove('In `src/a.ts`:'), 'src/a.ts');
    assert.equal(pathFromLineAbove('src/new.ts (new file)'), 'src/new.ts');
  });

  it('ignores a sentence above the block', () => {
    assert.equal(pathFromLineAbove('Here is the updated function, which now handles src/a.ts:'), undefined);
    assert.equal(pathFromLineAbove('Try this:'), undefined);
    assert.equal(pathFromLineAbove(''), undefined);
  });

  it('prefers the fence info, then the line above, then a first-line comment', () => {
    assert.equal(blockTargetPath('ts src/a.ts', 'File: src/b.ts', '// src/c.ts\n'), 'src/a.ts');
    assert.equal(blockTargetPath('ts', 'File: src/b.ts', '// src/c.ts\n'), 'src/b.ts');
    assert.equal(blockTargetPath('ts', 'Like this:', '// src/c.ts\nexport {};\n'), 'src/c.ts');
    assert.equal(blockTargetPath('py', undefined, '# File: tools/x.py\n'), 'tools/x.py');
    assert.equal(blockTargetPath('c', undefined, '#include <stdio.h>\n'), undefined);
    assert.equal(blockTargetPath('ts', undefined, '// TODO: fix this\n'), undefined);
  });
});

describe('apply: whole file or partial', () => {
  const file =
    'import { a } from "./a";\n\nexport function f(): number {\n  return a + 1;\n}\n\nexport function g(): number {\n  return 2;\n}\n';

  it('a block for a missing or empty file is the whole file', () => {
    assert.equal(classifyBlock('x', undefined), 'whole');
    assert.equal(classifyBlock('x', '\n'), 'whole');
  });

  it('a block with elision markers is partial, whatever its size', () => {
    assert.equal(hasElisionMarkers('a\n// ... existing code ...\nb'), true);
    assert.equal(hasElisionMarkers('a\n  ...\nb'), true);
    assert.equal(hasElisionMarkers('# rest of the file unchanged'), true);
    assert.equal(hasElisionMarkers('<!-- ... -->'), true);
    assert.equal(hasElisionMarkers('const spread = [...items];\n// sum them'), false);
    assert.equal(classifyBlock(file.replace('  return 2;', '  // ... existing code ...'), file), 'partial');
  });

  it('a block spanning the file (its first and last significant lines, half its size) is whole', () => {
    assert.equal(classifyBlock(file.replace('a + 1', 'a + 2'), file), 'whole');
    // A line added above the first one still spans the file.
    assert.equal(classifyBlock(`import { b } from "./b";\n${file}`, file), 'whole');
    // The file with its last line changed (and another): still the whole file.
    assert.equal(classifyBlock(file.replace('return 2;', 'return 3;').replace('a + 1', 'a + 2'), file), 'whole');
  });

  it('one function out of several is partial', () => {
    assert.equal(classifyBlock('export function g(): number {\n  return 3;\n}\n', file), 'partial');
    // Only the closing braces in common: "}" is not significant.
    assert.equal(classifyBlock('export function h() {\n}\n', file), 'partial');
    // Most of the file but not its start: a fragment, even a big one.
    assert.equal(classifyBlock(file.split('\n').slice(1).join('\n'), file), 'partial');
  });
});

describe('apply: the file out of a merge answer', () => {
  it('strips a wrapping fence and a little prose', () => {
    assert.equal(codeFromAnswer('```ts\nconst a = 1;\n```\n'), 'const a = 1;\n');
    assert.equal(codeFromAnswer('Here is the updated file:\n\n```ts\nconst a = 1;\n```\n\nDone.'), 'const a = 1;\n');
    assert.equal(codeFromAnswer('~~~\nx\n~~~'), 'x\n');
  });

  it('keeps an answer without a fence as it is', () => {
    assert.equal(codeFromAnswer('const a = 1;\n'), 'const a = 1;\n');
  });

  it('keeps fences inside the file: the wrapper is the asked-for fence', () => {
    const markdown = '# Readme\n\n```sh\nnpm i\n```\n\nMore.\n';
    const fence = fenceFor(markdown);
    assert.equal(fence, '````');
    assert.equal(codeFromAnswer(`${fence}markdown\n${markdown}${fence}\n`, fence), markdown);
    // Without a wrapper, long prose around inner fences means the answer is the file itself.
    const long = 'a\nb\nc\nd\ne\nf\n```sh\nnpm i\n```\n';
    assert.equal(codeFromAnswer(long, '````'), long);
  });

  it('puts the file and the edit into the prompt in a fence longer than theirs', () => {
    const prompt = mergePrompt('src/a.md', 'text ``` x\n', 'edit\n');
    assert.match(prompt.user, /^The file src\/a\.md:\n````\ntext ``` x\n````\n/);
    assert.match(prompt.system, /````/);
  });

  it("matches the file's line endings and final newline", () => {
    assert.equal(matchFileConventions('a\nb\n', 'x\r\ny\r\n'), 'a\r\nb\r\n');
    assert.equal(matchFileConventions('a\nb\n', 'x\ny'), 'a\nb');
    assert.equal(matchFileConventions('a\nb', 'x\n'), 'a\nb\n');
    assert.equal(matchFileConventions('a\nb', undefined), 'a\nb');
  });
});

describe('apply: hunks', () => {
  const current = 'one\ntwo\nthree\nfour\nfive\nsix\n';
  const proposal = 'one\nTWO\nthree\nfour\nfive\nsix\nseven\n';

  it('splits lines keeping their terminators', () => {
    assert.deepEqual(splitLines('a\r\nb\rc\nd'), ['a\r\n', 'b\r', 'c\n', 'd']);
    assert.deepEqual(splitLines(''), []);
    assert.equal(splitLines('a\r\nb\rc\nd').join(''), 'a\r\nb\rc\nd');
  });

  it('finds each run of changed lines as one hunk', () => {
    const hunks = computeHunks(current, proposal);
    assert.deepEqual(hunks, [
      { oldStart: 1, oldLines: ['two\n'], newStart: 1, newLines: ['TWO\n'] },
      { oldStart: 6, oldLines: [], newStart: 6, newLines: ['seven\n'] },
    ]);
    assert.deepEqual(computeHunks(current, current), []);
    assert.deepEqual(computeHunks('', 'new\n'), [{ oldStart: 0, oldLines: [], newStart: 0, newLines: ['new\n'] }]);
  });

  it('takes one hunk and leaves the rest of the file byte-identical', () => {
    const [first, second] = computeHunks(current, proposal);
    assert.equal(applyHunk(current, first!), 'one\nTWO\nthree\nfour\nfive\nsix\n');
    assert.equal(applyHunk(current, second!), 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    // After both, the file is the proposal.
    const once = applyHunk(current, first!);
    const rest = computeHunks(once, proposal);
    assert.equal(rest.length, 1);
    assert.equal(applyHunk(once, rest[0]!), proposal);
  });

  it('gives one hunk up: the proposal goes back to the current text there', () => {
    const [first] = computeHunks(current, proposal);
    const reduced = revertHunk(proposal, first!);
    assert.equal(reduced, 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    assert.equal(computeHunks(current, reduced).length, 1);
  });

  it('tells a line range as character offsets', () => {
    assert.deepEqual(lineRangeOffsets(current, 1, 1), { start: 4, end: 8 });
    assert.deepEqual(lineRangeOffsets(current, 6, 0), { start: current.length, end: current.length });
  });

  it('handles a change of the last line without a newline and of line endings', () => {
    const hunks = computeHunks('a\nb', 'a\nb\n');
    assert.deepEqual(hunks, [{ oldStart: 1, oldLines: ['b'], newStart: 1, newLines: ['b\n'] }]);
    assert.equal(applyHunk('a\nb', hunks[0]!), 'a\nb\n');
  });

  it('carries a proposal over typing elsewhere, and refuses typing inside a change', () => {
    const typedElsewhere = current.replace('five\n', 'five (typed)\n');
    assert.equal(
      rebaseProposal(current, proposal, typedElsewhere),
      'one\nTWO\nthree\nfour\nfive (typed)\nsix\nseven\n',
    );
    const typedInside = current.replace('two\n', 'two!\n');
    assert.equal(rebaseProposal(current, proposal, typedInside), undefined);
    // Typing right next to a change is refused too: either order could be meant.
    assert.equal(rebaseProposal(current, proposal, current.replace('three\n', 'three!\n')), undefined);
  });
});
