// A simple reading of a root .gitignore as globs for VS Code's findFiles exclude: comments,
// blank lines and negations (`!`) are skipped; a pattern without an inner slash matches at any
// depth; a trailing slash means a folder. Nested .gitignore files are not read.

export function gitignoreGlobs(content: string): string[] {
  const globs: string[] = [];
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.replace(/(?<!\\)\s+$/, '');
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    // Braces and commas would break the `{a,b}` the globs are joined into.
    if (/[{},]/.test(line)) continue;
    const folderOnly = line.endsWith('/');
    const body = line.replace(/^\//, '').replace(/\/$/, '');
    if (!body) continue;
    const anchored = line.startsWith('/') || body.includes('/');
    const base = anchored ? body : `**/${body}`;
    globs.push(`${base}/**`);
    if (!folderOnly) globs.push(base);
  }
  return globs;
}
