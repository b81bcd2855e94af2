// The index's vectors: one flat Float32Array (unit vectors back to back) and, per row, where its
// text came from. Stored on disk as raw little-endian float32 behind a 16-byte header: 4 bytes a
// float, about 6 KB a chunk at 1536 dimensions, where JSON arrays of numbers take 3 to 4 times that.
import { normalize, topK, type ScoredIndex } from './cosine';

export interface ChunkRecord {
  /** The file's id (a URI string in VS Code, a relative path elsewhere). */
  readonly file: string;
  readonly startLine: number;
  readonly endLine: number;
  /** Hash of the chunk's text when it was embedded: an unchanged chunk of an edited file keeps its vector. Absent (a damaged entry): the chunk is embedded again. */
  readonly hash?: string;
}

const MAGIC = 0x53564955; // "UIVS" read as a little-endian u32
const FORMAT_VERSION = 1;
export const VECTOR_HEADER_BYTES = 16;
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class VectorStore {
  private data: Float32Array;
  private rows: ChunkRecord[] = [];

  constructor(
    readonly dimensions: number,
    initialCapacity = 64,
  ) {
    if (!Number.isInteger(dimensions) || dimensions < 1) throw new Error(`Invalid vector dimensions: ${dimensions}`);
    this.data = new Float32Array(dimensions * Math.max(1, initialCapacity));
  }

  get count(): number {
    return this.rows.length;
  }

  record(row: number): ChunkRecord | undefined {
    return this.rows[row];
  }

  get records(): readonly ChunkRecord[] {
    return this.rows;
  }

  /** The stored (unit) vector of a row, a view into the store. */
  vector(row: number): Float32Array {
    return this.data.subarray(row * this.dimensions, (row + 1) * this.dimensions);
  }

  add(record: ChunkRecord, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimensions)
      throw new Error(`A vector of ${vector.length} dimensions cannot join an index of ${this.dimensions}.`);
    this.ensureCapacity(this.rows.length + 1);
    this.data.set(normalize(vector), this.rows.length * this.dimensions);
    this.rows.push(record);
  }

  /** The rows of one file, in order. */
  rowsOf(file: string): number[] {
    const rows: number[] = [];
    this.rows.forEach((record, row) => record.file === file && rows.push(row));
    return rows;
  }

  /** Drops every row of the given files in one pass (rows keep their order). */
  removeFiles(files: ReadonlySet<string>): number {
    let write = 0;
    const kept: ChunkRecord[] = [];
    this.rows.forEach((record, read) => {
      if (files.has(record.file)) return;
      if (write !== read)
        this.data.copyWithin(write * this.dimensions, read * this.dimensions, (read + 1) * this.dimensions);
      kept.push(record);
      write++;
    });
    const removed = this.rows.length - kept.length;
    this.rows = kept;
    return removed;
  }

  search(query: ArrayLike<number>, k: number): ScoredIndex[] {
    return topK(this.data, this.dimensions, this.rows.length, query, k);
  }

  /** The vectors in the binary form (header: magic, version, dimensions, count, each u32 LE). */
  encode(): Uint8Array {
    const floats = this.rows.length * this.dimensions;
    const bytes = new Uint8Array(VECTOR_HEADER_BYTES + floats * 4);
    const view = new DataView(bytes.buffer);
    [MAGIC, FORMAT_VERSION, this.dimensions, this.rows.length].forEach((value, i) =>
      view.setUint32(i * 4, value, true),
    );
    if (LITTLE_ENDIAN_HOST)
      bytes.set(new Uint8Array(this.data.buffer, this.data.byteOffset, floats * 4), VECTOR_HEADER_BYTES);
    else for (let i = 0; i < floats; i++) view.setFloat32(VECTOR_HEADER_BYTES + i * 4, this.data[i] as number, true);
    return bytes;
  }

  /** Rebuilds a store from `encode()`'s bytes and the rows' records (kept beside it as JSON). */
  static decode(bytes: Uint8Array, records: readonly ChunkRecord[]): VectorStore {
    if (bytes.byteLength < VECTOR_HEADER_BYTES) throw new Error('The vector file is truncated.');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const [magic, version, dimensions, count] = [0, 1, 2, 3].map((i) => view.getUint32(i * 4, true)) as [
      number,
      number,
      number,
      number,
    ];
    if (magic !== MAGIC || version !== FORMAT_VERSION) throw new Error('The vector file has an unknown format.');
    if (count !== records.length)
      throw new Error(`The vector file holds ${count} vectors, its metadata ${records.length}.`);
    if (bytes.byteLength !== VECTOR_HEADER_BYTES + count * dimensions * 4)
      throw new Error('The vector file has the wrong size.');
    const store = new VectorStore(dimensions, count);
    const floats = count * dimensions;
    if (LITTLE_ENDIAN_HOST) store.data.set(new Float32Array(bytes.slice(VECTOR_HEADER_BYTES).buffer, 0, floats));
    else for (let i = 0; i < floats; i++) store.data[i] = view.getFloat32(VECTOR_HEADER_BYTES + i * 4, true);
    store.rows = [...records];
    return store;
  }

  private ensureCapacity(rows: number): void {
    if (rows * this.dimensions <= this.data.length) return;
    const grown = new Float32Array(
      Math.max(rows, Math.ceil((this.data.length / this.dimensions) * 1.5)) * this.dimensions,
    );
    grown.set(this.data);
    this.data = grown;
  }
}
