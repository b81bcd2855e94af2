// A file of the workspace as the tools, @ mentions and semantic search see it, and the check that
// admits one: inside the folders by its real path, not excluded, and sensitive or not.
import type { GuardedPath, GuardReason } from './guardedWrites';
import type { GitignoreCache, RootFolder } from './rootFolders';
import { AS_IT_WAS, NOT_KEPT_NOTE } from './exclusionBaseline';

/** Where a path stands in the workspace and what the rules say of it: an existing file, or one to create. */
export interface PlacedPath {
  /** Index of its workspace folder. */
  readonly folder: number;
  /** Folder-relative, `/`-separated: the path it was asked for or listed under (a link's own path). */
  readonly path: string;
  /** `path`, prefixed by the folder's name in a multi-root workspace (as the editor writes it). */
  readonly display: string;
  /** The displayed paths (its own, and its real one through a link) that are sensitive; empty when none is. */
  readonly sensitive: readonly string[];
  /**
   * The displayed paths (its own, its real one through a link, a guarded link's leading to it) a
   * write to which is always asked, and why. Worked out when a path is resolved, not by a listing
   * (a write resolves its path anew).
   */
  readonly guarded: readonly GuardedPath[];
}

export interface WorkspaceFile extends PlacedPath {
  /** The real path that is read. */
  readonly real: string;
}

export function displayPath(folders: readonly RootFolder[], folder: RootFolder, path: string): string {
  return folders.length > 1 ? `${folder.name}/${path}` : path;
}

export type Admission =
  | { readonly excluded: string }
  | { readonly excluded?: undefined; readonly sensitive: boolean; readonly guarded?: GuardReason };

/** Adds `path` to `list` when a write to it is always asked (once per path). */
export function noteGuarded(list: GuardedPath[], path: string, reason: GuardReason | undefined): void {
  if (reason && !list.some((entry) => entry.path === path)) list.push({ path, reason });
}

/**
 * Whether `path` of `folder` is shared: `excluded` names the setting or file that leaves it out
 * (now, or as the conversation's baseline first saw it). `foldersChecked`: its folders were
 * already admitted (a walk), so only the path itself is looked at, and why a write to it would be
 * asked is not worked out (a listing never writes; a write resolves its path anew).
 */
export async function admit(
  folder: RootFolder,
  path: string,
  isFolder: boolean,
  gitignores: GitignoreCache,
  foldersChecked = false,
): Promise<Admission> {
  const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const excluded = folder.rules.excludedBy(path, isFolder, await gitignores.chain(folder, parent), !foldersChecked);
  if (excluded) return { excluded };
  const past = await gitignores.pastChain(folder, parent);
  if (past && folder.rules.excludedBy(path, isFolder, past.files, !foldersChecked) === '.gitignore')
    return { excluded: `.gitignore${past.notKept ? NOT_KEPT_NOTE : AS_IT_WAS}` };
  const guarded = foldersChecked ? undefined : folder.rules.guardReason(path);
  return {
    sensitive: folder.rules.sensitivePattern(path, foldersChecked) !== undefined,
    ...(guarded ? { guarded } : {}),
  };
}
