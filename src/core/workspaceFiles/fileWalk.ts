// Lists the shared files of the workspace folders by walking them: excluded and .gitignored
// folders are never entered (so node_modules costs nothing), linked folders are not followed (a
// link may lead out of the workspace, or round in a loop), and a linked file is listed only when
// its real path is inside a workspace folder and shared there too. Sensitive files are counted,
// not listed.
import { promises as fs, type Dirent } from 'node:fs';
import * as nodePath from 'node:path';
import { compileGlob, type PathMatcher } from './glob';
import { locate, relativeInside, type GitignoreCache, type RootFolder } from './rootFolders';
import type { GuardedPath, GuardReason } from './guardedWrites';
import { admit, displayPath, noteGuarded, type WorkspaceFile } from './workspaceFile';

function guardedOf(display: string, reason: GuardReason | undefined): GuardedPath[] {
  return reason ? [{ path: display, reason }] : [];
}

export interface ListOptions {
  /** Glob (or matcher) over folder-relative paths, or over `folder/path` in a multi-root workspace. */
  readonly include?: string | PathMatcher;
  /** Most files returned. */
  readonly limit: number;
  /** Most folder entries looked at, whatever matched: bounds the time a huge tree can take. */
  readonly maxVisited?: number;
  readonly signal?: AbortSignal;
}

export interface Listing {
  /** Sorted by display path within each folder. */
  readonly files: WorkspaceFile[];
  /** Sensitive files and folders that matched and were left out. */
  readonly sensitiveLeftOut: number;
  /** True when the limit (or maxVisited) stopped the walk early. */
  readonly truncated: boolean;
}

const DEFAULT_MAX_VISITED = 200_000;

function abortError(): Error {
  return Object.assign(new Error('The listing was cancelled.'), { name: 'AbortError' });
}

export async function walkFiles(
  folders: readonly RootFolder[],
  gitignores: GitignoreCache,
  caseInsensitive: boolean,
  options: ListOptions,
): Promise<Listing> {
  const include =
    typeof options.include === 'string'
      ? compileGlob(options.include, caseInsensitive)
      : (options.include ?? (() => true));
  const maxVisited = options.maxVisited ?? DEFAULT_MAX_VISITED;
  const files: WorkspaceFile[] = [];
  const seen = new Set<string>();
  let sensitiveLeftOut = 0;
  let visited = 0;
  let truncated = false;

  const matches = includeMatcher(folders, include);
  const linkedFile = (folder: RootFolder, path: string): Promise<WorkspaceFile | undefined> =>
    linkedFileOf(folders, gitignores, caseInsensitive, folder, path);

  const walk = async (folder: RootFolder, dir: string): Promise<void> => {
    if (options.signal?.aborted) throw abortError();
    const entries: Dirent[] = await fs
      .readdir(nodePath.join(folder.real, ...dir.split('/').filter(Boolean)), { withFileTypes: true })
      .catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (truncated) return;
      if (++visited > maxVisited) {
        truncated = true;
        return;
      }
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      const isFolder = entry.isDirectory();
      if (!isFolder && !entry.isFile() && !entry.isSymbolicLink()) continue; // sockets, FIFOs, devices
      const admitted = await admit(folder, path, isFolder, gitignores, true);
      if (admitted.excluded !== undefined) continue;
      if (admitted.sensitive) {
        if (isFolder || matches(folder, path)) sensitiveLeftOut++;
        continue;
      }
      if (isFolder) {
        await walk(folder, path);
        continue;
      }
      if (!matches(folder, path)) continue;
      const file = entry.isSymbolicLink()
        ? await linkedFile(folder, path)
        : {
            folder: folder.index,
            path,
            display: displayPath(folders, folder, path),
            real: nodePath.join(folder.real, ...path.split('/')),
            sensitive: [],
            guarded: guardedOf(displayPath(folders, folder, path), admitted.guarded),
          };
      // Nested workspace folders walk the same entries twice: list them once.
      const at = nodePath.join(folder.real, ...path.split('/'));
      if (!file || seen.has(at)) continue;
      if (file.sensitive.length) {
        sensitiveLeftOut++;
        continue;
      }
      if (files.length >= options.limit) {
        truncated = true; // one more than the limit exists
        return;
      }
      seen.add(at);
      files.push(file);
    }
  };

  for (const folder of folders) {
    if (truncated) break;
    await walk(folder, '');
  }
  return { files, sensitiveLeftOut, truncated };
}

