// Where a file that may not exist yet sits in the workspace folders, and back: a path a checkpoint
// keeps (folder identity and name + folder-relative path) as an absolute path, checked again on
// the way back. The folder is found by its identity (folderIdentity.ts), never by its name alone:
// two open folders may share a name.
// A file about to be created has no real path, so its nearest existing ancestor is followed
// through links instead (nearestReal.ts): a path that leads out of every folder (`..`, a link),
// or through a link that leads nowhere, is refused.
import * as nodePath from 'node:path';
import { folderIdentity } from './folderIdentity';
import { realOfNearest } from './nearestReal';
import { locate, relativeInside, type RootFolder } from './rootFolders';

export type Placement =
  | {
      readonly ok: true;
      readonly folder: RootFolder;
      readonly folderId: string;
      readonly path: string;
      readonly absolute: string;
    }
  | { readonly ok: false; readonly message: string };

/** A kept folder: its identity, and its name (for the message when it is not open). */
export interface FolderRef {
  readonly name: string;
  readonly id: string;
}

/** An absolute path (existing or not) as a folder and a path in it, when it is inside one by its real path. */
export async function placeAbsolute(
  folders: readonly RootFolder[],
  absolute: string,
  caseInsensitive: boolean,
): Promise<Placement> {
  const lexical = nodePath.resolve(absolute);
  const named = folders
    .map((folder) => ({
      folder,
      path:
        relativeInside(nodePath.resolve(folder.path), lexical, caseInsensitive) ??
        relativeInside(folder.real, lexical, caseInsensitive),
    }))
    .filter((c): c is { folder: RootFolder; path: string } => c.path !== undefined)
    .sort((a, b) => a.path.length - b.path.length)[0];
  if (!named) return { ok: false, message: `${lexical} is outside the workspace folders.` };
  const real = await realOfNearest(lexical);
  if (!real.ok)
    return {
      ok: false,
      message: `${named.path} ${real.problem === 'unresolvable' ? 'goes through a link that leads nowhere' : 'is not on any disk'}.`,
    };
  const target = locate(folders, real.real, caseInsensitive);
  if (!target) return { ok: false, message: `${named.path} leads outside the workspace folders (through a link).` };
  return {
    ok: true,
    folder: named.folder,
    folderId: folderIdentity(named.folder.path, caseInsensitive),
    path: named.path,
    absolute: lexical,
  };
}

/** The open folder a kept reference names, by identity (never by name: two may share it). */
function findFolder(folders: readonly RootFolder[], ref: FolderRef, caseInsensitive: boolean): RootFolder | string {
  return (
    folders.find((f) => folderIdentity(f.path, caseInsensitive) === ref.id) ??
    `the workspace folder "${ref.name}" is not open`
  );
}

/** A kept folder + path as an absolute path, checked to still resolve inside that folder. */
export async function resolvePlaced(
  folders: readonly RootFolder[],
  ref: FolderRef,
  path: string,
  caseInsensitive: boolean,
): Promise<Placement> {
  const folder = findFolder(folders, ref, caseInsensitive);
  if (typeof folder === 'string') return { ok: false, message: folder };
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..') || path.includes('\\') || path.includes('\0'))
    return { ok: false, message: 'the path is not a plain path inside the folder' };
  const absolute = nodePath.join(folder.path, ...segments);
  const real = await realOfNearest(absolute);
  if (!real.ok)
    return {
      ok: false,
      message: real.problem === 'unresolvable' ? 'it goes through a link that leads nowhere' : 'it is not on any disk',
    };
  const inside = relativeInside(folder.real, real.real, caseInsensitive);
  if (inside === undefined) return { ok: false, message: 'it leads outside the workspace folder (through a link)' };
  return { ok: true, folder, folderId: folderIdentity(folder.path, caseInsensitive), path, absolute };
}
