// The one gate between the workspace's files and anything that sends them to a model: the chat's
// workspace tools, @ file mentions and semantic indexing. A path is resolved to its real path
// (links, `..`, case, multi-root folder names) and served only when that real path is inside a
// workspace folder and not left out by files.exclude, search.exclude or a .gitignore; sensitive
// files are flagged for the caller to ask about. Reads are bounded by a byte cap checked against
// fstat, so a large file is never read whole.
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { readTextPrefix, type FileContent } from './boundedRead';
import { placeAbsolute, resolvePlaced, type FolderRef, type Placement } from './placePath';
import { listedFileAt, walkFiles, type Listing, type ListOptions } from './fileWalk';
import type { PathMatcher } from './glob';
import { GitignoreCache, locate, openFolders, relativeInside, type FolderConfig, type RootFolder } from './rootFolders';
import type { GuardedPath } from './guardedWrites';
import { admit, displayPath, noteGuarded, type WorkspaceFile } from './workspaceFile';
import { resolveNewFile, type NewFileResolution } from './newFileTarget';
import { realOfNearest } from './nearestReal';
import type { ExclusionBaseline } from './exclusionBaseline';
import { findGuardedLinks, linksReaching, type GuardedLinks } from './guardedLinks';

export interface WorkspaceFilesConfig {
  readonly folders: readonly FolderConfig[];
  /** Globs added to the built-in sensitive patterns. */
  readonly sensitive?: readonly string[];
  /** Globs added to the built-in files a write to which is always asked (guardedWrites.ts). */
  readonly guarded?: readonly string[];
  /** Whether paths differing only in case are one file (Windows, macOS). */
  readonly caseInsensitive?: boolean;
  /** A conversation's memory of what was excluded when it began: still excluded (exclusionBaseline.ts). */
  readonly baseline?: ExclusionBaseline;
}

type ResolveProblem = 'invalid' | 'outside' | 'missing' | 'excluded' | 'folder';

export type Resolution =
  | { readonly ok: true; readonly file: WorkspaceFile }
  | { readonly ok: false; readonly problem: ResolveProblem; readonly message: string };

/** A file to write: one that exists, or one to create (`exists: false`). */
export type WriteResolution =
  | { readonly ok: true; readonly file: WorkspaceFile; readonly exists: boolean }
  | { readonly ok: false; readonly problem: ResolveProblem; readonly message: string };

interface Candidate {
  readonly folder: RootFolder;
  /** Absolute, as asked (before links are followed). */
  readonly lexical: string;
  readonly path: string;
}

export class WorkspaceFiles {
  /** The guarded links of the folders, looked for once per view, at its first write (guardedLinks.ts). */
  private guardedLinks: Promise<GuardedLinks> | undefined;

  private constructor(
    private readonly folders: readonly RootFolder[],
    private readonly caseInsensitive: boolean,
    private readonly baseline: ExclusionBaseline | undefined,
  ) {}

  static async open(config: WorkspaceFilesConfig): Promise<WorkspaceFiles> {
    const caseInsensitive = config.caseInsensitive ?? false;
    const { baseline } = config;
    const folders = baseline
      ? config.folders.map((folder) => ({
          ...folder,
          excludes: baseline.excludes(nodePath.resolve(folder.path), folder.excludes),
        }))
      : config.folders;
    return new WorkspaceFiles(
      await openFolders(folders, config.sensitive ?? [], caseInsensitive, config.guarded ?? []),
      caseInsensitive,
      baseline,
    );
  }

  get folderCount(): number {
    return this.folders.length;
  }