function includeMatcher(
  folders: readonly RootFolder[],
  include: PathMatcher,
): (folder: RootFolder, path: string) => boolean {
  return (folder, path) => include(path) || (folders.length > 1 && include(`${folder.name}/${path}`));
}

/** A link listed at `path`: the file it leads to, when that is inside a folder and shared there. */
async function linkedFileOf(
  folders: readonly RootFolder[],
  gitignores: GitignoreCache,
  caseInsensitive: boolean,
  folder: RootFolder,
  path: string,
): Promise<WorkspaceFile | undefined> {
  const real = await fs.realpath(nodePath.join(folder.real, ...path.split('/'))).catch(() => undefined);
  const target = real ? locate(folders, real, caseInsensitive) : undefined;
  if (
    !real ||
    !target ||
    !(await fs.stat(real).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    return undefined;
  const admitted = await admit(target.folder, target.path, false, gitignores);
  if (admitted.excluded !== undefined) return undefined;
  const sensitive = admitted.sensitive ? [displayPath(folders, target.folder, target.path)] : [];
  const display = displayPath(folders, folder, path);
  const guarded: GuardedPath[] = [];
  noteGuarded(guarded, display, folder.rules.guardReason(path));
  noteGuarded(guarded, displayPath(folders, target.folder, target.path), admitted.guarded);
  return { folder: folder.index, path, display, real, sensitive, guarded };
}

/**
 * The file `walkFiles` would list for one absolute path, or undefined when it would not list it,
 * decided the same way (without the walk): no folder on the way is a link, excluded, .gitignored
 * or sensitive; the file itself is shared, not sensitive, matches `include`; a link leads to a
 * shared file inside the folders. Nested folders: the first folder that lists it, as the walk
 * does. For updating a listing from file-change events at the cost of the changed files only.
 */
export async function listedFileAt(
  folders: readonly RootFolder[],
  gitignores: GitignoreCache,
  caseInsensitive: boolean,
  absolute: string,
  include?: string | PathMatcher,
): Promise<WorkspaceFile | undefined> {
  const matcher = typeof include === 'string' ? compileGlob(include, caseInsensitive) : (include ?? (() => true));
  const matches = includeMatcher(folders, matcher);
  const lexical = nodePath.resolve(absolute);
  for (const folder of folders) {
    const path =
      relativeInside(nodePath.resolve(folder.path), lexical, caseInsensitive) ??
      relativeInside(folder.real, lexical, caseInsensitive);
    if (path === undefined) continue;
    const file = await listedIn(folder, path);
    if (file) return file;
  }
  return undefined;

  async function listedIn(folder: RootFolder, path: string): Promise<WorkspaceFile | undefined> {
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const dir = segments.slice(0, depth).join('/');
      const entry = await fs.lstat(nodePath.join(folder.real, ...segments.slice(0, depth))).catch(() => undefined);
      if (!entry?.isDirectory()) return undefined; // gone, or a link the walk does not follow
      const admitted = await admit(folder, dir, true, gitignores, true);
      if (admitted.excluded !== undefined || admitted.sensitive) return undefined;
    }
    const entry = await fs.lstat(nodePath.join(folder.real, ...segments)).catch(() => undefined);
    if (!entry || (!entry.isFile() && !entry.isSymbolicLink())) return undefined;
    const admitted = await admit(folder, path, false, gitignores, true);
    if (admitted.excluded !== undefined || admitted.sensitive || !matches(folder, path)) return undefined;
    const file = entry.isSymbolicLink()
      ? await linkedFileOf(folders, gitignores, caseInsensitive, folder, path)
      : {
          folder: folder.index,
          path,
          display: displayPath(folders, folder, path),
          real: nodePath.join(folder.real, ...segments),
          sensitive: [],
          guarded: guardedOf(displayPath(folders, folder, path), admitted.guarded),
        };
    return file && !file.sensitive.length ? file : undefined;
  }
}
