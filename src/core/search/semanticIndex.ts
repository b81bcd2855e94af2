// The index itself and its incremental update, independent of VS Code: files come from an
// IndexSource, vectors from an EmbedBatch function (the gateway's /embeddings in the extension and
// the bench, a fake in tests).
import { createHash } from 'node:crypto';
import { looksBinary } from '../workspaceFiles/binary';
import { chunkText, DEFAULT_CHUNK_OPTIONS, type ChunkOptions, type TextChunk } from './chunking';
import { contentHash, planUpdate, type FileState, type IndexedFile } from './indexPlan';
import { VectorStore, type ChunkRecord } from './vectorStore';

export interface IndexSource {
  /** Reads a file as text; undefined when it is gone or unreadable (it is then dropped from the index). */
  read(file: string, signal?: AbortSignal): Promise<string | undefined>;
}

/** Embeds texts, one vector each in the same order. */
export type EmbedBatch = (texts: string[], signal?: AbortSignal) => Promise<ArrayLike<number>[]>;

export interface IndexProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly chunksEmbedded: number;
}

export interface UpdateOptions {
  /** What is there now (the whole workspace, or the files of `scope`). */
  readonly current: ReadonlyMap<string, FileState>;
  /** Limit the update to these files (watcher events); the whole index when absent. */
  readonly scope?: ReadonlySet<string>;
  readonly source: IndexSource;
  readonly embed: EmbedBatch;
  /** The embedding model: another model's vectors are not comparable, so a change rebuilds all. */
  readonly model: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: IndexProgress) => void;
  /** Inputs per /embeddings request. */
  readonly batchSize?: number;
  readonly chunking?: ChunkOptions;
}

export interface UpdateReport {
  /** Files whose chunks were embedded (new or changed content). */
  readonly embeddedFiles: string[];
  readonly embeddedChunks: number;
  /** Chunks of changed files whose text was already in the index: their vectors were kept, not embedded again. */
  readonly reusedChunks: number;
  readonly removedFiles: string[];
  /** Files not re-embedded: same stamps, or same content. */
  readonly unchangedFiles: number;
  readonly embedRequests: number;
  /** True when the signal aborted it: the files finished before stay indexed. */
  readonly cancelled: boolean;
}

interface PendingFile {
  readonly file: string;
  readonly state: IndexedFile;
  readonly chunks: readonly TextChunk[];
  readonly hashes: readonly string[];
  /** One slot a chunk: filled from the index (unchanged text) or by the gateway. */
  readonly vectors: (ArrayLike<number> | undefined)[];
  missing: number;
}

/** What changed since the index was last saved, for a save that writes only that. */
export interface PendingChanges {
  /** Everything must be written again (a new index, or another model). */
  readonly all: boolean;
  /** Files whose chunks changed or that left the index. */
  readonly files: ReadonlySet<string>;
  /** Files whose stamps changed but not their chunks. */
  readonly touched: ReadonlySet<string>;
}

const DEFAULT_BATCH_SIZE = 64;

export class SemanticIndex {
  private changedFiles = new Set<string>();
  private touchedFiles = new Set<string>();
  private rewriteAll = true;

  constructor(
    public model = '',
    private vectors: VectorStore | undefined = undefined,
    private readonly indexed = new Map<string, IndexedFile>(),
  ) {}

  get store(): VectorStore | undefined {
    return this.vectors;
  }

  get files(): ReadonlyMap<string, IndexedFile> {
    return this.indexed;
  }

  get chunkCount(): number {
    return this.vectors?.count ?? 0;
  }

  clear(): void {
    this.vectors = undefined;
    this.indexed.clear();
    this.rewriteAll = true;
  }

  /** What a save has to write; unchanged until `markSaved`, so a failed save is retried whole by the next one. */
  get pendingChanges(): PendingChanges {
    return {
      all: this.rewriteAll,
      files: new Set(this.changedFiles),
      touched: new Set([...this.touchedFiles].filter((f) => !this.changedFiles.has(f))),
    };
  }

  /** The index on disk now matches this one (as it was when `pendingChanges` was read). */
  markSaved(saved?: PendingChanges): void {
    if (!saved) {
      this.rewriteAll = false;
      this.changedFiles.clear();
      this.touchedFiles.clear();
      return;
    }
    if (saved.all) this.rewriteAll = false;
    for (const file of saved.files) this.changedFiles.delete(file);
    for (const file of saved.touched) this.touchedFiles.delete(file);
  }

