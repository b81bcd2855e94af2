// Patterns built to make a backtracking matcher run for ages (a model's list_files glob, a
// repository's .gitignore, a settings list) get the right answer here, and the deterministic step
// counter of the matcher proves the work stays within states x path length. The old regular
// expressions took tens of seconds to forever on the first three.
import * as assert from 'node:assert/strict';
import { compileGlob, globMachine } from '../../../src/core/workspaceFiles/glob';
import { FileRules } from '../../../src/core/workspaceFiles/fileRules';
import { isGitignored, parseGitignore, type GitignoreFile } from '../../../src/core/workspaceFiles/gitignore';
import { MAX_BRACE_DEPTH, MAX_GLOB_LENGTH } from '../../../src/core/workspaceFiles/globParse';
import { sensitiveMatcher } from '../../../src/core/workspaceFiles/sensitivePaths';

const root = (content: string): GitignoreFile[] => [{ base: '', rules: parseGitignore(content) }];

/** The matcher's answer for `path`, after checking that it took at most 2 x states x (length + 1) steps (plus the literal ends). */
function boundedMatch(glob: string, path: string, caseInsensitive = false): boolean {
  const machine = globMachine(glob, caseInsensitive);
  assert.ok(machine, `${glob.slice(0, 40)}... compiles`);
  const matched = machine.matches(path);
  const bound = 2 * machine.size * (path.length + 1) + glob.length;
  assert.ok(
    machine.lastSteps <= bound,
    `${machine.lastSteps} steps for ${glob.length} pattern characters and ${path.length} path characters (bound ${bound})`,
  );
  return matched;
}

