// The changes of a repository as the commit-message prompt may see them: the staged changes (all
// changes when nothing is staged), each file named, and its diff read only when the workspace gate
// lets it out. A sensitive file (by the gate, or by the sensitive globs on its repository path,
// which also covers renamed files' old names) is never diffed at all; an excluded, binary or
// outside one is named only, a deleted one judged by where it was. Git is asked for one file's diff at a time, so a withheld
// file's content is never even read; a file too large is named only, judged by its size before
// its diff is read (git's diff output is read whole), and once the diffs read pass a few budgets'
// worth the rest are named only: the prompt keeps one budget, more is only read to be cut.
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { sensitiveMatcher } from '../../core/workspaceFiles/sensitivePaths';
import type { WorkspaceFiles } from '../../core/workspaceFiles/workspaceFiles';
import { abortError } from '../../core/errors';
import {
  isBinaryDiff,
  untrackedDiff,
  type ChangedFile,
  type ChangeContent,
} from '../../core/commitMessage/changedFiles';
import { readSettings } from '../config';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { GitStatus, type GitChange, type GitRepository } from './gitApi';

/** Past this many files the rest are named without a diff: each diff is a git process. */
const MAX_DIFFED_FILES = 200;
/** A file (either side of its diff) past this many budgets is named only: its diff would be read whole to keep a sliver. */
const FILE_SIZE_BUDGETS = 3;
/** Once the diffs read reach this many budgets the rest are named only. */
const READ_BUDGETS = 4;

export interface RepositoryChanges {
  readonly scope: 'staged' | 'all';
  readonly files: readonly ChangedFile[];
}

const LETTERS: Readonly<Record<number, string>> = {
  [GitStatus.INDEX_MODIFIED]: 'M',
  [GitStatus.MODIFIED]: 'M',
  [GitStatus.INDEX_ADDED]: 'A',
  [GitStatus.INTENT_TO_ADD]: 'A',
  [GitStatus.INDEX_DELETED]: 'D',
  [GitStatus.DELETED]: 'D',
  [GitStatus.INDEX_RENAMED]: 'R',
  [GitStatus.INTENT_TO_RENAME]: 'R',
  [GitStatus.INDEX_COPIED]: 'C',
  [GitStatus.UNTRACKED]: '?',
  [GitStatus.TYPE_CHANGED]: 'T',
};

function letterOf(status: number): string {
  return LETTERS[status] ?? 'U';
}

function relative(repository: GitRepository, uri: vscode.Uri): string {
  return nodePath.relative(repository.rootUri.fsPath, uri.fsPath).split(nodePath.sep).join('/');
}

export async function repositoryChanges(
  repository: GitRepository,
  service: WorkspaceFilesService,
  budget: number,
  signal?: AbortSignal,
): Promise<RepositoryChanges> {
  // The extension refreshes its state after file events, a moment late: ask git now.
  await repository.status();
  const state = repository.state;
  const staged = state.indexChanges;
  const scope = staged.length > 0 ? 'staged' : 'all';
  const changes =
    scope === 'staged'
      ? staged
      : [...state.mergeChanges, ...state.workingTreeChanges, ...(state.untrackedChanges ?? [])];
  const files = await service.open();
  const sensitive = sensitiveMatcher(readSettings().sensitiveFiles);
  const seen = new Set<string>();
  const out: ChangedFile[] = [];
  let read = 0;
  for (const change of changes) {
    // Stop between git processes: a large change set is hundreds of them.
    if (signal?.aborted) throw abortError(signal);
    const uri = change.renameUri ?? change.uri;
    const path = relative(repository, uri);
    if (seen.has(path)) continue;
    seen.add(path);
    const oldPath =
      change.renameUri && change.originalUri.fsPath !== change.renameUri.fsPath
        ? relative(repository, change.originalUri)
        : undefined;
    const named = { path, status: letterOf(change.status), ...(oldPath ? { oldPath } : {}) };
    const spent = out.length >= MAX_DIFFED_FILES || read >= READ_BUDGETS * budget;
    const content = spent
      ? ({ kind: 'withheld', reason: 'budget' } as const)
      : await contentOf(
          repository,
          change,
          uri,
          scope,
          files,
          [path, ...(oldPath ? [oldPath] : [])].some((p) => sensitive(p) !== undefined),
          budget,
        );
    if (content.kind === 'diff') read += content.text.length;
    out.push({ ...named, content });
  }
  return { scope, files: out };
}

async function contentOf(
  repository: GitRepository,
  change: GitChange,
  uri: vscode.Uri,
  scope: 'staged' | 'all',
  files: WorkspaceFiles,
  sensitiveByName: boolean,
  budget: number,
): Promise<ChangeContent> {
  if (sensitiveByName) return { kind: 'withheld', reason: 'sensitive' };
  const deleted = change.status === GitStatus.INDEX_DELETED || change.status === GitStatus.DELETED;
  // A deleted file is judged where it was, as a new file there would be: its removed lines are
  // its content. A file outside the workspace folders (a repository opened above them) is named
  // only, as the workspace tools would not show it either.
  const gate = deleted ? await files.resolveForWrite(uri.fsPath) : await files.resolve(uri.fsPath);
  if (gate.ok && gate.file.sensitive.length > 0) return { kind: 'withheld', reason: 'sensitive' };
  if (!gate.ok)
    return {
      kind: 'withheld',
      reason: gate.problem === 'excluded' ? 'excluded' : gate.problem === 'outside' ? 'outside' : 'unreadable',
    };
  try {
    if (change.status === GitStatus.UNTRACKED) {
      const read = await files.read(gate.file, budget);
      if (read.kind === 'binary') return { kind: 'withheld', reason: 'binary' };
      return { kind: 'diff', text: untrackedDiff(relative(repository, uri), read.text, read.truncated) };
    }
    if (await tooLarge(repository, uri, scope, deleted, FILE_SIZE_BUDGETS * budget))
      return { kind: 'withheld', reason: 'tooLarge' };
    const path = uri.fsPath;
    const text = scope === 'staged' ? await repository.diffIndexWithHEAD(path) : await repository.diffWithHEAD(path);
    return isBinaryDiff(text) ? { kind: 'withheld', reason: 'binary' } : { kind: 'diff', text };
  } catch {
    return { kind: 'withheld', reason: 'unreadable' };
  }
}

/** Whether either side of the file's diff is past `limit` bytes: the new one (the staged blob, or the working file) or the committed one. */
async function tooLarge(
  repository: GitRepository,
  uri: vscode.Uri,
  scope: 'staged' | 'all',
  deleted: boolean,
  limit: number,
): Promise<boolean> {
  const path = relative(repository, uri);
  const blobSize = async (treeish: string): Promise<number> =>
    repository.getObjectDetails
      ? repository.getObjectDetails(treeish, path).then(
          (details) => details.size,
          () => 0,
        )
      : 0;
  const newSide = deleted
    ? 0
    : scope === 'staged' && repository.getObjectDetails
      ? await blobSize('')
      : await fs.stat(uri.fsPath).then(
          (stat) => stat.size,
          () => 0,
        );
  if (newSide > limit) return true;
  return (await blobSize('HEAD')) > limit;
}
