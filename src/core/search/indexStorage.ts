// The semantic index on disk, crash-safe and cheap to keep current. Layout of the folder:
//   gen-<n>/vectors.bin   all vectors (VectorStore's binary form)
//   gen-<n>/index.json    model, files, per vector its file/lines/text hash, and the size, count
//                         and sha1 of vectors.bin (so a generation checks itself)
//   gen-<n>/delta.log     changes since the generation was written (watcher updates), append-only
//   current.json          { version, generation }: which generation is the index, written last
// A full save writes a new generation beside the old one and only then moves the pointer, so a
// crash at any instant leaves the old complete index or the new one. A small change appends one
// record to the log (bytes in proportion to the change); the log is folded into a new generation
// once it passes a share of the generation's size. Loading follows the pointer, verifies, replays
// the log up to any torn tail, and removes stray temp files and generations the pointer left.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStrayTempFiles, syncFolder, writeFileDurably } from '../storage/durableFile';
import { appendDeltaRecord, DeltaLogChanged, encodeDeltaRecord, readDeltaLog, type DeltaFile } from './deltaLog';
import { encodeMetadata, METADATA_VERSION, parseMetadata, vectorsCheck, verifyVectors } from './indexMetadata';
import { SemanticIndex, type PendingChanges } from './semanticIndex';
import { VectorStore } from './vectorStore';
import { errorMessage } from '../../shared/errorMessage';

export const POINTER_FILE = 'current.json';
export const VECTORS_FILE = 'vectors.bin';
export const METADATA_FILE = 'index.json';
export const DELTA_FILE = 'delta.log';
const GENERATION_FOLDER = /^gen-(\d+)$/;

/** The steps of a save, in order; a test hook runs before each (and throws to simulate a crash there). */
export type SaveStep = 'vectors' | 'metadata' | 'pointer' | 'cleanup' | 'delta';

export interface IndexStorageOptions {
  readonly beforeStep?: (step: SaveStep) => void | Promise<void>;
  /** The log is folded into a new generation once it would exceed this share of the generation's bytes (vectors and metadata). */
  readonly compactAt?: number;
  /** ...but never while it is under this many bytes (a tiny index would otherwise be rewritten on every change). */
  readonly compactMinBytes?: number;
}

export interface SaveResult {
  /** `generation`: everything written anew; `delta`: one record appended; `none`: nothing had changed. */
  readonly kind: 'generation' | 'delta' | 'none';
  readonly bytesWritten: number;
  readonly generation: number | undefined;
}

export interface LoadResult {
  /** Undefined when nothing usable was saved (the caller indexes anew). */
  readonly index: SemanticIndex | undefined;
  /** What was wrong and repaired or skipped, for the log. */
  readonly problems: string[];
  /** Where the index came from. */
  readonly from: 'generation' | 'none';
}

const DEFAULT_COMPACT_AT = 0.5;
const DEFAULT_COMPACT_MIN_BYTES = 256 * 1024;
const MAX_DELTA_RECORDS = 1000;

const isMissing = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'ENOENT';

export class IndexStorage {
  /** The generation the pointer names, as this object last read or wrote it. */
  private generation: number | undefined;
  private baseBytes = 0;
  private deltaLength = 0;
  private deltaRecords = 0;

  constructor(
    readonly dir: string,
    private readonly options: IndexStorageOptions = {},
  ) {}

  get currentGeneration(): number | undefined {
    return this.generation;
  }

  private generationDir(generation: number): string {
    return join(this.dir, `gen-${generation}`);
  }

  private async generations(): Promise<number[]> {
    const names = await readdir(this.dir).catch((error: unknown) => (isMissing(error) ? [] : Promise.reject(error)));
    return names
      .map((name) => GENERATION_FOLDER.exec(name)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => b - a);
  }

