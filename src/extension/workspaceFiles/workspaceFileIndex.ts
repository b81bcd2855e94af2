// Workspace file paths for @file completion and the Apply target picker: what
// WorkspaceFilesService shares (no excluded, .gitignored or sensitive files), cached briefly.
import * as vscode from 'vscode';
import type { WorkspaceFilesService } from './workspaceFilesService';

const FILE_LIST_LIMIT = 5_000;
const FILE_LIST_TTL_MS = 10_000;

/** Workspace file paths, cached briefly so @file completion does not walk the folders on every key. */
export class WorkspaceFileIndex {
  private cached: { at: number; paths: string[] } | undefined;

  constructor(private readonly service: WorkspaceFilesService) {
    service.onDidChange(() => (this.cached = undefined));
  }

  async paths(): Promise<string[]> {
    if (this.cached && Date.now() - this.cached.at < FILE_LIST_TTL_MS) return this.cached.paths;
    const listing = await (await this.service.open()).list({ limit: FILE_LIST_LIMIT });
    const paths = listing.files.map((file) => file.display).sort();
    this.cached = { at: Date.now(), paths };
    return paths;
  }

  /**
   * Paths containing every character of `query` in order, best (shortest, name match) first.
   * None in Restricted Mode: typing `@` does not walk an untrusted folder (its ignore files and
   * its size are the repository's); a file can still be added through the picker, on purpose.
   */
  async suggest(query: string, limit = 20): Promise<string[]> {
    if (!vscode.workspace.isTrusted) return [];
    const q = query.toLowerCase();
    const scored = (await this.paths()).flatMap((path) => {
      const lower = path.toLowerCase();
      const name = lower.slice(lower.lastIndexOf('/') + 1);
      if (name.startsWith(q)) return [{ path, score: 0 }];
      if (lower.includes(q)) return [{ path, score: 1 }];
      let at = 0;
      for (const ch of q) {
        at = lower.indexOf(ch, at);
        if (at < 0) return [];
        at++;
      }
      return [{ path, score: 2 }];
    });
    return scored
      .sort((a, b) => a.score - b.score || a.path.length - b.path.length)
      .slice(0, limit)
      .map((entry) => entry.path);
  }

  async pick(): Promise<string | undefined> {
    const paths = await this.paths();
    if (paths.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The workspace has no files to add (open a folder first).'),
      );
      return undefined;
    }
    return vscode.window.showQuickPick(paths, {
      title: vscode.l10n.t('Add a File to the Chat'),
      placeHolder: vscode.l10n.t('Type to filter workspace files'),
      matchOnDescription: true,
    });
  }
}
