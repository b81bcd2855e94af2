// What a batch of file-change events means for the index, at the cost of the changed paths (no
// walk of the workspace): each path goes through the same gate as the full listing
// (WorkspaceFiles.listed: exclusions, .gitignore, sensitive files, links, the include glob), and
// the size cap is applied by statFiles as for a full scan. A path that is gone takes the indexed
// files below it along (a deleted or renamed folder is often one event). A folder that appeared
// (moved in, checked out) is listed, since watchers do not always report the files inside it.
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { WorkspaceFile } from '../../core/workspaceFiles/workspaceFile';
import { readSettings } from '../config';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { listIndexCandidates, type IndexCandidates } from './indexedFiles';

export interface ChangedFiles {
  /** The changed paths that are admitted now, as candidates (keys: URI strings). */
  readonly candidates: IndexCandidates;
  /** Every index key the events concern: admitted ones, and those to drop when not admitted. */
  readonly scope: Set<string>;
}

export async function changedFiles(
  service: WorkspaceFilesService,
  changed: readonly string[],
  indexed: Iterable<string>,
  signal?: AbortSignal,
): Promise<ChangedFiles> {
  const files = await service.open();
  const include = readSettings().search.include;
  const gitignores = files.gitignores();
  const byUri = new Map<string, WorkspaceFile>();
  const scope = new Set<string>();
  const gonePrefixes: string[] = [];
  const newFolders: string[] = [];
  for (const key of changed) {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    scope.add(key);
    const uri = vscode.Uri.parse(key);
    const info = uri.scheme === 'file' ? await stat(uri.fsPath).catch(() => undefined) : undefined;
    if (!info || info.isDirectory()) gonePrefixes.push(`${key}/`);
    if (info?.isDirectory()) newFolders.push(`${key}/`);
    if (!info?.isFile()) continue;
    const file = await files.listed(uri.fsPath, include, gitignores);
    if (!file) continue;
    const listedKey = service.uri(files, file).toString();
    scope.add(listedKey);
    byUri.set(listedKey, file);
  }
  if (gonePrefixes.length)
    for (const key of indexed) if (gonePrefixes.some((prefix) => key.startsWith(prefix))) scope.add(key);
  if (newFolders.length) {
    const listed = await listIndexCandidates(service, signal);
    for (const [key, file] of listed.byUri) {
      if (!newFolders.some((prefix) => key.startsWith(prefix))) continue;
      scope.add(key);
      byUri.set(key, file);
    }
    return { candidates: { files: listed.files, byUri }, scope };
  }
  return { candidates: { files, byUri }, scope };
}
