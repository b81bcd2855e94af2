// The other way through a link: a committed `package.json` (or `.vscode/`, or `.github` above
// `workflows/`) that is a link to `data/pkg.json` (`conf/`, `ci/`) makes a write to the
// harmless-looking target a write to what npm (the editor, CI) runs. Checking the path written and
// its real path does not see that, since the guarded name is the link's, elsewhere. So before a
// write the workspace is walked once for links (no file is read, links are not followed), each kept
// with its real target, and a write reaching that target, or a path below a linked folder, is
// judged by the name it has through the link (`.github` -> `ci/` makes `ci/workflows/x.yml`
// `.github/workflows/x.yml`). Excluded folders are not walked, except those that are guarded
// themselves (a gitignored `.vscode/`); git's hook folders (.git/hooks, and a custom core.hooksPath)
// are looked at too, and are links themselves as often as they hold links
// (`ln -s ../../scripts/check .git/hooks/pre-commit`, `ln -s ../hooks .git/hooks`).
// A link leading nowhere yet counts too: creating its missing target creates what the editor runs.
import { promises as fs, type Dirent } from 'node:fs';
import * as nodePath from 'node:path';
import type { GuardedPath, GuardReason } from './guardedWrites';
import { realOfNearest } from './nearestReal';
import { relativeWithin, type GitignoreCache, type RootFolder } from './rootFolders';
import { displayPath } from './workspaceFile';

interface GuardedLink {
  /** The link's displayed path (the name a write through it has). */
  readonly display: string;
  /** Its path in its workspace folder. */
  readonly path: string;
  /** Where it leads (a real path, a file or a folder). */
  readonly real: string;
  /** Why a write to the link's path (or below it) is always asked, if it is. */
  readonly guardReason: (path: string) => GuardReason | undefined;
}

export interface GuardedLinks {
  readonly links: readonly GuardedLink[];
  /** False when the walk stopped at its bound: some links were not looked at. */
  readonly complete: boolean;
}

/** Most folder entries looked at: bounds the time a huge tree can take. */
const MAX_VISITED = 200_000;

export async function findGuardedLinks(
  folders: readonly RootFolder[],
  gitignores: GitignoreCache,
  maxVisited = MAX_VISITED,
): Promise<GuardedLinks> {
  const links: GuardedLink[] = [];
  let visited = 0;
  let complete = true;

  // Every link, guarded name or not: what is guarded may lie below it (`.github` -> `ci/`).
  const note = async (folder: RootFolder, path: string): Promise<void> => {
    const real = await whereLinkLeads(nodePath.join(folder.real, ...path.split('/')));
    if (real)
      links.push({
        display: displayPath(folders, folder, path),
        path,
        real,
        guardReason: (below) => folder.rules.guardReason(below),
      });
  };

  const walk = async (folder: RootFolder, dir: string, enterExcluded: boolean): Promise<void> => {
    const entries: Dirent[] = await fs
      .readdir(nodePath.join(folder.real, ...dir.split('/').filter(Boolean)), { withFileTypes: true })
      .catch(() => []);
    for (const entry of entries) {
      if (++visited > maxVisited) {
        complete = false;
        return;
      }
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) await note(folder, path);
      else if (entry.isDirectory()) {
        // Excluded folders (node_modules, build output) are not walked: nothing there is written.
        // A guarded one is (a gitignored .vscode/ still runs its tasks), but not .git (its hooks
        // folders are walked below; its objects are thousands of entries that run nothing).
        const chain = enterExcluded ? [] : await gitignores.chain(folder, dir);
        const enter =
          enterExcluded ||
          folder.rules.excludedBy(path, true, chain, false) === undefined ||
          (entry.name !== '.git' && folder.rules.guardReason(path) !== undefined);
        if (enter) await walk(folder, path, enterExcluded);
      }
    }
  };

  for (const folder of folders) {
    await walk(folder, '', false);
    for (const hooks of ['.git/hooks', ...folder.runByGit]) {
      // A hooks folder that is a link: the files where it leads are what git runs.
      const stat = await fs.lstat(nodePath.join(folder.real, ...hooks.split('/'))).catch(() => undefined);
      if (stat?.isSymbolicLink()) await note(folder, hooks);
      await walk(folder, hooks, true);
    }
    if (!complete) break;
  }
  return { links, complete };
}

/** Most links followed one after another (as the kernel's own limit on a chain of links). */
const MAX_HOPS = 40;

/**
 * The real path a link leads to, also when that does not exist (yet): a dangling
 * `.vscode/tasks.json -> ../notes/todo.json` leads to where `notes/todo.json` would be created, by
 * the real path of its nearest existing folder. Undefined for a loop or an unreadable link.
 */
async function whereLinkLeads(link: string): Promise<string | undefined> {
  let path = link;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const nearest = await realOfNearest(path);
    if (nearest.ok) return nearest.real;
    if (nearest.problem === 'nothing') return undefined;
    // `nearest.nearest` exists but leads nowhere: a link (read it and go on from where it points).
    const target = await fs.readlink(nearest.nearest).catch(() => undefined);
    if (target === undefined) return undefined;
    const from = nodePath.dirname(nearest.nearest);
    const base = await fs.realpath(from).catch(() => from);
    path = nodePath.join(nodePath.resolve(base, target), ...nearest.rest);
  }
  return undefined;
}

/**
 * The guarded names a write to real path `real` has through links the other way (`real` is, or
 * lies under, what a link leads to, and the path it has through the link is guarded).
 */
export function linksReaching(found: GuardedLinks, real: string, caseInsensitive: boolean): GuardedPath[] {
  return found.links.flatMap((link) => {
    const below = relativeWithin(link.real, real, caseInsensitive);
    if (below === undefined) return [];
    const reason = link.guardReason(below ? `${link.path}/${below}` : link.path);
    return reason ? [{ path: below ? `${link.display}/${below}` : link.display, reason }] : [];
  });
}
