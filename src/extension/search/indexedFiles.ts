// The files semantic search indexes: what WorkspaceFilesService shares (no excluded, .gitignored
// or sensitive file, real paths inside the folders), narrowed by the include glob setting, minus
// files over the size cap (by stat, before anything is read). Index entries are keyed by URI.
import * as vscode from 'vscode';
import type { FileState } from '../../core/search/indexPlan';
import type { IndexSource } from '../../core/search/semanticIndex';
import type { WorkspaceFile } from '../../core/workspaceFiles/workspaceFile';
import type { WorkspaceFiles } from '../../core/workspaceFiles/workspaceFiles';
import { readSettings } from '../config';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';

/** At most this many files are considered: past it the workspace is likely a checkout of dependencies. */
const MAX_FILES = 50_000;
const STAT_CONCURRENCY = 32;

/** The candidate files (not yet size-checked), by URI string, and the view they were listed in. */
export interface IndexCandidates {
  readonly files: WorkspaceFiles;
  readonly byUri: ReadonlyMap<string, WorkspaceFile>;
}

export async function listIndexCandidates(
  service: WorkspaceFilesService,
  signal?: AbortSignal,
): Promise<IndexCandidates> {
  const files = await service.open();
  const listing = await files.list({
    include: readSettings().search.include,
    limit: MAX_FILES,
    ...(signal ? { signal } : {}),
  });
  return { files, byUri: new Map(listing.files.map((file) => [service.uri(files, file).toString(), file])) };
}

/** Size and time of the candidates `keys`, leaving out those over the cap and those gone since listing. */
export async function statFiles(candidates: IndexCandidates, keys: readonly string[]): Promise<Map<string, FileState>> {
  const maxBytes = readSettings().search.maxFileSizeKB * 1024;
  const states = new Map<string, FileState>();
  for (let i = 0; i < keys.length; i += STAT_CONCURRENCY) {
    await Promise.all(
      keys.slice(i, i + STAT_CONCURRENCY).map(async (key) => {
        const file = candidates.byUri.get(key);
        const stat = file ? await candidates.files.stat(file).catch(() => undefined) : undefined;
        if (stat && stat.size <= maxBytes) states.set(key, stat);
      }),
    );
  }
  return states;
}

/**
 * Reads indexed files by URI string, through the service: a file no longer shared (excluded or
 * sensitive since it was indexed, e.g. a setting changed) reads as gone, so it is neither
 * embedded nor sent to the reranker. Listed candidates are read as listed; others are resolved.
 * Reads stop at the size cap; a file grown past it reads as gone.
 */
export function indexSource(service: WorkspaceFilesService, candidates?: IndexCandidates): IndexSource {
  let view: Promise<WorkspaceFiles> | undefined;
  return {
    async read(key: string): Promise<string | undefined> {
      try {
        let files = candidates?.files;
        let file = candidates?.byUri.get(key);
        if (!files || !file) {
          files = await (view ??= service.open());
          const resolved = await service.resolveUri(files, vscode.Uri.parse(key));
          if (!resolved.ok) return undefined;
          file = resolved.file;
        }
        if (file.sensitive.length) return undefined;
        const content = await files.read(file, readSettings().search.maxFileSizeKB * 1024);
        return content.kind === 'text' && !content.truncated ? content.text : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** A path for display: relative to its workspace folder. */
export function displayPath(file: string): string {
  return vscode.workspace.asRelativePath(vscode.Uri.parse(file), (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}
