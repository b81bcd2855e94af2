// Globs as VS Code writes them (files.exclude, search.exclude, findFiles): `*` and `?` within one
// path segment, `**` across segments, `{a,b}` alternatives, `[abc]` / `[!abc]` classes, `\` to
// escape. Paths are workspace-relative with `/` separators. Also the body of a .gitignore pattern,
// whose wildcards mean the same. Read by globParse.ts, matched by globMachine.ts: no regular
// expression is built from a pattern, so no pattern (from a model, a repository's ignore files or
// settings) can make a match backtrack.
import { GlobMachine } from './globMachine';
import { parseGlob } from './globParse';

export type PathMatcher = (path: string) => boolean;

/**
 * What a refused pattern (longer than MAX_GLOB_LENGTH, braces nested deeper than
 * MAX_BRACE_DEPTH, a range such as `[z-a]`) matches. 'nothing' suits what a pattern lets in
 * (`list_files`, `search.include`); 'everything' suits what it keeps out (files.exclude,
 * sensitive files): a pattern that cannot be read then errs on the side of sharing less.
 */
export type RefusedGlob = 'nothing' | 'everything';

/**
 * The automaton of a glob (already cleaned), or undefined when refused. Matching takes time
 * linear in the path's length times the pattern's, never backtracking (globMachine.ts).
 */
export function globMachine(glob: string, caseInsensitive = false): GlobMachine | undefined {
  const nodes = parseGlob(glob);
  return nodes && new GlobMachine(nodes, caseInsensitive);
}

/** A matcher for whole workspace-relative paths; a blank pattern matches nothing, a refused one what `refused` says. */
export function compileGlob(glob: string, caseInsensitive = false, refused: RefusedGlob = 'nothing'): PathMatcher {
  const clean = glob.trim().replace(/^\.\//, '').replace(/^\//, '');
  if (!clean) return () => false;
  const machine = globMachine(clean, caseInsensitive);
  if (!machine) return refused === 'everything' ? () => true : () => false;
  return (path) => machine.matches(path);
}

/** The path and each folder above it, deepest last: `a/b/c` gives `a`, `a/b`, `a/b/c`. */
export function pathPrefixes(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
