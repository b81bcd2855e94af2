// The workspace's semantic index: loaded from and saved to the extension's workspace storage,
// updated by the Index command and, once an index exists, by a file watcher. A burst of watcher
// events (a checkout, a build) is one batch; a batch looks only at its files (no workspace walk),
// embeds only the chunks whose text changed, and appends only those to the index on disk.
// Updates run one at a time; the running one can be cancelled.
import * as vscode from 'vscode';
import { IndexStorage, type SaveResult } from '../../core/search/indexStorage';
import { isAbortError } from '../../core/errors';
import {
  SemanticIndex,
  type IndexProgress,
  type IndexSource,
  type UpdateReport,
} from '../../core/search/semanticIndex';
import type { FileState } from '../../core/search/indexPlan';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { chooseSearchModel, gatewayEmbedder, type SearchModelsDeps } from './gatewayModels';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { changedFiles } from './changedFiles';
import { indexSource, listIndexCandidates, statFiles, type IndexCandidates } from './indexedFiles';
import { errorMessage } from '../../shared/errorMessage';
import { SerialQueue } from '../../shared/serialQueue';

/** Quiet time after the last event before a batch starts... */
const WATCH_DEBOUNCE_MS = 400;
/** ...but a steady stream of events (a long build) is not postponed longer than this. */
const WATCH_MAX_WAIT_MS = 3_000;

export interface IndexRun {
  readonly report: UpdateReport;
  readonly files: number;
  readonly chunks: number;
  /** The Index command, or file changes seen by the watcher. */
  readonly trigger: 'command' | 'watcher';
  /** What the save wrote (undefined without storage). */
  readonly saved?: SaveResult;
}

