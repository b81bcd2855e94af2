// The workspace's files as semantic search sees them: the include glob setting, minus
// files.exclude, search.exclude and the root .gitignore of each folder, minus files over the size
// cap. VS Code's findFiles drops its default excludes once an exclude is passed, so all three are
// joined into one glob here. The stable API has no "use ignore files" switch for findFiles
// (findFiles2 is proposed), hence the simple .gitignore reading in core/search/gitignore.ts.
import * as vscode from 'vscode';
import { gitignoreGlobs, type FileState, type IndexSource } from '../../core/index';
import { readSettings } from '../config';

/** At most this many files are considered: past it the workspace is likely a checkout of dependencies. */
const MAX_FILES = 50_000;
const STAT_CONCURRENCY = 32;

function enabledGlobs(section: 'files' | 'search'): string[] {
  const value = vscode.workspace.getConfiguration(section).get<Record<string, unknown>>('exclude') ?? {};
  // `{when: ...}` entries depend on sibling files: skipped rather than wrongly applied to all.
  return Object.entries(value).filter(([glob, on]) => on === true && !/[{},]/.test(glob)).map(([glob]) => glob);
}

async function folderExcludes(folder: vscode.WorkspaceFolder): Promise<string[]> {
  let gitignore: string[] = [];
  try {
    gitignore = gitignoreGlobs(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, '.gitignore'))));
  } catch {
    // no .gitignore
  }
  return [...enabledGlobs('files'), ...enabledGlobs('search'), ...gitignore];
}

/** The candidate files (not yet size-checked) of every workspace folder, by URI string. */
export async function listWorkspaceFiles(token?: vscode.CancellationToken): Promise<Map<string, vscode.Uri>> {
  const include = readSettings().search.include;
  const files = new Map<string, vscode.Uri>();
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const excludes = await folderExcludes(folder);
    const exclude = excludes.length ? new vscode.RelativePattern(folder, `{${excludes.join(',')}}`) : null;
    const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, include), exclude, MAX_FILES, token);
    for (const uri of found) files.set(uri.toString(), uri);
  }
  return files;
}

/** Size and time of the files, leaving out those over the cap and those gone since listing. */
export async function statFiles(uris: readonly vscode.Uri[]): Promise<Map<string, FileState>> {
  const maxBytes = readSettings().search.maxFileSizeKB * 1024;
  const states = new Map<string, FileState>();
  for (let i = 0; i < uris.length; i += STAT_CONCURRENCY) {
    await Promise.all(
      uris.slice(i, i + STAT_CONCURRENCY).map(async (uri) => {
        try {
          const stat = await vscode.workspace.fs.stat(uri);
          if (stat.type & vscode.FileType.File && stat.size <= maxBytes) states.set(uri.toString(), { mtime: stat.mtime, size: stat.size });
        } catch {
          // deleted between listing and stat
        }
      }),
    );
  }
  return states;
}

/** Reads files from disk by URI string; invalid UTF-8 is replaced, binary files are refused by the index. */
export const workspaceSource: IndexSource = {
  async read(file: string): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(file)));
    } catch {
      return undefined;
    }
  },
};

/** A path for display: relative to its workspace folder. */
export function displayPath(file: string): string {
  return vscode.workspace.asRelativePath(vscode.Uri.parse(file), (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}
