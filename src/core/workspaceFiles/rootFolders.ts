// The workspace folders as real paths on disk, the question "which folder holds this real path,
// and where in it", and the .gitignore files that apply to a folder inside one.
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { readPrefix } from './boundedRead';
import { FileRules, type ExcludeGlobs } from './fileRules';
import { parseGitignore, type GitignoreFile, type GitignoreRule } from './gitignore';
import { NOT_KEPT, type ExclusionBaseline } from './exclusionBaseline';
import { gitRunPaths } from './gitRunPaths';

export interface FolderConfig {
  /** The folder's name as the editor shows it (multi-root paths start with it). */
  readonly name: string;
  /** Absolute path on disk as the editor knows it (it may be, or pass through, a link). */
  readonly path: string;
  readonly excludes: ExcludeGlobs;
}

export interface RootFolder extends FolderConfig {
  readonly index: number;
  /** The folder's real path: what every resolved path is checked against. */
  readonly real: string;
  readonly rules: FileRules;
  /** Folder-relative paths its repository's config makes git run (gitRunPaths.ts): guarded by `rules` too. */
  readonly runByGit: readonly string[];
}

/** A .gitignore larger than this is read only this far (a rule file, not data). */
const MAX_GITIGNORE_BYTES = 1_000_000;

export async function openFolders(
  folders: readonly FolderConfig[],
  sensitive: readonly string[],
  caseInsensitive: boolean,
  guarded: readonly string[] = [],
): Promise<RootFolder[]> {
  return Promise.all(
    folders.map(async (folder, index) => {
      const real = await fs.realpath(folder.path).catch(() => nodePath.resolve(folder.path));
      // What the repository's own config makes git run (a custom hooks folder) is guarded like .git/hooks; anchored, glob characters escaped.
      const runByGit = await gitRunPaths(real, caseInsensitive);
      const runGlobs = runByGit.map((path) => `/${path.replace(/[\\*?{}[\]!]/g, '\\$&')}`);
      return {
        ...folder,
        index,
        real,
        runByGit,
        rules: new FileRules(
          folder.excludes,
          sensitive,
          caseInsensitive,
          [...guarded, ...runGlobs],
          [real, nodePath.resolve(folder.path)],
        ),
      };
    }),
  );
}

/** `child` relative to `parent` with `/` separators, or undefined when it is not inside (or is) it. */
export function relativeInside(parent: string, child: string, caseInsensitive: boolean): string | undefined {
  const p = caseInsensitive ? parent.toLowerCase() : parent;
  const c = caseInsensitive ? child.toLowerCase() : child;
  const prefix = p.endsWith(nodePath.sep) ? p : p + nodePath.sep;
  if (!c.startsWith(prefix)) return undefined;
  const relative = child.slice(prefix.length);
  return relative ? relative.split(nodePath.sep).join('/') : undefined;
}

/** Like relativeInside, but the folder itself is '' (a working folder may be the root). */
export function relativeWithin(parent: string, child: string, caseInsensitive: boolean): string | undefined {
  const trim = (path: string): string => {
    const folded = caseInsensitive ? path.toLowerCase() : path;
    return folded.length > 1 && folded.endsWith(nodePath.sep) ? folded.slice(0, -1) : folded;
  };
  return trim(parent) === trim(child) ? '' : relativeInside(parent, child, caseInsensitive);
}

/** The folder whose real path holds `real` (the deepest, when folders nest), and the path in it. */
export function locate(
  folders: readonly RootFolder[],
  real: string,
  caseInsensitive: boolean,
): { folder: RootFolder; path: string } | undefined {
  let best: { folder: RootFolder; path: string } | undefined;
  for (const folder of folders) {
    const path = relativeInside(folder.real, real, caseInsensitive);
    if (path !== undefined && (!best || folder.real.length > best.folder.real.length)) best = { folder, path };
  }
  return best;
}

/** One .gitignore as read now, and as the conversation first saw it (the same when there is no baseline). */
interface IgnoreEntry {
  readonly now: GitignoreFile | undefined;
  readonly past: GitignoreFile | undefined;
  readonly changed: boolean;
  /** The conversation could not tell what it was (NOT_KEPT): `past` excludes the whole folder. */
  readonly notKept?: true;
}

/** What a .gitignore the conversation could not keep track of is taken to say: everything is left out. */
const EVERYTHING: readonly GitignoreRule[] = [{ negated: false, folderOnly: false, matches: () => true }];

/** The same files as first seen, when some changed since; `notKept` when one could not be told. */
export interface PastChain {
  readonly files: GitignoreFile[];
  readonly notKept: boolean;
}

/**
 * The .gitignore files of folders, read once per operation (edits between operations count). With
 * a conversation's baseline (exclusionBaseline.ts), also each file as that conversation first saw
 * it: the baseline keeps text only, parsed again here when it differs from today's.
 */
export class GitignoreCache {
  private readonly read = new Map<string, Promise<IgnoreEntry>>();

  constructor(
    private readonly caseInsensitive: boolean,
    private readonly baseline?: ExclusionBaseline,
  ) {}

  private entry(folder: RootFolder, dir: string): Promise<IgnoreEntry> {
    const key = `${folder.index}\0${dir}`;
    let found = this.read.get(key);
    if (!found) {
      const path = nodePath.join(folder.real, ...dir.split('/').filter(Boolean), '.gitignore');
      found = readPrefix(path, MAX_GITIGNORE_BYTES)
        .then(
          ({ bytes }) => new TextDecoder().decode(bytes),
          () => undefined,
        )
        .then((text): IgnoreEntry => {
          const parse = (content: string | undefined): GitignoreFile | undefined =>
            content === undefined ? undefined : { base: dir, rules: parseGitignore(content, this.caseInsensitive) };
          const now = parse(text);
          if (!this.baseline) return { now, past: now, changed: false };
          // Keyed as the disk names it: on a case-insensitive disk `SUB/` is the `sub/` seen before.
          const fold = (name: string): string => (this.caseInsensitive ? name.toLowerCase() : name);
          const seen = this.baseline.ignoreFile(fold(folder.real), fold(dir), text);
          if (seen === NOT_KEPT) return { now, past: { base: dir, rules: EVERYTHING }, changed: true, notKept: true };
          return seen === text ? { now, past: now, changed: false } : { now, past: parse(seen), changed: true };
        });
      this.read.set(key, found);
    }
    return found;
  }

  /** The .gitignore of folder `dir` ('' for the workspace folder itself), if it has one. */
  async file(folder: RootFolder, dir: string): Promise<GitignoreFile | undefined> {
    return (await this.entry(folder, dir)).now;
  }

  /** Every .gitignore that applies inside folder `dir`: the workspace folder's first. */
  async chain(folder: RootFolder, dir: string): Promise<GitignoreFile[]> {
    return (await this.entries(folder, dir)).flatMap((entry) => (entry.now ? [entry.now] : []));
  }

  /**
   * The same files as the conversation first saw them, or undefined when none has changed since
   * (then `chain` says it all).
   */
  async pastChain(folder: RootFolder, dir: string): Promise<PastChain | undefined> {
    const entries = await this.entries(folder, dir);
    if (!entries.some((entry) => entry.changed)) return undefined;
    return {
      files: entries.flatMap((entry) => (entry.past ? [entry.past] : [])),
      notKept: entries.some((entry) => entry.notKept),
    };
  }

  private entries(folder: RootFolder, dir: string): Promise<IgnoreEntry[]> {
    const parts = dir ? dir.split('/') : [];
    const dirs = ['', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
    return Promise.all(dirs.map((d) => this.entry(folder, d)));
  }
}