export class SearchIndexService extends Disposable {
  private index: SemanticIndex | undefined;
  private loaded: Promise<void> | undefined;
  private readonly queue = new SerialQueue();
  private running: AbortController | undefined;
  private readonly pendingChanges = new Set<string>();
  private watchTimer: NodeJS.Timeout | undefined;
  private firstPending: number | undefined;
  private readonly storage: IndexStorage | undefined;
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
    this.storage = storageDir ? new IndexStorage(storageDir) : undefined;
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
      if (!this.storage || this.index) return;
      const loaded = await this.storage
        .load()
        .catch((error: unknown) => ({ index: undefined, problems: [errorMessage(error)], from: 'none' as const }));
      for (const problem of loaded.problems) this.log.warn(`Semantic search: the saved index: ${problem}`);
      this.index ??= loaded.index;
    })();
    await this.loaded;
    return this.index;
  }

  /**
   * Indexes the whole workspace (incrementally over a saved index). `cancel` stops this run only,
   * also while it waits behind another (cancel() stops whichever run is current).
   */
  indexWorkspace(onProgress?: (progress: IndexProgress) => void, cancel?: AbortSignal): Promise<IndexRun> {
    return this.enqueue(async (signal) => {
      const listed = await listIndexCandidates(this.workspaceFiles, signal);
      return this.update(
        'command',
        listed,
        await statFiles(listed, [...listed.byUri.keys()]),
        undefined,
        signal,
        onProgress,
      );
    }, cancel);
  }

  /** The size of each file an index build would embed now (listed and checked as a build does; nothing is read). */
  async candidateSizes(signal?: AbortSignal): Promise<number[]> {
    const listed = await listIndexCandidates(this.workspaceFiles, signal);
    const states = await statFiles(listed, [...listed.byUri.keys()]);
    return [...states.values()].map((state) => state.size);
  }

  cancel(): boolean {
    this.running?.abort();
    return this.running !== undefined;
  }

  async clear(): Promise<void> {
    await this.enqueue(async () => {
      this.index = undefined;
      await this.storage?.delete();
    });
  }

  private noteChange(uri: vscode.Uri): void {
    if (!this.storageDir || !vscode.workspace.getWorkspaceFolder(uri)) return;
    this.pendingChanges.add(uri.toString());
    const now = Date.now();
    this.firstPending ??= now;
    clearTimeout(this.watchTimer);
    this.watchTimer = setTimeout(
      () => void this.applyChanges(),
      Math.max(0, Math.min(WATCH_DEBOUNCE_MS, this.firstPending + WATCH_MAX_WAIT_MS - now)),
    );
  }

  /** Re-checks just the changed files: still admitted (include/excludes/size)? changed content? */
  private async applyChanges(): Promise<void> {
    const changed = [...this.pendingChanges];
    this.pendingChanges.clear();
    this.firstPending = undefined;
    try {
      await this.enqueue(async (signal) => {
        // Never indexed: nothing to keep current. Indexed with another model than the one chosen
        // now: a scoped update would rebuild the index from the changed files alone, so the
        // changes wait for the next Index command (which re-embeds everything).
        const index = await this.current();
        if (!index || index.model !== (await chooseSearchModel(this.deps, 'embedding'))) return undefined;
        const { candidates, scope } = await changedFiles(this.workspaceFiles, changed, index.files.keys(), signal);
        return this.update(
          'watcher',
          candidates,
          await statFiles(candidates, [...candidates.byUri.keys()]),
          scope,
          signal,
        );
      });
    } catch (error) {
      this.deps.failures.report(error); // nobody else sees it: the credits display and its notice do
      this.log.warn(`Semantic search: updating the index after file changes failed: ${errorMessage(error)}`);
    }
  }

  /** Reads the index's files through the workspace-files service (for search results). */
  get source(): IndexSource {
    return indexSource(this.workspaceFiles);
  }

  private async update(
    trigger: IndexRun['trigger'],
    listed: IndexCandidates,
    current: Map<string, FileState>,
    scope: Set<string> | undefined,
    signal: AbortSignal,
    onProgress?: (progress: IndexProgress) => void,
  ): Promise<IndexRun> {
    const index = (await this.current()) ?? new SemanticIndex();
    const model = await chooseSearchModel(this.deps, 'embedding');
    let report: UpdateReport;
    let saved: SaveResult | undefined;
    try {
      report = await index.update({
        current,
        scope,
        model,
        signal,
        source: indexSource(this.workspaceFiles, listed),
        embed: gatewayEmbedder(this.deps, model),
        ...(onProgress ? { onProgress } : {}),
      });
    } finally {
      // Whatever was embedded before a failure is kept: the next run continues from there.
      this.index = index;
      saved = await this.storage?.save(index);
    }
    const run: IndexRun = {
      report,
      files: index.files.size,
      chunks: index.chunkCount,
      trigger,
      ...(saved ? { saved } : {}),
    };
    const written = saved
      ? `; saved ${saved.kind === 'delta' ? 'as a change' : saved.kind === 'generation' ? 'whole' : 'nothing'}${saved.bytesWritten ? ` (${saved.bytesWritten} bytes)` : ''}`
      : '';
    this.log.info(
      `Semantic search (${trigger}): ${report.embeddedFiles.length} file(s) embedded (${report.embeddedChunks} chunks in ${report.embedRequests} requests, ${report.reusedChunks} unchanged chunks kept), ${report.removedFiles.length} removed, ${report.unchangedFiles} unchanged${report.cancelled ? ', cancelled' : ''}${written}.`,
    );
    this.updated.fire(run);
    return run;
  }

  private enqueue<T>(work: (signal: AbortSignal) => Promise<T>, cancel?: AbortSignal): Promise<T> {
    return this.queue.run(async () => {
      // Cancelled while it waited: it does not start (and charges nothing).
      if (cancel?.aborted) throw new vscode.CancellationError();
      const controller = new AbortController();
      const abort = (): void => controller.abort();
      cancel?.addEventListener('abort', abort, { once: true });
      this.running = controller;
      try {
        return await work(controller.signal);
      } catch (error) {
        if (controller.signal.aborted && isAbortError(error)) throw new vscode.CancellationError();
        throw error;
      } finally {
        cancel?.removeEventListener('abort', abort);
        this.running = undefined;
      }
    });
  }
}
