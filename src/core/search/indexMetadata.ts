// The JSON half of a saved index (model, files, and per vector its file, lines and text hash),
// and the checks that the vectors beside it are the ones it was written with. The file comes from
// disk, so it is parsed as untrusted: a wrong shape is an error that names what is wrong.
import { createHash } from 'node:crypto';
import type { IndexedFile } from './indexPlan';
import type { ChunkRecord } from './vectorStore';

/** In `gen-<n>/index.json` and the pointer: a file of another version is not read. */
export const METADATA_VERSION = 2;

type FileEntry = [mtime: number, size: number, hash: string, chunks: number];

export interface VectorsCheck {
  readonly bytes: number;
  readonly count: number;
  /** sha1 of the whole vectors file, base64. */
  readonly sha1: string;
}

interface Metadata {
  readonly version: number;
  readonly generation?: number;
  readonly model: string;
  readonly vectors?: VectorsCheck;
  readonly files: Record<string, FileEntry>;
  /** Per vector: [index into `fileOrder`, startLine, endLine, chunk hash or ""]; file ids once each keeps this small. */
  readonly fileOrder: string[];
  readonly chunks: [number, number, number, string?][];
}

export interface ParsedMetadata {
  readonly model: string;
  readonly generation?: number;
  readonly vectors: VectorsCheck;
  readonly files: Map<string, IndexedFile>;
  readonly records: ChunkRecord[];
}

export function vectorsCheck(bytes: Uint8Array, count: number): VectorsCheck {
  return { bytes: bytes.byteLength, count, sha1: createHash('sha1').update(bytes).digest('base64') };
}

export function encodeMetadata(
  model: string,
  generation: number,
  records: readonly ChunkRecord[],
  files: ReadonlyMap<string, IndexedFile>,
  vectors: VectorsCheck,
): string {
  const fileOrder = [...new Set(records.map((r) => r.file))];
  const position = new Map(fileOrder.map((file, i) => [file, i]));
  const metadata: Metadata = {
    version: METADATA_VERSION,
    generation,
    model,
    vectors,
    files: Object.fromEntries([...files].map(([file, f]) => [file, [f.mtime, f.size, f.hash, f.chunks]])),
    fileOrder,
    chunks: records.map((r) => [position.get(r.file) ?? 0, r.startLine, r.endLine, r.hash ?? '']),
  };
  return JSON.stringify(metadata);
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** Throws with the reason when the file is not a metadata file we wrote. */
export function parseMetadata(text: string): ParsedMetadata {
  const raw = JSON.parse(text) as Partial<Metadata> | null;
  if (typeof raw !== 'object' || raw === null) throw new Error('the metadata is not an object');
  if (raw.version !== METADATA_VERSION)
    throw new Error(`the metadata has version ${String(raw.version)}, expected ${METADATA_VERSION}`);
  if (
    typeof raw.model !== 'string' ||
    !Array.isArray(raw.fileOrder) ||
    !Array.isArray(raw.chunks) ||
    typeof raw.files !== 'object' ||
    raw.files === null
  )
    throw new Error('the metadata lacks its model, files or chunks');
  const fileOrder = raw.fileOrder;
  const records: ChunkRecord[] = raw.chunks.map((chunk, i) => {
    const [file, startLine, endLine, hash] = Array.isArray(chunk) ? chunk : [];
    const name = isCount(file) ? fileOrder[file] : undefined;
    if (typeof name !== 'string' || !isCount(startLine) || !isCount(endLine))
      throw new Error(`chunk ${i} of the metadata is malformed`);
    return typeof hash === 'string' && hash
      ? { file: name, startLine, endLine, hash }
      : { file: name, startLine, endLine };
  });
  const files = new Map<string, IndexedFile>();
  for (const [file, entry] of Object.entries(raw.files)) {
    const [mtime, size, hash, chunks] = Array.isArray(entry) ? entry : [];
    if (typeof mtime !== 'number' || !isCount(size) || typeof hash !== 'string' || !isCount(chunks))
      throw new Error(`the metadata's entry for a file is malformed`);
    files.set(file, { mtime, size, hash, chunks });
  }
  const vectors = raw.vectors;
  if (!vectors || !isCount(vectors.bytes) || !isCount(vectors.count) || typeof vectors.sha1 !== 'string')
    throw new Error('the metadata does not describe its vectors');
  return {
    model: raw.model,
    records,
    files,
    vectors,
    ...(isCount(raw.generation) ? { generation: raw.generation } : {}),
  };
}

/** Throws unless `bytes` are the vectors `check` describes (size, count, hash). */
export function verifyVectors(bytes: Uint8Array, check: VectorsCheck, records: number): void {
  if (check.count !== records) throw new Error(`the metadata lists ${records} chunks but its vectors ${check.count}`);
  if (bytes.byteLength !== check.bytes)
    throw new Error(`the vectors file has ${bytes.byteLength} bytes, its metadata says ${check.bytes}`);
  if (createHash('sha1').update(bytes).digest('base64') !== check.sha1)
    throw new Error('the vectors file does not match its metadata (hash)');
}