describe('core/workspaceFiles: matching is linear, whatever the pattern', () => {
  it('answers a 26-character .gitignore line with a dozen stars against one long file name', () => {
    const line = `x${'*a'.repeat(12)}!`;
    assert.equal(line.length, 26);
    const long = `x${'a'.repeat(5000)}`;
    assert.equal(isGitignored(root(line), `deep/${long}`, false), false);
    assert.equal(isGitignored(root(line), `deep/${long}!`, false), true);
    assert.equal(isGitignored(root(`/${line}`), `deep/${long}!`, false), false, 'anchored: not below a folder');
  });

  it("answers *a*a*a*a*a*a*a*a*a*a*a*b against 5000 a's, within the step bound", () => {
    const glob = `${'*a'.repeat(11)}*b`;
    const many = 'a'.repeat(5000);
    assert.equal(compileGlob(glob)(many), false);
    assert.equal(compileGlob(glob)(`${many}b`), true);
    assert.equal(compileGlob(glob, true)(`${many.toUpperCase()}B`), true, 'case-insensitive too');
    assert.equal(compileGlob(glob)(`${many}/b`), false, '* stays within a segment');
    assert.equal(boundedMatch(glob, many), false);
    assert.equal(boundedMatch(glob, `${many}b`), true);
    assert.equal(boundedMatch(`**/${glob}`, `${'a/'.repeat(2000)}${many}`), false);
  });

  it('answers chains of **/ against deep paths', () => {
    const glob = `${'**/'.repeat(60)}x`;
    const deep = 'a/'.repeat(3000);
    assert.equal(compileGlob(glob)(`${deep}y`), false);
    assert.equal(compileGlob(glob)(`${deep}x`), true);
    assert.equal(compileGlob(`${'**/'.repeat(60)}*.ts`)(`${deep}x.js`), false);
    assert.equal(isGitignored(root(`${'**/'.repeat(60)}x\n`), `${deep}y`, false), false);
    assert.equal(boundedMatch(glob, `${deep}y`), false);
    assert.equal(boundedMatch(`${'{**/,}'.repeat(40)}*`, `${deep}y`), true);
  });

  it('answers huge and nested brace sets without expanding them', () => {
    // 2^300 expansions if braces were spelled out.
    const glob = '{a,b}'.repeat(300);
    assert.equal(compileGlob(glob)('ab'.repeat(150)), true);
    assert.equal(compileGlob(glob)(`${'ab'.repeat(149)}ac`), false);
    assert.equal(boundedMatch(glob, 'ba'.repeat(150)), true);
    const alternatives = `{${Array.from({ length: 500 }, (_, i) => `name${i}`).join(',')}}.txt`;
    assert.equal(compileGlob(alternatives)('name499.txt'), true);
    assert.equal(compileGlob(alternatives)('name500.txt'), false);
    let nested = 'z';
    for (let depth = 1; depth < MAX_BRACE_DEPTH; depth++) nested = `{x${depth},${nested}}`;
    assert.equal(compileGlob(nested)('z') && compileGlob(nested)('x7') && !compileGlob(nested)('x99'), true);
  });

  it('stays correct where the table of state sets would be exponential (past its cap, set by set)', () => {
    // A deterministic automaton for this needs 2^13 states.
    const glob = `*a${'?'.repeat(12)}`;
    let seed = 7;
    const path = Array.from({ length: 4000 }, () => ((seed = (seed * 48271) % 2147483647) % 2 ? 'a' : 'b')).join('');
    const expected = (p: string): boolean => p.length >= 13 && p[p.length - 13] === 'a';
    for (const cut of [4000, 3999, 3998, 3997])
      assert.equal(boundedMatch(glob, path.slice(0, cut)), expected(path.slice(0, cut)));
  });

  it('answers the same for names of thousands of distinct characters (past what it remembers per state set)', () => {
    const matches = compileGlob('**/[!x]?*.txt', true);
    for (let i = 0; i < 2000; i++) {
      const name = String.fromCharCode(0x4e00 + i, 0x4e00 + 2 * i, 0x4e00 + 3 * i);
      assert.equal(matches(`docs/${name}.TXT`), true, name);
      assert.equal(matches(`docs/${name}/x`), false, name);
    }
  });

  it('refuses what it will not read: nothing gets in, nothing sensitive or excluded gets out', () => {
    const long = `${'a'.repeat(MAX_GLOB_LENGTH)}*`;
    let tooDeep = 'z';
    for (let depth = 0; depth <= MAX_BRACE_DEPTH; depth++) tooDeep = `{${tooDeep}}`;
    for (const refused of [long, tooDeep, '[z-a].txt']) {
      assert.equal(compileGlob(refused)('aaa.txt'), false, 'an include pattern lets nothing in');
      assert.equal(
        compileGlob(refused, false, 'everything')('aaa.txt'),
        true,
        'an exclude pattern keeps everything out',
      );
      assert.equal(new FileRules({ 'files.exclude': [refused] }).excludedBy('src/a.ts', false, []), 'files.exclude');
      assert.equal(
        isGitignored(root(refused), 'src/a.ts', false),
        true,
        'an ignoring .gitignore line ignores everything',
      );
      assert.equal(
        isGitignored(root(`*.ts\n!${refused}`), 'a.ts', false),
        true,
        'a re-including one re-includes nothing',
      );
    }
  });

  it("matches paths with a newline in a folder name (a regular expression's . never crossed one)", () => {
    assert.equal(sensitiveMatcher()('odd\nfolder/.env'), '**/.env*');
    assert.equal(compileGlob('src/**')('src/a\nb/c.ts'), true);
    assert.equal(isGitignored(root('*.log\n'), 'x\ny/debug.log', false), true);
  });

  it('reads long runs of spaces and slashes in a .gitignore line in linear time', () => {
    const spaces = ' '.repeat(50_000);
    assert.equal(isGitignored(root(`keep${spaces}\n`), 'keep', false), true, 'trailing spaces dropped');
    assert.equal(isGitignored(root(`keep${spaces}\n`), 'other', false), false);
    assert.equal(isGitignored(root(`out${'/'.repeat(50_000)}\n`), 'out', true), true, 'trailing slashes: a folder');
    assert.equal(isGitignored(root(`out${'/'.repeat(50_000)}\n`), 'out', false), false);
    // Runs inside a line made the trimming expressions quadratic; too long to read, these ignore everything.
    assert.equal(isGitignored(root(`a${spaces}b\n`), 'anything', false), true);
    assert.equal(isGitignored(root(`a${'/'.repeat(50_000)}b/\n`), 'anything', true), true);
  });

  it('reads at most 10,000 rules of one .gitignore, and past them ignores everything in its folder (a million-line file cannot take the memory)', () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `f${i}`).join('\n');
    const rules = parseGitignore(`${lines}\n!keep.txt\n`);
    assert.equal(rules.length, 10_001, 'the cap, then one rule that ignores everything');
    assert.equal(
      isGitignored(root(`${lines}\n!keep.txt\n`), 'keep.txt', false),
      true,
      'what the unread rest says cannot re-include',
    );
    assert.equal(isGitignored(root('f1\n'), 'keep.txt', false), false);
  });
});
