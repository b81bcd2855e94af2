// Files of a workspace folder that git runs because the repository's own config says so: a custom
// core.hooksPath (`git config core.hooksPath tools/hooks` makes every file there a hook, which no
// file name tells) and a core.fsmonitor program (run by every `git status`, which the editor's git
// extension runs all the time). A write there is always asked, like one to .git/hooks.
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { readPrefix } from './boundedRead';

const MAX_CONFIG_BYTES = 256_000;

/** The raw values of core.hooksPath and core.fsmonitor (when it names a program) in a git config text. */
export function gitConfigRunValues(text: string): string[] {
  const values: string[] = [];
  let inCore = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([^\]\s"]+)\s*(?:"[^"]*")?\s*\]/.exec(line);
    if (section) {
      // `[core "x"]` is a subsection, not core itself.
      inCore = section[1]?.toLowerCase() === 'core' && !line.includes('"');
      continue;
    }
    if (!inCore) continue;
    const entry = /^(hookspath|fsmonitor)\s*=\s*(.*)$/i.exec(line);
    if (!entry) continue;
    let value = (entry[2] ?? '').replace(/\s[#;].*$/, '').trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2)
      value = value.slice(1, -1).replace(/\\(["\\])/g, '$1');
    // fsmonitor = true / false picks git's built-in daemon: no program of the repository.
    if (entry[1]?.toLowerCase() === 'fsmonitor' && /^(true|false|yes|no|on|off|1|0)?$/i.test(value)) continue;
    // git runs fsmonitor through the shell: the program is its first word (`tools/watch.sh --flag`).
    if (entry[1]?.toLowerCase() === 'fsmonitor') value = value.split(/\s+/)[0] ?? '';
    if (value) values.push(value);
  }
  return values;
}

/** The config file of the repository whose worktree is `root`: `.git/config`, or through a `.git` file (a linked worktree) its common folder's. */
async function configPath(root: string): Promise<string | undefined> {
  const dotGit = nodePath.join(root, '.git');
  const stat = await fs.stat(dotGit).catch(() => undefined);
  if (stat?.isDirectory()) return nodePath.join(dotGit, 'config');
  if (!stat?.isFile()) return undefined;
  const pointer = /^gitdir:\s*(.+)$/m.exec(
    new TextDecoder().decode((await readPrefix(dotGit, 4096).catch(() => undefined))?.bytes ?? new Uint8Array()),
  );
  if (!pointer?.[1]) return undefined;
  const gitDir = nodePath.resolve(root, pointer[1].trim());
  const common = new TextDecoder()
    .decode(
      (await readPrefix(nodePath.join(gitDir, 'commondir'), 4096).catch(() => undefined))?.bytes ?? new Uint8Array(),
    )
    .trim();
  return nodePath.join(common ? nodePath.resolve(gitDir, common) : gitDir, 'config');
}

/**
 * The paths relative to `root` (a workspace folder's real path, `/`-separated) that its
 * repository's config makes git run; none when it has no repository or they lie outside.
 */
export async function gitRunPaths(root: string, caseInsensitive: boolean): Promise<string[]> {
  const config = await configPath(root).catch(() => undefined);
  if (!config) return [];
  const text = await readPrefix(config, MAX_CONFIG_BYTES).then(
    ({ bytes }) => new TextDecoder().decode(bytes),
    () => '',
  );
  const fold = (path: string): string => (caseInsensitive ? path.toLowerCase() : path);
  return gitConfigRunValues(text).flatMap((value) => {
    if (value.startsWith('~')) return []; // the user's home: outside a workspace folder opened as a repository
    const absolute = nodePath.resolve(root, value);
    const relative = nodePath.relative(root, absolute);
    if (!relative || relative.startsWith('..') || nodePath.isAbsolute(relative) || fold(absolute) === fold(root))
      return [];
    return [relative.split(nodePath.sep).join('/')];
  });
}
