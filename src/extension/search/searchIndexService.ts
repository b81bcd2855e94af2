// The workspace's semantic index: loaded from and saved to the extension's workspace storage,
// updated by the Index command and, once an index exists, by a file watcher (only the files
// that changed are read, and only those whose content changed are embedded). Updates run one
// at a time; the running one can be cancelled.
import * as vscode from 'vscode';
import { deleteIndex, isAbortError, loadIndex, saveIndex, SemanticIndex, type FileState, type IndexSource, type UpdateReport } from '../../core/index';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { chooseSearchModel, gatewayEmbedder, type SearchModelsDeps } from './gatewayModels';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { indexSource, listIndexCandidates, statFiles, type IndexCandidates } from './indexedFiles';

const WATCH_DEBOUNCE_MS = 400;

export interface IndexRun {
  readonly report: UpdateReport;
  readonly files: number;
  readonly chunks: number;
}

export class SearchIndexService extends Disposable {
  private index: SemanticIndex | undefined;
  private loaded: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private running: AbortController | undefined;
  private readonly pendingChanges = new Set<string>();
  private watchTimer: NodeJS.Timeout | undefined;
  private readonly updated = this._register(new vscode.EventEmitter<IndexRun>());
  /** Fires after every update (command or watcher), cancelled ones included. */
  readonly onDidUpdate = this.updated.event;

  constructor(
    private readonly storageDir: string | undefined,
    private readonly deps: SearchModelsDeps,
    private readonly log: Log,
    private readonly workspaceFiles: WorkspaceFilesService,
  ) {
    super();
    const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/*'));
    const changed = (uri: vscode.Uri): void => this.noteChange(uri);
    this._register(watcher.onDidCreate(changed));
    this._register(watcher.onDidChange(changed));
    this._register(watcher.onDidDelete(changed));
    this._register({ dispose: () => (clearTimeout(this.watchTimer), this.running?.abort()) });
  }

  get available(): boolean {
    return this.storageDir !== undefined;
  }

  get isIndexing(): boolean {
    return this.running !== undefined;
  }

  /** The index, loaded from storage on first use; undefined when the workspace was never indexed. */
  async current(): Promise<SemanticIndex | undefined> {
    this.loaded ??= (async () => {
      if (this.storageDir) this.index ??= await loadIndex(this.storageDir);
    })();
    await this.loaded;
    return this.index;
  }

  /** Indexes the whole workspace (incrementally over a saved index). */
  indexWorkspace(onProgress?: (message: string, fraction: number) => void): Promise<IndexRun> {
    return this.enqueue(async (signal) => {
      const listed = await listIndexCandidates(this.workspaceFiles, signal);
      return this.update(listed, await statFiles(listed, [...listed.byUri.keys()]), undefined, signal, onProgress);
    });
  }

  cancel(): boolean {
    this.running?.abort();
    return this.running !== undefined;
  }

  async clear(): Promise<void> {
    await this.enqueue(async () => {
      this.index = undefined;
      if (this.storageDir) await deleteIndex(this.storageDir);
    });
  }

  private noteChange(uri: vscode.Uri): void {
    if (!this.storageDir || !vscode.workspace.getWorkspaceFolder(uri)) return;
    this.pendingChanges.add(uri.toString());
    clearTimeout(this.watchTimer);
    this.watchTimer = setTimeout(() => void this.applyChanges(), WATCH_DEBOUNCE_MS);
  }

  /** Re-checks just the changed files: still admitted (include/excludes/size)? changed content? */
  private async applyChanges(): Promise<void> {
    const scope = new Set(this.pendingChanges);
    this.pendingChanges.clear();
    try {
      await this.enqueue(async (signal) => {
        // Never indexed: nothing to keep current. Indexed with another model than the one chosen
        // now: a scoped update would rebuild the index from the changed files alone, so the
        // changes wait for the next Index command (which re-embeds everything).
        const index = await this.current();
        if (!index || index.model !== (await chooseSearchModel(this.deps, 'embedding'))) return undefined;
        const listed = await listIndexCandidates(this.workspaceFiles, signal);
        const admitted = [...scope].filter((file) => listed.byUri.has(file));
        return this.update(listed, await statFiles(listed, admitted), scope, signal);
      });
    } catch (error) {
      this.log.warn(`Semantic search: updating the index after file changes failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Reads the index's files through the workspace-files service (for search results). */
  get source(): IndexSource {
    return indexSource(this.workspaceFiles);
  }

  private async update(listed: IndexCandidates, current: Map<string, FileState>, scope: Set<string> | undefined, signal: AbortSignal, onProgress?: (message: string, fraction: number) => void): Promise<IndexRun> {
    const index = (await this.current()) ?? new SemanticIndex();
    const model = await chooseSearchModel(this.deps, 'embedding');
    let report: UpdateReport;
    try {
      report = await index.update({
        current,
        scope,
        model,
        signal,
        source: indexSource(this.workspaceFiles, listed),
        embed: gatewayEmbedder(this.deps, model),
        onProgress: (p) => onProgress?.(`${p.filesDone} of ${p.filesTotal} files, ${p.chunksEmbedded} chunks`, p.filesTotal ? p.filesDone / p.filesTotal : 1),
      });
    } finally {
      // Whatever was embedded before a failure is kept: the next run continues from there.
      this.index = index;
      if (this.storageDir) await saveIndex(this.storageDir, index);
    }
    const run: IndexRun = { report, files: index.files.size, chunks: index.chunkCount };
    this.log.info(`Semantic search: ${report.embeddedFiles.length} file(s) embedded (${report.embeddedChunks} chunks in ${report.embedRequests} requests), ${report.removedFiles.length} removed, ${report.unchangedFiles} unchanged${report.cancelled ? ', cancelled' : ''}.`);
    this.updated.fire(run);
    return run;
  }

  private enqueue<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      const controller = new AbortController();
      this.running = controller;
      try {
        return await work(controller.signal);
      } catch (error) {
        if (controller.signal.aborted && isAbortError(error)) throw new vscode.CancellationError();
        throw error;
      } finally {
        this.running = undefined;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
