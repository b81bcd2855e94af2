// The index itself and its incremental update, independent of VS Code: files come from an
// IndexSource, vectors from an EmbedBatch function (the gateway's /embeddings in the extension and
// the bench, a fake in tests).
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
  readonly vectors: ArrayLike<number>[];
}

export const DEFAULT_BATCH_SIZE = 64;

export class SemanticIndex {
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
    const report = { embeddedFiles: [] as string[], embeddedChunks: 0, removedFiles: [...plan.removed], unchangedFiles: plan.unchanged, embedRequests: 0, cancelled: false };
    let filesDone = 0;
    const progress = (): void => options.onProgress?.({ filesDone, filesTotal: plan.toRead.length, chunksEmbedded: report.embeddedChunks });
    let pending: PendingFile[] = [];
    let batch: { owner: PendingFile; text: string }[] = [];

    const flush = async (): Promise<void> => {
      if (batch.length) {
        const vectors = await options.embed(batch.map((item) => item.text), options.signal);
        if (vectors.length !== batch.length) throw new Error(`The gateway returned ${vectors.length} embeddings for ${batch.length} inputs.`);
        report.embedRequests++;
        batch.forEach((item, i) => item.owner.vectors.push(vectors[i] as ArrayLike<number>));
        report.embeddedChunks += batch.length;
        batch = [];
      }
      const done = pending.filter((p) => p.vectors.length === p.chunks.length);
      pending = pending.filter((p) => p.vectors.length < p.chunks.length);
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
          this.removeFiles([file]);
          filesDone++;
          continue;
        }
        const hash = contentHash(text);
        const known = this.indexed.get(file);
        if (known && known.hash === hash) {
          this.indexed.set(file, { ...known, mtime: state.mtime, size: state.size }); // touched, not changed
          report.unchangedFiles++;
          filesDone++;
          continue;
        }
        const chunks = chunkText(text, options.chunking ?? DEFAULT_CHUNK_OPTIONS);
        const entry: PendingFile = { file, state: { mtime: state.mtime, size: state.size, hash, chunks: chunks.length }, chunks, vectors: [] };
        pending.push(entry);
        for (const chunk of chunks) {
          batch.push({ owner: entry, text: chunk.text });
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
        const record: ChunkRecord = { file: file.file, startLine: chunk.startLine, endLine: chunk.endLine };
        this.vectors.add(record, vector);
      });
      this.indexed.set(file.file, file.state);
    }
  }

  private removeFiles(files: readonly string[]): void {
    if (!files.length) return;
    for (const file of files) this.indexed.delete(file);
    this.vectors?.removeFiles(new Set(files));
  }
}
