// .gitignore files as git reads them: the last matching rule wins, `!` re-includes, a pattern
// with a slash before its end is anchored to the folder of its .gitignore, `dir/` matches folders
// only, and nothing inside an ignored folder can be re-included (git does not even look there).
// Deeper .gitignore files come later, so their rules win over the ones above them.
import { globSource } from './glob';

export interface GitignoreRule {
  readonly negated: boolean;
  readonly folderOnly: boolean;
  readonly regex: RegExp;
}

/** The rules of one .gitignore, which sits in folder `base` ('' for the workspace folder). */
export interface GitignoreFile {
  readonly base: string;
  readonly rules: readonly GitignoreRule[];
}

/** A line of a .gitignore as a rule, or undefined for blank lines and comments. */
export function parseGitignoreLine(raw: string, caseInsensitive = false): GitignoreRule | undefined {
  // Trailing spaces are dropped unless escaped with a backslash.
  let line = raw.replace(/\r$/, '').replace(/(?<!\\)\s+$/, '');
  if (!line || line.startsWith('#')) return undefined;
  const negated = line.startsWith('!');
  if (negated) line = line.slice(1);
  else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
  const folderOnly = line.endsWith('/');
  if (folderOnly) line = line.replace(/\/+$/, '');
  const anchored = line.includes('/');
  line = line.replace(/^\//, '');
  if (!line) return undefined;
  // `dir/**` is everything inside dir, not dir itself (so `!dir/keep` can still re-include).
  const source = line.endsWith('/**') ? `${globSource(line.slice(0, -3))}/.+` : globSource(line);
  try {
    const regex = new RegExp(`^${anchored ? '' : '(?:.*/)?'}${source}$`, caseInsensitive ? 'i' : '');
    return { negated, folderOnly, regex };
  } catch {
    return undefined;
  }
}

export function parseGitignore(content: string, caseInsensitive = false): GitignoreRule[] {
  return content.split('\n').flatMap((line) => parseGitignoreLine(line, caseInsensitive) ?? []);
}

/**
 * What the rules say about one path (not its folders): true ignored, false re-included by a `!`
 * rule, undefined when no rule matches. `files` in order, the workspace folder's first.
 */
export function gitignoreVerdict(files: readonly GitignoreFile[], path: string, isFolder: boolean): boolean | undefined {
  let verdict: boolean | undefined;
  for (const file of files) {
    const prefix = file.base ? `${file.base}/` : '';
    if (prefix && !path.startsWith(prefix)) continue;
    const relative = path.slice(prefix.length);
    for (const rule of file.rules) {
      if (rule.folderOnly && !isFolder) continue;
      if (rule.regex.test(relative)) verdict = !rule.negated;
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
