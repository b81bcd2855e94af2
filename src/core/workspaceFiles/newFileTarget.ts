// Where a file that does not exist yet would be written (a model's create_file, the target of a
// rename): the same gate as reading. The path as asked must lie in a workspace folder, and so must
// the real path of its nearest existing folder (a linked folder leading out is refused, and so is
// a dangling link at the path itself, which would write wherever it points). A path that
// files.exclude, search.exclude or a .gitignore leaves out is refused; a sensitive one is flagged,
// and so is one whose content can run code (guardedWrites.ts).
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { realOfNearest } from './nearestReal';
import { GitignoreCache, locate, type RootFolder } from './rootFolders';
import type { GuardedPath } from './guardedWrites';
import { admit, displayPath, noteGuarded, type PlacedPath } from './workspaceFile';

interface NewFileTarget extends PlacedPath {
  /** The absolute path to write (as asked: under the folder as the editor names it). */
  readonly absolute: string;
}

type NewFileProblem = 'invalid' | 'outside' | 'exists' | 'excluded' | 'folder';

export type NewFileResolution =
  | { readonly ok: true; readonly target: NewFileTarget }
  | { readonly ok: false; readonly problem: NewFileProblem; readonly message: string };

export interface NewFileCandidate {
  readonly folder: RootFolder;
  /** Absolute, as asked. */
  readonly lexical: string;
  readonly path: string;
}

const exists = (path: string): Promise<boolean> =>
  fs.lstat(path).then(
    () => true,
    () => false,
  );

export async function resolveNewFile(
  folders: readonly RootFolder[],
  caseInsensitive: boolean,
  asked: string,
  candidate: NewFileCandidate | undefined,
  gitignores = new GitignoreCache(caseInsensitive),
  noteLinksTo?: (real: string, display: string, guarded: GuardedPath[]) => Promise<void>,
): Promise<NewFileResolution> {
  const refuse = (problem: NewFileProblem, message: string): NewFileResolution => ({ ok: false, problem, message });
  if (!candidate)
    return refuse('outside', `${asked} is outside the workspace folders: the workspace tools only write inside them.`);
  const display = displayPath(folders, candidate.folder, candidate.path);
  if (asked.endsWith('/')) return refuse('invalid', `${asked} names a folder: give a file name.`);
  if (await exists(candidate.lexical)) {
    const isFile = await fs.stat(candidate.lexical).then(
      (s) => s.isFile(),
      () => false,
    );
    return refuse(
      'exists',
      isFile ? `${display} already exists.` : `${display} already exists (and is not a file it could replace).`,
    );
  }
  // The nearest folder on the way that exists: where the links are.
  const nearest = await realOfNearest(nodePath.dirname(candidate.lexical));
  if (!nearest.ok && nearest.problem === 'nothing')
    return refuse('outside', `${asked} is outside the workspace folders.`);
  const shownNearest = displayPath(
    folders,
    candidate.folder,
    candidate.path
      .split('/')
      .slice(0, -(nearest.rest.length + 1))
      .join('/'),
  );
  if (!nearest.ok)
    return refuse('folder', `${shownNearest} is a link that leads nowhere, so nothing is written through it.`);
  if (
    !(await fs.stat(nearest.realNearest).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    return refuse('folder', `${shownNearest} is not a folder.`);
  const target = locate(folders, nodePath.join(nearest.real, nodePath.basename(candidate.lexical)), caseInsensitive);
  // Do not say where the link leads: that is a path of the user's machine outside the workspace.
  if (!target)
    return refuse(
      'outside',
      `${asked} leads outside the workspace folders (through a link): the workspace tools only write inside them.`,
    );
  const sensitive: string[] = [];
  const guarded: GuardedPath[] = [];
  for (const [folder, path] of [
    [candidate.folder, candidate.path],
    [target.folder, target.path],
  ] as const) {
    const admitted = await admit(folder, path, false, gitignores);
    const shown = displayPath(folders, folder, path);
    if (admitted.excluded !== undefined)
      return refuse(
        'excluded',
        `${shown} is excluded by ${admitted.excluded}: the workspace tools do not write there.`,
      );
    if (admitted.sensitive && !sensitive.includes(shown)) sensitive.push(shown);
    noteGuarded(guarded, shown, admitted.guarded);
  }
  await noteLinksTo?.(nodePath.join(nearest.real, nodePath.basename(candidate.lexical)), display, guarded);
  return {
    ok: true,
    target: {
      folder: candidate.folder.index,
      path: candidate.path,
      display,
      absolute: candidate.lexical,
      sensitive,
      guarded,
    },
  };
}
