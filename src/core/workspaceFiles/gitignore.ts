// .gitignore files as git reads them: the last matching rule wins, `!` re-includes, a pattern
// with a slash before its end is anchored to the folder of its .gitignore, `dir/` matches folders
// only, and nothing inside an ignored folder can be re-included (git does not even look there).
// Deeper .gitignore files come later, so their rules win over the ones above them.
// Lines are matched by the same linear-time automaton as globs (globMachine.ts), never by a
// regular expression built from the line: a repository cannot stall the host with a pattern.
import { GlobMachine } from './globMachine';
import { parseGlob, type GlobNode } from './globParse';

export interface GitignoreRule {
  readonly negated: boolean;
  readonly folderOnly: boolean;
  /** Whether the rule's pattern matches a path relative to the folder of its .gitignore. */
  readonly matches: (path: string) => boolean;
}

/** `s` without the characters `drop` says to drop at its end (a loop: `/\s+$/` backtracks on long runs). */
function trimEnd(s: string, drop: (at: number) => boolean): string {
  let end = s.length;
  while (end > 0 && drop(end - 1)) end--;
  return s.slice(0, end);
}

const ANY_FOLDERS: GlobNode = {
  kind: 'optional',
  body: [
    { kind: 'many', crossesFolders: true },
    { kind: 'char', code: 0x2f },
  ],
};
const SOMETHING_BELOW: readonly GlobNode[] = [
  { kind: 'char', code: 0x2f },
  { kind: 'one', crossesFolders: true },
  { kind: 'many', crossesFolders: true },
];

/** The rules of one .gitignore, which sits in folder `base` ('' for the workspace folder). */
export interface GitignoreFile {
  readonly base: string;
  readonly rules: readonly GitignoreRule[];
}

/**
 * A line of a .gitignore as a rule, or undefined for blank lines and comments. A line that cannot
 * be read (longer than MAX_GLOB_LENGTH, a range such as `[z-a]`) errs on the side of sharing less:
 * an ignoring line ignores everything, a `!` line re-includes nothing.
 */
export function parseGitignoreLine(raw: string, caseInsensitive = false): GitignoreRule | undefined {
  // Trailing spaces are dropped unless escaped with a backslash.
  let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  line = trimEnd(line, (at) => /\s/.test(line[at] as string) && line[at - 1] !== '\\');
  if (!line || line.startsWith('#')) return undefined;
  const negated = line.startsWith('!');
  if (negated) line = line.slice(1);
  else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
  const folderOnly = line.endsWith('/');
  if (folderOnly) line = trimEnd(line, (at) => line[at] === '/');
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  if (!line) return undefined;
  // `dir/**` is everything inside dir, not dir itself (so `!dir/keep` can still re-include).
  const below = line.endsWith('/**');
  const nodes = parseGlob(below ? line.slice(0, -3) : line);
  if (!nodes) return { negated, folderOnly, matches: () => !negated };
  const machine = new GlobMachine(
    [...(anchored ? [] : [ANY_FOLDERS]), ...nodes, ...(below ? SOMETHING_BELOW : [])],
    caseInsensitive,
  );
  return { negated, folderOnly, matches: (path) => machine.matches(path) };
}

/**
 * Rules read from one .gitignore. Real ones hold tens to hundreds; each rule is an automaton with
 * tables of its own, and a committed file of a million one-character lines must not take the
 * host's memory. Past this, the file ignores everything in its folder (sharing less, never more).
 */
const MAX_GITIGNORE_RULES = 10_000;

const IGNORES_EVERYTHING: GitignoreRule = { negated: false, folderOnly: false, matches: () => true };

export function parseGitignore(content: string, caseInsensitive = false): GitignoreRule[] {
  const rules: GitignoreRule[] = [];
  for (const line of content.split('\n')) {
    const rule = parseGitignoreLine(line, caseInsensitive);
    if (!rule) continue;
    if (rules.length === MAX_GITIGNORE_RULES) return [...rules, IGNORES_EVERYTHING];
    rules.push(rule);
  }
  return rules;
}

/**
 * What the rules say about one path (not its folders): true ignored, false re-included by a `!`
 * rule, undefined when no rule matches. `files` in order, the workspace folder's first.
 */
export function gitignoreVerdict(
  files: readonly GitignoreFile[],
  path: string,
  isFolder: boolean,
): boolean | undefined {
  let verdict: boolean | undefined;
  for (const file of files) {
    const prefix = file.base ? `${file.base}/` : '';
    if (prefix && !path.startsWith(prefix)) continue;
    const relative = path.slice(prefix.length);
    for (const rule of file.rules) {
      if (rule.folderOnly && !isFolder) continue;
      if (rule.matches(relative)) verdict = !rule.negated;
    }
  }
  return verdict;
}

/** Whether `path` is ignored, itself or through one of its folders. */
export function isGitignored(files: readonly GitignoreFile[], path: string, isFolder: boolean): boolean {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    if (gitignoreVerdict(files, parts.slice(0, i).join('/'), true) === true) return true;
  }
  return gitignoreVerdict(files, path, isFolder) === true;
}
