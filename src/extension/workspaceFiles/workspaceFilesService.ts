// The workspace's files as the chat's tools, @ file mentions and semantic indexing see them: one
// service over core's WorkspaceFiles, built from the open folders, files.exclude, search.exclude
// and unifiedInference.sensitiveFiles. A view is built per operation (a few settings reads and a
// realpath per folder), so a changed setting or .gitignore counts from the next call on.
import * as vscode from 'vscode';
import { WorkspaceFiles, type Resolution } from '../../core/workspaceFiles/workspaceFiles';
import type { ExcludeGlobs } from '../../core/workspaceFiles/fileRules';
import type { ExclusionBaseline } from '../../core/workspaceFiles/exclusionBaseline';
import type { FolderConfig } from '../../core/workspaceFiles/rootFolders';
import type { WorkspaceFile } from '../../core/workspaceFiles/workspaceFile';
import { readSettings } from '../config';
import { Disposable } from '../lifecycle';

/** Settings that change which files are shared. */
const AFFECTING_SETTINGS = [
  'files.exclude',
  'search.exclude',
  'unifiedInference.sensitiveFiles',
  'unifiedInference.chat.alwaysAskEdits',
];

/** The entries of an exclude setting that are on; `{ when: ... }` entries depend on sibling files and are left out rather than applied to every file. */
function enabledGlobs(section: 'files' | 'search', folder: vscode.WorkspaceFolder): string[] {
  const value = vscode.workspace.getConfiguration(section, folder.uri).get<unknown>('exclude');
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([, on]) => on === true)
    .map(([glob]) => glob);
}

function folderConfig(folder: vscode.WorkspaceFolder): FolderConfig {
  const excludes: ExcludeGlobs = {
    'files.exclude': enabledGlobs('files', folder),
    'search.exclude': enabledGlobs('search', folder),
  };
  return { name: folder.name, path: folder.uri.fsPath, excludes };
}

export class WorkspaceFilesService extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** Fires when the folders or a setting that decides what is shared change. */
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed.fire()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (AFFECTING_SETTINGS.some((section) => event.affectsConfiguration(section))) this.changed.fire();
      }),
    );
  }

  /**
   * The files of the folders on disk, under the settings of now. Folders of other file systems
   * (virtual workspaces) are left out: their real paths cannot be checked. `baseline`: a
   * conversation's memory of what was excluded when it began, which stays excluded for it.
   */
  open(baseline?: ExclusionBaseline): Promise<WorkspaceFiles> {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
    const settings = readSettings();
    return WorkspaceFiles.open({
      folders: folders.map(folderConfig),
      sensitive: settings.sensitiveFiles,
      guarded: settings.chat.alwaysAskEdits,
      caseInsensitive: process.platform === 'win32' || process.platform === 'darwin',
      ...(baseline ? { baseline } : {}),
    });
  }

  /** The editor's URI of a file (the path it was listed under, not its link target). */
  uri(files: WorkspaceFiles, file: WorkspaceFile): vscode.Uri {
    return vscode.Uri.file(files.absolutePath(file));
  }

  /** A URI (an editor's, an index entry's) as a workspace file, or why it is not one (`write`: with every reason a write to it is always asked). */
  resolveUri(files: WorkspaceFiles, uri: vscode.Uri, purpose: 'read' | 'write' = 'read'): Promise<Resolution> {
    if (uri.scheme !== 'file')
      return Promise.resolve({
        ok: false,
        problem: 'invalid',
        message: vscode.l10n.t('{0} is not a file on disk.', uri.toString()),
      });
    return files.resolve(uri.fsPath, purpose);
  }
}