  async load(): Promise<LoadResult> {
    this.generation = undefined;
    const problems: string[] = [];
    const stray = await removeStrayTempFiles(this.dir).catch((error: unknown) => [errorMessage(error)]);
    problems.push(...stray.map((p) => `could not remove a stray temp file: ${p}`));
    const generations = await this.generations();
    let pointed: number | undefined;
    try {
      const pointer = JSON.parse(await readFile(join(this.dir, POINTER_FILE), 'utf8')) as {
        version?: unknown;
        generation?: unknown;
      } | null;
      if (
        pointer?.version !== METADATA_VERSION ||
        typeof pointer.generation !== 'number' ||
        !Number.isSafeInteger(pointer.generation)
      )
        throw new Error('it is not a pointer this version wrote');
      pointed = pointer.generation;
    } catch (error) {
      if (!isMissing(error)) problems.push(`${POINTER_FILE} is unreadable (${errorMessage(error)})`);
    }

    // The pointer's generation; failing that (damage, not a crash: the pointer moves last) any other
    // whole generation, newest first.
    const order = [...(pointed !== undefined ? [pointed] : []), ...generations.filter((g) => g !== pointed)];
    for (const generation of order) {
      try {
        const index = await this.loadGeneration(generation, problems);
        if (generation !== pointed) {
          problems.push(
            `used generation ${generation} instead of ${pointed === undefined ? 'the missing pointer' : `generation ${pointed}`}`,
          );
          await writeFileDurably(
            join(this.dir, POINTER_FILE),
            JSON.stringify({ version: METADATA_VERSION, generation }),
          );
        }
        this.generation = generation;
        await this.removeOthers(generation);
        return { index, problems, from: 'generation' };
      } catch (error) {
        problems.push(`generation ${generation} is unusable (${errorMessage(error)})`);
      }
    }
    return { index: undefined, problems, from: 'none' };
  }

  private async loadGeneration(generation: number, problems: string[]): Promise<SemanticIndex> {
    const folder = this.generationDir(generation);
    await removeStrayTempFiles(folder).catch(() => undefined);
    const metadataText = await readFile(join(folder, METADATA_FILE), 'utf8');
    const metadata = parseMetadata(metadataText);
    const bytes = new Uint8Array(await readFile(join(folder, VECTORS_FILE)));
    verifyVectors(bytes, metadata.vectors, metadata.records.length);
    let store = bytes.byteLength ? VectorStore.decode(bytes, metadata.records) : undefined;
    if (!store && metadata.records.length) throw new Error('chunks without vectors');
    const files = new Map(metadata.files);

    const log = await readFile(join(folder, DELTA_FILE)).catch((error: unknown) =>
      isMissing(error) ? undefined : Promise.reject(error),
    );
    let goodLength = 0;
    let records = 0;
    if (log) {
      const contents = readDeltaLog(new Uint8Array(log.buffer, log.byteOffset, log.byteLength));
      if (contents.problem)
        problems.push(
          `${contents.problem}; the changes after byte ${contents.goodLength} are dropped (those files are re-checked on the next index)`,
        );
      for (const [i, record] of contents.records.entries()) {
        const rows = record.set.reduce((sum, f) => sum + f.rows.length, 0);
        if (record.model !== metadata.model || (store && rows && record.dimensions !== store.dimensions)) {
          problems.push(`change log record ${i} does not fit its generation; it and later ones are dropped`);
          break;
        }
        store?.removeFiles(new Set([...record.removed, ...record.set.map((f) => f.file)]));
        for (const file of [...record.removed, ...record.set.map((f) => f.file)]) files.delete(file);
        let row = 0;
        for (const file of record.set) {
          for (const chunk of file.rows) {
            store ??= new VectorStore(record.dimensions);
            store.add(chunk, record.vectors.subarray(row * record.dimensions, (row + 1) * record.dimensions));
            row++;
          }
          files.set(file.file, file.state);
        }
        for (const [file, state] of record.touched) if (files.has(file)) files.set(file, state);
        records++;
      }
      goodLength = contents.goodLength;
    }
    const index = new SemanticIndex(metadata.model, store, files);
    index.markSaved();
    this.baseBytes = bytes.byteLength + Buffer.byteLength(metadataText);
    this.deltaLength = goodLength;
    this.deltaRecords = records;
    return index;
  }