  /**
   * Brings the index up to date: drops removed files, reads new and changed ones, and embeds the
   * chunks of those whose content changed, in batches. A file's old vectors are replaced only once
   * all its new ones arrived, so a cancelled or failed update leaves every file whole (old or new).
   */
  async update(options: UpdateOptions): Promise<UpdateReport> {
    if (this.model !== options.model) {
      this.clear();
      this.model = options.model;
    }
    const plan = planUpdate(this.indexed, options.current, options.scope);
    this.removeFiles(plan.removed);
    const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
    const report = {
      embeddedFiles: [] as string[],
      embeddedChunks: 0,
      reusedChunks: 0,
      removedFiles: [...plan.removed],
      unchangedFiles: plan.unchanged,
      embedRequests: 0,
      cancelled: false,
    };
    let filesDone = 0;
    const progress = (): void =>
      options.onProgress?.({ filesDone, filesTotal: plan.toRead.length, chunksEmbedded: report.embeddedChunks });
    progress(); // the files to read are known before the first is read: "0 of N" at once
    let pending: PendingFile[] = [];
    let batch: { owner: PendingFile; slot: number; text: string }[] = [];
    let known: Map<string, Float32Array> | undefined;
    /** Vectors by chunk text hash, built once per update (a copy: the rows move when files are removed). */
    const knownVectors = (): Map<string, Float32Array> => {
      if (known) return known;
      known = new Map();
      const store = this.vectors;
      store?.records.forEach(
        (record, row) =>
          record.hash !== undefined && !known?.has(record.hash) && known?.set(record.hash, store.vector(row).slice()),
      );
      return known;
    };

    const flush = async (): Promise<void> => {
      if (batch.length) {
        const vectors = await options.embed(
          batch.map((item) => item.text),
          options.signal,
        );
        if (vectors.length !== batch.length)
          throw new Error(`The gateway returned ${vectors.length} embeddings for ${batch.length} inputs.`);
        report.embedRequests++;
        batch.forEach((item, i) => {
          item.owner.vectors[item.slot] = vectors[i];
          item.owner.missing--;
        });
        report.embeddedChunks += batch.length;
        batch = [];
      }
      const done = pending.filter((p) => p.missing === 0);
      pending = pending.filter((p) => p.missing > 0);
      this.commit(done);
      for (const file of done) if (file.chunks.length) report.embeddedFiles.push(file.file);
      filesDone += done.length;
      progress();
    };

    try {
      for (const file of plan.toRead) {
        if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
        const text = await options.source.read(file, options.signal);
        const state = options.current.get(file);
        if (text === undefined || !state || looksBinary(text)) {
          if (this.indexed.has(file)) report.removedFiles.push(file);
          this.removeFiles([file]);
          filesDone++;
          continue;
        }
        const hash = contentHash(text);
        const before = this.indexed.get(file);
        if (before && before.hash === hash) {
          this.indexed.set(file, { ...before, mtime: state.mtime, size: state.size }); // touched, not changed
          this.touchedFiles.add(file);
          report.unchangedFiles++;
          filesDone++;
          continue;
        }
        const chunks = chunkText(text, options.chunking ?? DEFAULT_CHUNK_OPTIONS);
        const hashes = chunks.map((chunk) => chunkHash(chunk.text));
        // A changed file mostly keeps most of its chunks: those keep their vectors (a file seen before only).
        const reuse = before ? knownVectors() : undefined;
        const vectors = hashes.map((h) => reuse?.get(h));
        const entry: PendingFile = {
          file,
          state: { mtime: state.mtime, size: state.size, hash, chunks: chunks.length },
          chunks,
          hashes,
          vectors,
          missing: vectors.filter((v) => !v).length,
        };
        report.reusedChunks += chunks.length - entry.missing;
        pending.push(entry);
        for (const [slot, chunk] of chunks.entries()) {
          if (vectors[slot]) continue;
          batch.push({ owner: entry, slot, text: chunk.text });
          if (batch.length >= batchSize) await flush();
        }
      }
      await flush();
    } catch (error) {
      if (!options.signal?.aborted) throw error;
      report.cancelled = true;
    }
    return report;
  }

  /** Replaces the files' vectors with their new ones; an empty file is remembered with no chunks. */
  private commit(done: readonly PendingFile[]): void {
    if (!done.length) return;
    this.removeFiles(done.map((p) => p.file));
    for (const file of done) {
      file.chunks.forEach((chunk, i) => {
        const vector = file.vectors[i] as ArrayLike<number>;
        this.vectors ??= new VectorStore(vector.length);
        const record: ChunkRecord = {
          file: file.file,
          startLine: chunk.startLine,
          endLine: chunk.endLine,
          hash: file.hashes[i],
        };
        this.vectors.add(record, vector);
      });
      this.indexed.set(file.file, file.state);
      this.changedFiles.add(file.file);
    }
  }

  private removeFiles(files: readonly string[]): void {
    if (!files.length) return;
    for (const file of files) if (this.indexed.delete(file)) this.changedFiles.add(file);
    this.vectors?.removeFiles(new Set(files));
  }
}

/** A short hash of a chunk's text (96 bits: collisions are not a concern at workspace scale). */
function chunkHash(text: string): string {
  return createHash('sha1').update(text).digest('base64').slice(0, 16);
}
