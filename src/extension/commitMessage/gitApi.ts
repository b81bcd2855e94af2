// The parts of VS Code's git extension API (extensions/git/src/api/git.d.ts, API version 1) that
// commit messages use, typed here rather than copied whole: the extension's exports are unknown
// until checked, and only these members are relied on.
import type * as vscode from 'vscode';

/** git.d.ts `Status`: the numbers the API reports a change's kind with. */
export const GitStatus = {
  INDEX_MODIFIED: 0,
  INDEX_ADDED: 1,
  INDEX_DELETED: 2,
  INDEX_RENAMED: 3,
  INDEX_COPIED: 4,
  MODIFIED: 5,
  DELETED: 6,
  UNTRACKED: 7,
  IGNORED: 8,
  INTENT_TO_ADD: 9,
  INTENT_TO_RENAME: 10,
  TYPE_CHANGED: 11,
  ADDED_BY_US: 12,
  ADDED_BY_THEM: 13,
  DELETED_BY_US: 14,
  DELETED_BY_THEM: 15,
  BOTH_ADDED: 16,
  BOTH_DELETED: 17,
  BOTH_MODIFIED: 18,
} as const;
export type GitStatus = (typeof GitStatus)[keyof typeof GitStatus];

export interface GitChange {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  readonly renameUri: vscode.Uri | undefined;
  readonly status: GitStatus;
}

interface GitCommit {
  readonly hash: string;
  readonly message: string;
}

interface GitInputBox {
  value: string;
}

interface GitRepositoryState {
  readonly indexChanges: readonly GitChange[];
  readonly workingTreeChanges: readonly GitChange[];
  /** Only when git.untrackedChanges is `separate`; otherwise untracked files are working-tree changes. */
  readonly untrackedChanges?: readonly GitChange[];
  readonly mergeChanges: readonly GitChange[];
  readonly onDidChange: vscode.Event<void>;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: GitInputBox;
  readonly state: GitRepositoryState;
  /** The staged diff of one file, against HEAD. */
  diffIndexWithHEAD(path: string): Promise<string>;
  /** The working tree's diff of one file, against HEAD (staged and unstaged together). */
  diffWithHEAD(path: string): Promise<string>;
  /** A blob's size without reading it: `''` for the index, `HEAD` for the last commit; throws for a path not there. Optional: older git extensions. */
  getObjectDetails?(treeish: string, path: string): Promise<{ readonly size: number }>;
  log(options?: { readonly maxEntries?: number }): Promise<readonly GitCommit[]>;
  status(): Promise<void>;
}

export interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: readonly GitRepository[];
  readonly onDidOpenRepository: vscode.Event<GitRepository>;
  getRepository(uri: vscode.Uri): GitRepository | null;
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}

export interface GitExtension {
  readonly enabled: boolean;
  readonly onDidChangeEnablement: vscode.Event<boolean>;
  getAPI(version: 1): GitApi;
}

/** The git extension's exports, checked for the members used (a stand-in extension could export anything). */
export function asGitExtension(exports: unknown): GitExtension | undefined {
  if (typeof exports !== 'object' || exports === null) return undefined;
  const candidate = exports as Partial<Record<keyof GitExtension, unknown>>;
  return typeof candidate.enabled === 'boolean' &&
    typeof candidate.getAPI === 'function' &&
    typeof candidate.onDidChangeEnablement === 'function'
    ? (exports as GitExtension)
    : undefined;
}