  /**
   * A path as a model or a user writes it (folder-relative, `folder/path` in a multi-root
   * workspace, or absolute) as a workspace file, or why it is not one. The message is written for
   * the model to read. `write`: its `guarded` also names what costs more to find (a guarded link
   * leading to it, other names of a hard link): for the edit tools and Apply, not for reads.
   */
  async resolve(input: string, purpose: 'read' | 'write' = 'read'): Promise<Resolution> {
    const asked = input.trim().replace(/\\/g, '/');
    const refuse = (problem: ResolveProblem, message: string): Resolution => ({ ok: false, problem, message });
    if (!asked || asked.includes('\0') || (/^[a-z][a-z0-9+.-]+:/i.test(asked) && !/^[a-z]:\//i.test(asked)))
      return refuse('invalid', `"${input}" is not a file path.`);
    const candidates = this.candidates(asked);
    if (candidates.length === 0)
      return refuse(
        'outside',
        `${asked} is outside the workspace folders: the workspace tools only see files inside them.`,
      );
    const gitignores = this.gitignores();
    for (const candidate of candidates) {
      const real = await fs.realpath(candidate.lexical).catch(() => undefined);
      if (!real) continue;
      const target = locate(this.folders, real, this.caseInsensitive);
      // Do not say where the link leads: that is a path of the user's machine outside the workspace.
      if (!target)
        return refuse(
          'outside',
          `${asked} leads outside the workspace folders (through a link): the workspace tools only see files inside them.`,
        );
      const display = displayPath(this.folders, candidate.folder, candidate.path);
      const stat = await fs.stat(real).catch(() => undefined);
      if (!stat?.isFile()) return refuse('folder', `${display} is a folder, not a file.`);
      const sensitive: string[] = [];
      const guarded: GuardedPath[] = [];
      for (const [folder, path] of [
        [candidate.folder, candidate.path],
        [target.folder, target.path],
      ] as const) {
        const admitted = await admit(folder, path, false, gitignores);
        const shown = displayPath(this.folders, folder, path);
        if (admitted.excluded !== undefined)
          return refuse('excluded', `${shown} is excluded by ${admitted.excluded}: the workspace tools do not see it.`);
        if (admitted.sensitive && !sensitive.includes(shown)) sensitive.push(shown);
        noteGuarded(guarded, shown, admitted.guarded);
      }
      if (purpose === 'write') {
        await this.noteLinksTo(real, display, guarded);
        // A hard link's other names (a hook, a script) cannot be found without reading every
        // folder's entries by inode: a file that has them is always asked.
        if (stat.nlink > 1) noteGuarded(guarded, display, 'otherNames');
      }
      return {
        ok: true,
        file: { folder: candidate.folder.index, path: candidate.path, display, real, sensitive, guarded },
      };
    }
    return refuse('missing', `No file ${asked} in the workspace.`);
  }

  /**
   * A path to write (Apply, edits): an existing file as `resolve` gives it, or a file that does
   * not exist yet under the same rules: inside a workspace folder by the real path of its nearest
   * existing folder (no link leading out), not excluded, sensitive flagged. `exists` tells which.
   */
  async resolveForWrite(input: string): Promise<WriteResolution> {
    const existing = await this.resolve(input, 'write');
    if (existing.ok) return { ...existing, exists: true };
    if (existing.problem !== 'missing') return existing;
    const asked = input.trim().replace(/\\/g, '/');
    const candidate = this.candidates(asked)[0];
    if (!candidate) return existing;
    // The nearest entry on the way that exists, by its real path; the rest is to be created. A
    // link there that leads nowhere is refused: writing through it would create its target,
    // wherever that is (resolve() calls such a path missing, since it has no real path).
    const nearest = await realOfNearest(candidate.lexical);
    if (!nearest.ok && nearest.problem === 'nothing') return existing;
    const segments = candidate.path.split('/');
    const nearestShown = displayPath(
      this.folders,
      candidate.folder,
      segments.slice(0, segments.length - nearest.rest.length).join('/'),
    );
    if (!nearest.ok) {
      const link = nearest.rest.length === 0 ? asked : `${nearestShown} (on the way to ${asked})`;
      return {
        ok: false,
        problem: 'invalid',
        message: `${link} is a link that leads nowhere: writing there would create a file wherever the link points, maybe outside the workspace folders. Remove the link, or write to another path.`,
      };
    }
    if (nearest.rest.length === 0)
      return { ok: false, problem: 'invalid', message: `${asked} appeared while it was being checked: try again.` };
    if (
      !(await fs.stat(nearest.realNearest).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    )
      return {
        ok: false,
        problem: 'invalid',
        message: `${asked} cannot be created: ${nearestShown} is a file, not a folder.`,
      };
    const real = nearest.real;
    const target = locate(this.folders, real, this.caseInsensitive);
    if (!target)
      return {
        ok: false,
        problem: 'outside',
        message: `${asked} leads outside the workspace folders (through a link).`,
      };
    const gitignores = this.gitignores();
    const sensitive: string[] = [];
    const guarded: GuardedPath[] = [];
    for (const [folder, path] of [
      [candidate.folder, candidate.path],
      [target.folder, target.path],
    ] as const) {
      const admitted = await admit(folder, path, false, gitignores);
      const shown = displayPath(this.folders, folder, path);
      if (admitted.excluded !== undefined)
        return { ok: false, problem: 'excluded', message: `${shown} is excluded by ${admitted.excluded}.` };
      if (admitted.sensitive && !sensitive.includes(shown)) sensitive.push(shown);
      noteGuarded(guarded, shown, admitted.guarded);
    }
    const display = displayPath(this.folders, candidate.folder, candidate.path);
    await this.noteLinksTo(real, display, guarded);
    return {
      ok: true,
      exists: false,
      file: { folder: candidate.folder.index, path: candidate.path, display, real, sensitive, guarded },
    };
  }

  /**
   * A path where a new file would be written (create, the target of a rename), or why it may not
   * be: outside the folders (also through a linked folder), existing already, excluded.
   */
  async resolveNew(input: string): Promise<NewFileResolution> {
    const asked = input.trim().replace(/\\/g, '/');
    if (!asked || asked.includes('\0') || (/^[a-z][a-z0-9+.-]+:/i.test(asked) && !/^[a-z]:\//i.test(asked)))
      return { ok: false, problem: 'invalid', message: `"${input}" is not a file path.` };
    return resolveNewFile(
      this.folders,
      this.caseInsensitive,
      asked,
      this.candidates(asked)[0],
      this.gitignores(),
      (real, display, guarded) => this.noteLinksTo(real, display, guarded),
    );
  }

  /**
   * Adds to `guarded` the guarded links that lead to `real` (or to a folder holding it), written
   * as `display`; when the workspace is too large to look at every link, `display` itself.
   */
  private async noteLinksTo(real: string, display: string, guarded: GuardedPath[]): Promise<void> {
    this.guardedLinks ??= findGuardedLinks(this.folders, new GitignoreCache(this.caseInsensitive));
    const found = await this.guardedLinks;
    for (const link of linksReaching(found, real, this.caseInsensitive)) noteGuarded(guarded, link.path, link.reason);
    if (!found.complete) noteGuarded(guarded, display, 'otherNames');
  }

  /** The shared files (sensitive ones counted, not listed). */
  list(options: ListOptions): Promise<Listing> {
    return walkFiles(this.folders, this.gitignores(), this.caseInsensitive, options);
  }

  /**
   * Whether `list` would list the file at this absolute path (with this include glob), and as what:
   * the same gate, for a few changed files instead of a walk of the workspace. Reuse one
   * `GitignoreCache` (from `gitignores()`) across a batch of paths.
   */
  listed(
    absolute: string,
    include?: string | PathMatcher,
    gitignores = this.gitignores(),
  ): Promise<WorkspaceFile | undefined> {
    return listedFileAt(this.folders, gitignores, this.caseInsensitive, absolute, include);
  }

  /** A cache of .gitignore files for one batch of `listed` calls. */
  gitignores(): GitignoreCache {
    return new GitignoreCache(this.caseInsensitive, this.baseline);
  }

  /** The start of a file, at most `maxBytes` of it, with its whole size from fstat. */
  read(file: WorkspaceFile, maxBytes: number): Promise<FileContent> {
    return readTextPrefix(file.real, maxBytes);
  }

  async stat(file: WorkspaceFile): Promise<{ readonly size: number; readonly mtime: number }> {
    const stat = await fs.stat(file.real);
    return { size: stat.size, mtime: stat.mtimeMs };
  }

  /** The absolute path a file was asked for or listed under (for the editor's URIs). */
  absolutePath(file: WorkspaceFile): string {
    const folder = this.folders[file.folder];
    return folder ? nodePath.join(folder.path, ...file.path.split('/')) : file.real;
  }

  /**
   * Where an absolute path (existing or not: a file about to be created) sits: its folder and the
   * path in it, refused when its real path (through links) leaves the folders. Unlike `resolve`,
   * excluded files count: checkpoints keep whatever a reply changes.
   */
  place(absolute: string): Promise<Placement> {
    return placeAbsolute(this.folders, absolute, this.caseInsensitive);
  }

  /** A folder (identity and name, as `place` gave them) + folder-relative path back as an absolute path, checked again. */
  placed(folder: FolderRef, path: string): Promise<Placement> {
    return resolvePlaced(this.folders, folder, path, this.caseInsensitive);
  }

  /** The places `asked` may name, best first; none when every reading leaves the folders. */
  private candidates(asked: string): Candidate[] {
    const found: Candidate[] = [];
    const add = (folder: RootFolder, lexical: string): void => {
      // Checked against both the folder as named and its real path: a folder may itself be a link.
      const path =
        relativeInside(nodePath.resolve(folder.path), lexical, this.caseInsensitive) ??
        relativeInside(folder.real, lexical, this.caseInsensitive);
      if (path !== undefined && !found.some((c) => c.lexical === lexical)) found.push({ folder, lexical, path });
    };
    if (nodePath.isAbsolute(asked) || /^[a-z]:\//i.test(asked)) {
      const lexical = nodePath.resolve(asked);
      for (const folder of this.folders) add(folder, lexical);
      return found;
    }
    const relative = asked.replace(/^(\.\/)+/, '');
    const first = relative.split('/')[0];
    if (this.folders.length > 1) {
      const named = this.folders.find((folder) => folder.name === first);
      if (named) add(named, nodePath.resolve(named.path, relative.slice(named.name.length + 1)));
    }
    for (const folder of this.folders) add(folder, nodePath.resolve(folder.path, relative));
    return found;
  }
}