  /** Writes what changed since the last save: one log record, or a new generation when that is due. */
  async save(index: SemanticIndex, options: { readonly full?: boolean } = {}): Promise<SaveResult> {
    const changes = index.pendingChanges;
    if (options.full || changes.all || this.generation === undefined || this.deltaRecords >= MAX_DELTA_RECORDS)
      return this.writeGeneration(index, changes);
    if (!changes.files.size && !changes.touched.size)
      return { kind: 'none', bytesWritten: 0, generation: this.generation };
    const record = this.deltaRecord(index, changes);
    const limit = Math.max(
      this.options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES,
      (this.options.compactAt ?? DEFAULT_COMPACT_AT) * this.baseBytes,
    );
    if (this.deltaLength + record.byteLength > limit) return this.writeGeneration(index, changes);
    await this.options.beforeStep?.('delta');
    try {
      this.deltaLength = await appendDeltaRecord(
        join(this.generationDir(this.generation), DELTA_FILE),
        this.deltaLength,
        record,
      );
    } catch (error) {
      // The generation was removed or its log changed under us (another tool, a user): start a new one.
      if (!isMissing(error) && !(error instanceof DeltaLogChanged)) throw error;
      return this.writeGeneration(index, changes);
    }
    this.deltaRecords++;
    index.markSaved(changes);
    return { kind: 'delta', bytesWritten: record.byteLength, generation: this.generation };
  }

  private deltaRecord(index: SemanticIndex, changes: PendingChanges): Uint8Array {
    const store = index.store;
    const dimensions = store?.dimensions ?? 0;
    const set: DeltaFile[] = [];
    const removed: string[] = [];
    const rows: number[] = [];
    for (const file of changes.files) {
      const state = index.files.get(file);
      if (!state) {
        removed.push(file);
        continue;
      }
      const own = store?.rowsOf(file) ?? [];
      rows.push(...own);
      set.push({ file, state, rows: own.map((row) => store?.record(row)).filter((r) => r !== undefined) });
    }
    const vectors = new Float32Array(rows.length * dimensions);
    rows.forEach((row, i) => store && vectors.set(store.vector(row), i * dimensions));
    const touched = [...changes.touched].flatMap((file) => {
      const state = index.files.get(file);
      return state ? [[file, state] as const] : [];
    });
    return encodeDeltaRecord({ model: index.model, dimensions, set, vectors, touched, removed });
  }

  private async writeGeneration(index: SemanticIndex, changes: PendingChanges): Promise<SaveResult> {
    const generation = Math.max(this.generation ?? 0, ...(await this.generations())) + 1;
    const folder = this.generationDir(generation);
    await rm(folder, { recursive: true, force: true }); // a failed earlier attempt's leftovers
    await mkdir(folder, { recursive: true });
    const store = index.store;
    const vectors = store?.count ? store.encode() : new Uint8Array();
    await this.options.beforeStep?.('vectors');
    await writeFileDurably(join(folder, VECTORS_FILE), vectors);
    await this.options.beforeStep?.('metadata');
    const metadata = encodeMetadata(
      index.model,
      generation,
      store?.records ?? [],
      index.files,
      vectorsCheck(vectors, store?.count ?? 0),
    );
    await writeFileDurably(join(folder, METADATA_FILE), metadata);
    await syncFolder(this.dir); // the new folder's entry, before the pointer names it
    await this.options.beforeStep?.('pointer');
    const pointer = JSON.stringify({ version: METADATA_VERSION, generation });
    await writeFileDurably(join(this.dir, POINTER_FILE), pointer);
    this.generation = generation;
    this.baseBytes = vectors.byteLength + Buffer.byteLength(metadata);
    this.deltaLength = 0;
    this.deltaRecords = 0;
    index.markSaved(changes);
    await this.options.beforeStep?.('cleanup');
    await this.removeOthers(generation).catch(() => undefined); // left for the next load
    return {
      kind: 'generation',
      bytesWritten: vectors.byteLength + Buffer.byteLength(metadata) + Buffer.byteLength(pointer),
      generation,
    };
  }

  /** Every generation but `keep`. */
  private async removeOthers(keep: number): Promise<void> {
    for (const generation of await this.generations())
      if (generation !== keep) await rm(this.generationDir(generation), { recursive: true, force: true });
  }

  async delete(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    this.generation = undefined;
    this.deltaLength = 0;
    this.deltaRecords = 0;
  }
}
