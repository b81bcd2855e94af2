// The pure logic behind the chat's edit tools: exact search/replace (once, never zero or several
// times), unified diffs through jsdiff (careless headers repaired, a hunk that does not fit
// refused), line endings kept, the review diff, the replacements an editor applies, and where a
// new file may be written.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textReplacements, type TextReplacement } from '../../../src/core/edits/textChanges';
import { applySearchReplace, type EditOutcome } from '../../../src/core/edits/searchReplace';
import { applyUnifiedDiff } from '../../../src/core/edits/unifiedPatch';
import { computeHunks } from '../../../src/core/apply/lineHunks';
import { lineEndingOf, linesOf } from '../../../src/core/edits/lineEndings';
import { MAX_REVIEW_LINES, reviewDiff } from '../../../src/core/edits/reviewDiff';
import { WorkspaceFiles } from '../../../src/core/workspaceFiles/workspaceFiles';

const FILE = [
  'import { a } from "./a";',
  '',
  'export function one(): number {',
  '  return 1;',
  '}',
  '',
  'export function two(): number {',
  '  return 2;',
  '}',
  '',
].join('\n');

function text(outcome: EditOutcome): string {
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
  return outcome.text;
}
function failure(outcome: EditOutcome): string {
  assert.ok(!outcome.ok, 'the edit was refused');
  return outcome.message;
}

