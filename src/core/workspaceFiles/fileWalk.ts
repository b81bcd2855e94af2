// Lists the shared files of the workspace folders by walking them: excluded and .gitignored
// folders are never entered (so node_modules costs nothing), linked folders are not followed (a
// link may lead out of the workspace, or round in a loop), and a linked file is listed only when
// its real path is inside a workspace folder and shared there too. Sensitive files are counted,
// not listed.
import { promises as fs, type Dirent } from 'node:fs';
import * as nodePath from 'node:path';
import { compileGlob, type PathMatcher } from './glob';
import { locate, type GitignoreCache, type RootFolder } from './rootFolders';
import { admit, displayPath, type WorkspaceFile } from './workspaceFile';

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

export async function walkFiles(folders: readonly RootFolder[], gitignores: GitignoreCache, caseInsensitive: boolean, options: ListOptions): Promise<Listing> {
  const include = typeof options.include === 'string' ? compileGlob(options.include, caseInsensitive) : (options.include ?? (() => true));
  const maxVisited = options.maxVisited ?? DEFAULT_MAX_VISITED;
  const files: WorkspaceFile[] = [];
  const seen = new Set<string>();
  let sensitiveLeftOut = 0;
  let visited = 0;
  let truncated = false;

  const matches = (folder: RootFolder, path: string): boolean => include(path) || (folders.length > 1 && include(`${folder.name}/${path}`));

  const linkedFile = async (folder: RootFolder, path: string): Promise<WorkspaceFile | undefined> => {
    const real = await fs.realpath(nodePath.join(folder.real, ...path.split('/'))).catch(() => undefined);
    const target = real ? locate(folders, real, caseInsensitive) : undefined;
    if (!real || !target || !(await fs.stat(real).then((s) => s.isFile(), () => false))) return undefined;
    const admitted = await admit(target.folder, target.path, false, gitignores);
    if (admitted.excluded !== undefined) return undefined;
    const sensitive = admitted.sensitive ? [displayPath(folders, target.folder, target.path)] : [];
    return { folder: folder.index, path, display: displayPath(folders, folder, path), real, sensitive };
  };

  const walk = async (folder: RootFolder, dir: string): Promise<void> => {
    if (options.signal?.aborted) throw abortError();
    const entries: Dirent[] = await fs.readdir(nodePath.join(folder.real, ...dir.split('/').filter(Boolean)), { withFileTypes: true }).catch(() => []);
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
      const file = entry.isSymbolicLink() ? await linkedFile(folder, path) : { folder: folder.index, path, display: displayPath(folders, folder, path), real: nodePath.join(folder.real, ...path.split('/')), sensitive: [] };
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
