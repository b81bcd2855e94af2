// Globs as VS Code writes them (files.exclude, search.exclude, findFiles): `*` and `?` within one
// path segment, `**` across segments, `{a,b}` alternatives, `[abc]` / `[!abc]` classes, `\` to
// escape. Paths are workspace-relative with `/` separators. Also the body of a .gitignore pattern,
// whose wildcards mean the same.

/** The regular-expression source of `glob` (no anchors). */
export function globSource(glob: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '\\' && i + 1 < glob.length) {
      out += escapeRegExp(glob[++i] as string);
    } else if (c === '*') {
      let end = i;
      while (glob[end + 1] === '*') end++;
      const before = i === 0 ? '/' : glob[i - 1];
      const after = glob[end + 1];
      const segmentStart = before === '/' || (braces > 0 && (before === '{' || before === ','));
      const segmentEnd = after === undefined || after === '/' || (braces > 0 && (after === ',' || after === '}'));
      if (end > i && segmentStart && segmentEnd) {
        if (after === '/') {
          // `**/`: any number of whole folders, none included.
          out += '(?:.*/)?';
          end++;
        } else if (out.endsWith('/')) {
          // `x/**`: x itself and everything below it.
          out = `${out.slice(0, -1)}(?:/.*)?`;
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
      i = end;
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^/' : ''}${body.replace(/\\/g, '\\\\').replace(/\]/g, '\\]')}]`;
      i = close;
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else {
      out += escapeRegExp(c);
    }
  }
  // An unclosed brace: close its group, so the source still compiles.
  return out + ')'.repeat(braces);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export type PathMatcher = (path: string) => boolean;

/** A matcher for whole workspace-relative paths; a pattern that does not compile matches nothing. */
export function compileGlob(glob: string, caseInsensitive = false): PathMatcher {
  const clean = glob.trim().replace(/^\.\//, '').replace(/^\//, '');
  if (!clean) return () => false;
  try {
    const regex = new RegExp(`^${globSource(clean)}$`, caseInsensitive ? 'i' : '');
    return (path) => regex.test(path);
  } catch {
    return () => false;
  }
}

/** One matcher for several globs (any of them). */
export function compileGlobs(globs: readonly string[], caseInsensitive = false): PathMatcher {
  const matchers = globs.map((glob) => compileGlob(glob, caseInsensitive));
  return (path) => matchers.some((matches) => matches(path));
}

/** The path and each folder above it, deepest last: `a/b/c` gives `a`, `a/b`, `a/b/c`. */
export function pathPrefixes(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