describe('core/edits: search/replace', () => {
  it('replaces a search text found exactly once, keeping the rest byte for byte', () => {
    const out = text(applySearchReplace(FILE, [{ search: '  return 1;', replace: '  return 100;' }]));
    assert.equal(out, FILE.replace('return 1;', 'return 100;'));
  });

  it('applies several edits in order, each against the text the previous ones left', () => {
    const out = text(
      applySearchReplace(FILE, [
        { search: 'function one', replace: 'function first' },
        {
          search: 'export function first(): number {\n  return 1;',
          replace: 'export function first(): number {\n  return 11;',
        },
      ]),
    );
    assert.match(out, /function first\(\): number \{\n {2}return 11;/);
  });

  it('takes a replacement with $ signs literally', () => {
    assert.equal(text(applySearchReplace('a\nb\n', [{ search: 'b', replace: "$& $1 $$ $'" }])), "a\n$& $1 $$ $'\n");
  });

  it('refuses a search found nowhere, quoting the closest lines with their numbers', () => {
    const message = failure(
      applySearchReplace(FILE, [{ search: 'export function two(): string {\n  return 2;\n}', replace: 'x' }]),
    );
    assert.match(message, /was not found/);
    assert.match(message, /closest lines \(2 of its 3 lines alike.*\) start at line 7/);
    assert.match(message, /^7\| export function two\(\): number \{\n8\| {3}return 2;\n9\| \}$/m);
  });

  it('says when only whitespace differs', () => {
    const message = failure(
      applySearchReplace(
        FILE,
        [{ search: 'return 2;', replace: 'return 3;' }].map((e) => ({ ...e, search: `\t${e.search}` })),
      ),
    );
    assert.match(message, /matches lines 8-8 if whitespace is ignored/);
  });

  it('says when no line of the search occurs at all', () => {
    assert.match(
      failure(applySearchReplace(FILE, [{ search: 'nothing like this', replace: '' }])),
      /none of its lines occurs in the file/,
    );
    assert.match(
      failure(applySearchReplace(FILE, [{ search: '  return 2 ;', replace: '' }])),
      /matches lines 8-8 if whitespace is ignored\. Copy the lines exactly as the file has them:\n8\| {3}return 2;/,
    );
  });

  it('refuses a search found in several places, saying how many and where', () => {
    const message = failure(applySearchReplace(FILE, [{ search: '(): number {', replace: '(): bigint {' }]));
    assert.match(message, /matches 2 places \(starting at lines 3, 7\); it must match exactly one/);
  });

  it('names the edit that failed when several were sent, and changes nothing', () => {
    const message = failure(
      applySearchReplace(FILE, [
        { search: 'return 1;', replace: 'return 9;' },
        { search: 'return 1;', replace: 'x' },
      ]),
    );
    assert.match(message, /edit 2 \(of 2\)/);
  });

  it('refuses an empty search and an empty list', () => {
    assert.match(failure(applySearchReplace(FILE, [{ search: '', replace: 'x' }])), /is empty/);
    assert.match(failure(applySearchReplace(FILE, [])), /No edits were given/);
  });

  it('keeps CRLF line endings when the model writes LF', () => {
    const crlf = FILE.replace(/\n/g, '\r\n');
    const out = text(
      applySearchReplace(crlf, [
        {
          search: 'export function one(): number {\n  return 1;\n}',
          replace: 'export function one(): number {\n  const n = 1;\n  return n;\n}',
        },
      ]),
    );
    assert.equal(lineEndingOf(out), '\r\n');
    assert.ok(!/[^\r]\n/.test(out), 'every line break is CRLF');
    assert.match(out, /const n = 1;\r\n {2}return n;\r\n/);
  });
});

describe('core/edits: unified diff', () => {
  const DIFF = [
    '--- a/src/x.ts',
    '+++ b/src/x.ts',
    '@@ -7,3 +7,3 @@',
    ' export function two(): number {',
    '-  return 2;',
    '+  return 22;',
    ' }',
  ].join('\n');

  it('applies a well-formed diff', () => {
    assert.equal(text(applyUnifiedDiff(FILE, DIFF)), FILE.replace('return 2;', 'return 22;'));
  });

  it('repairs wrong counts, a header without numbers and blank context lines without their space', () => {
    const careless = [
      '@@ -7,9 +7,1 @@',
      ' export function two(): number {',
      '-  return 2;',
      '+  return 22;',
      ' }',
    ].join('\n');
    assert.equal(text(applyUnifiedDiff(FILE, careless)), FILE.replace('return 2;', 'return 22;'));
    const bare = ['@@ @@', ' }', '', '-export function two(): number {', '+export function two(): bigint {'].join('\n');
    assert.equal(text(applyUnifiedDiff(FILE, bare)), FILE.replace('two(): number', 'two(): bigint'));
  });

  it('refuses a header without numbers whose lines match several places', () => {
    assert.match(failure(applyUnifiedDiff(FILE, '@@ @@\n }\n+// end\n')), /match 2 places \(lines 5, 9\)/);
  });

  it('refuses a hunk whose lines are not in the file, quoting the closest lines; nothing changes', () => {
    const wrong = ['@@ -7,3 +7,3 @@', ' export function two(): number {', '-  return 3;', '+  return 33;', ' }'].join(
      '\n',
    );
    const message = failure(applyUnifiedDiff(FILE, wrong));
    assert.match(message, /context and removed lines of the hunk "@@ -7,3 \+7,3 @@" was not found/);
    assert.match(message, /start at line 7/);
    assert.match(message, /Nothing was changed/);
  });

  it('names the failing hunk among several', () => {
    const two = [
      '@@ -3,2 +3,2 @@',
      ' export function one(): number {',
      '-  return 1;',
      '+  return 10;',
      '@@ -7,2 +7,2 @@',
      ' export function two(): number {',
      '-  return 9;',
      '+  return 90;',
    ].join('\n');
    assert.match(failure(applyUnifiedDiff(FILE, two)), /hunk 2 \(of 2\)/);
  });

  it('refuses a diff of several files, one without hunks, and a stray line', () => {
    assert.match(
      failure(applyUnifiedDiff(FILE, '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n')),
      /several files/,
    );
    assert.match(failure(applyUnifiedDiff(FILE, 'just some text')), /no hunk/);
    assert.match(failure(applyUnifiedDiff(FILE, '@@ -1,1 +1,1 @@\nimport\n')), /starts with neither/);
  });

  it('keeps CRLF line endings', () => {
    const crlf = FILE.replace(/\n/g, '\r\n');
    const out = text(applyUnifiedDiff(crlf, `${DIFF}\n`));
    assert.equal(out, crlf.replace('return 2;', 'return 22;'));
  });
});

describe('core/edits: the review diff', () => {
  it('is a unified diff of the change, with counts', () => {
    const diff = reviewDiff({
      oldPath: 'src/x.ts',
      newPath: 'src/x.ts',
      oldText: FILE,
      newText: FILE.replace('return 2;', 'return 22;'),
    });
    assert.deepEqual([diff.added, diff.removed, diff.truncated], [1, 1, false]);
    assert.equal(
      diff.text,
      [
        '--- a/src/x.ts',
        '+++ b/src/x.ts',
        '@@ -5,5 +5,5 @@',
        ' }',
        ' ',
        ' export function two(): number {',
        '-  return 2;',
        '+  return 22;',
        ' }',
      ].join('\n'),
    );
  });

  it('shows a CRLF file without carriage returns', () => {
    const crlf = FILE.replace(/\n/g, '\r\n');
    assert.ok(
      !reviewDiff({ oldPath: 'x', newPath: 'x', oldText: crlf, newText: crlf.replace('1;', '2;') }).text.includes('\r'),
    );
  });

  it('says new file, deleted file and rename', () => {
    assert.match(
      reviewDiff({ newPath: 'n.txt', newText: 'hi\n' }).text,
      /^new file\n--- \/dev\/null\n\+\+\+ b\/n\.txt\n@@ -0,0 \+1,1 @@\n\+hi$/,
    );
    assert.match(
      reviewDiff({ oldPath: 'd.txt', oldText: 'bye\n' }).text,
      /^deleted file\n--- a\/d\.txt\n\+\+\+ \/dev\/null/,
    );
    assert.equal(
      reviewDiff({ oldPath: 'a.txt', newPath: 'b.txt', oldText: 'same\n', newText: 'same\n' }).text,
      'rename from a.txt\nrename to b.txt',
    );
    assert.equal(
      reviewDiff({ oldPath: 'big.bin', oldNote: '(binary file, 9000 bytes)' }).text,
      'deleted file\n(binary file, 9000 bytes)',
    );
  });

  it('is cut for display, saying so', () => {
    const long = Array.from({ length: 2 * MAX_REVIEW_LINES }, (_, i) => `line ${i}`).join('\n');
    const diff = reviewDiff({ newPath: 'long.txt', newText: long });
    assert.ok(diff.truncated);
    assert.equal(diff.text.split('\n').length, MAX_REVIEW_LINES);
    assert.equal(diff.added, 2 * MAX_REVIEW_LINES, 'the counts are of the whole change');
  });
});

/** `before` with `replacements` applied, as the editor applies them: the check that they are right. */
function applyReplacements(before: string, replacements: readonly TextReplacement[]): string {
  let result = '';
  let at = 0;
  for (const r of replacements) {
    result += before.slice(at, r.start) + r.text;
    at = r.end;
  }
  return result + before.slice(at);
}

describe('core/edits: replacements for the editor', () => {
  it('turns a whole-text change into the few ranges that changed', () => {
    const after = FILE.replace('return 1;', 'return 10;').replace('return 2;', 'return 20;\n  // two');
    const replacements = textReplacements(FILE, after);
    assert.equal(replacements.length, 2, JSON.stringify(replacements));
    assert.equal(applyReplacements(FILE, replacements), after);
    assert.deepEqual(textReplacements(FILE, FILE), []);
    assert.equal(applyReplacements('a\r\nb\r\n', textReplacements('a\r\nb\r\n', 'a\r\nc\r\nb\r\n')), 'a\r\nc\r\nb\r\n');
    assert.equal(applyReplacements('x', textReplacements('x', '')), '');
  });

  it("is the review's hunks as ranges: one replacement per hunk, right for any line endings", () => {
    const pieces = ['a', 'b', 'x', '', ' '];
    const breaks = ['\n', '\r\n', '\r', ''];
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const text = (): string =>
      Array.from({ length: next(6) }, () => `${pieces[next(pieces.length)]}${breaks[next(breaks.length)]}`).join('');
    for (let i = 0; i < 300; i++) {
      const before = text();
      const after = text();
      const replacements = textReplacements(before, after);
      assert.equal(applyReplacements(before, replacements), after, JSON.stringify([before, after]));
      assert.equal(replacements.length, computeHunks(before, after).length);
      // The old splitter of the edit tools, kept here as the reference linesOf must still match.
      const reference = before.split(/\r\n|\r|\n/);
      if (reference.length > 1 && reference[reference.length - 1] === '') reference.pop();
      assert.deepEqual(linesOf(before), reference, JSON.stringify(before));
    }
  });
});

describe('core/workspaceFiles: where a new file may be written', () => {
  let dir: string;
  let outside: string;
  let files: WorkspaceFiles;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edits-ws-'));
    outside = mkdtempSync(join(tmpdir(), 'edits-out-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'old.ts'), 'x\n');
    writeFileSync(join(dir, '.gitignore'), 'dist/\n');
    symlinkSync(outside, join(dir, 'linked-out'));
    symlinkSync(join(outside, 'nowhere.txt'), join(dir, 'dangling.txt'));
    files = await WorkspaceFiles.open({
      folders: [{ name: 'ws', path: dir, excludes: { 'files.exclude': ['hidden/**'] } }],
    });
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('allows a new file in a new folder inside the workspace', async () => {
    const resolved = await files.resolveNew('src/deep/new.ts');
    assert.ok(resolved.ok, JSON.stringify(resolved));
    assert.equal(resolved.target.display, 'src/deep/new.ts');
    assert.equal(resolved.target.absolute, join(dir, 'src', 'deep', 'new.ts'));
    assert.deepEqual(resolved.target.sensitive, []);
  });

  it('flags a sensitive path', async () => {
    const resolved = await files.resolveNew('config/.env.local');
    assert.ok(resolved.ok);
    assert.deepEqual(resolved.target.sensitive, ['config/.env.local']);
  });

  it('refuses an existing file, paths outside, through a linked folder or a dangling link, and excluded places', async () => {
    const problem = async (path: string): Promise<string> => {
      const resolved = await files.resolveNew(path);
      assert.ok(!resolved.ok, `${path} refused`);
      return resolved.problem;
    };
    assert.equal(await problem('src/old.ts'), 'exists');
    assert.equal(await problem('../escape.txt'), 'outside');
    assert.equal(await problem(join(outside, 'x.txt')), 'outside');
    assert.equal(await problem('linked-out/new.txt'), 'outside');
    assert.equal(await problem('dangling.txt'), 'exists');
    assert.equal(await problem('dist/bundle.js'), 'excluded');
    assert.equal(await problem('hidden/x.txt'), 'excluded');
    assert.equal(await problem('src/old.ts/child.ts'), 'folder');
  });
});
