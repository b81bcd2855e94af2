// The folders a reply's writes created, so a restore can remove them again once they are empty.
// When a file is kept as absent, its checkpoint also notes how many of the folders holding it were
// absent too (`absentFolders`, innermost first): writing the file created them. Only those folders
// are ever removed, innermost first, and only when they are empty real folders where the reply
// made them (no link on the way): never a folder that existed before or that holds anything, such
// as a file the user added since.
import { promises as fs } from 'node:fs';
import { fileKey, type CheckpointManifest } from './checkpointManifest';
import type { PlanFile } from './restorePlan';

/**
 * How many of the folders holding `path` (folder-relative, `/`-separated) are absent, counted from
 * the innermost up to the first that exists; the workspace folder itself is never counted.
 * `exists` answers true whenever absence is not certain (a link, an unreadable entry).
 */
export async function countAbsentFolders(
  path: string,
  exists: (folderPath: string) => Promise<boolean>,
): Promise<number> {
  const segments = path.split('/');
  let absent = 0;
  for (let depth = segments.length - 1; depth > 0; depth--) {
    if (await exists(segments.slice(0, depth).join('/'))) break;
    absent++;
  }
  return absent;
}

const depth = (path: string): number => path.split('/').length;

/** The folders the manifests' replies created (by their `absentFolders` notes), each once, innermost first. */
export function createdFolders(manifests: readonly CheckpointManifest[]): PlanFile[] {
  const folders = new Map<string, PlanFile>();
  for (const manifest of manifests)
    for (const file of manifest.files) {
      const segments = file.path.split('/');
      for (let up = 1; up <= (file.absentFolders ?? 0) && up < segments.length; up++) {
        const folder = { folder: file.folder, folderId: file.folderId, path: segments.slice(0, -up).join('/') };
        folders.set(fileKey(folder), folder);
      }
    }
  return [...folders.values()].sort((a, b) => depth(b.path) - depth(a.path) || a.path.localeCompare(b.path));
}

export interface FolderToRemove {
  /** Folder-relative (logged). */
  readonly path: string;
  /** Where it is, as the workspace folder names it. */
  readonly absolute: string;
  /** Its real path when no link is on the way: the workspace folder's real path joined with `path`. */
  readonly real: string;
}

/**
 * Removes each folder, in the order given (innermost first), that is an empty real folder at its
 * own real place; anything else stays: gone, a link or a file now, reached through a link, or
 * holding anything (rmdir refuses a folder that is not empty at that very moment). Returns the
 * paths removed.
 */
export async function removeEmptyFolders(folders: readonly FolderToRemove[]): Promise<string[]> {
  const removed: string[] = [];
  for (const folder of folders) {
    const info = await fs.lstat(folder.absolute).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    if ((await fs.realpath(folder.absolute).catch(() => undefined)) !== folder.real) continue;
    try {
      await fs.rmdir(folder.absolute);
      removed.push(folder.path);
    } catch {
      // Not empty (or not ours to remove): kept.
    }
  }
  return removed;
}
