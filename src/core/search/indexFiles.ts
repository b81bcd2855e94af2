// The index on disk: `vectors.bin` (VectorStore's binary form) and `index.json` (model, files,
// and per vector its file and lines). Both are written to temporary names and renamed, so a
// crash mid-save leaves the previous index.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurably } from '../storage/durableFile';
import type { IndexedFile } from './indexPlan';
import { SemanticIndex } from './semanticIndex';
import { VectorStore, type ChunkRecord } from './vectorStore';

export const VECTORS_FILE = 'vectors.bin';
export const METADATA_FILE = 'index.json';
const METADATA_VERSION = 1;

interface Metadata {
  version: number;
  model: string;
  files: Record<string, [mtime: number, size: number, hash: string, chunks: number]>;
  /** Per vector: [index into `fileOrder`, startLine, endLine]; file ids once each keeps this small. */
  fileOrder: string[];
  chunks: [number, number, number][];
}

export async function saveIndex(dir: string, index: SemanticIndex): Promise<void> {
  await mkdir(dir, { recursive: true });
  const store = index.store;
  const fileOrder = [...new Set(store?.records.map((r) => r.file) ?? [])];
  const position = new Map(fileOrder.map((file, i) => [file, i]));
  const metadata: Metadata = {
    version: METADATA_VERSION,
    model: index.model,
    files: Object.fromEntries([...index.files].map(([file, f]) => [file, [f.mtime, f.size, f.hash, f.chunks]])),
    fileOrder,
    chunks: (store?.records ?? []).map((r) => [position.get(r.file) ?? 0, r.startLine, r.endLine]),
  };
  await writeFileDurably(join(dir, VECTORS_FILE), store ? store.encode() : new Uint8Array());
  await writeFileDurably(join(dir, METADATA_FILE), JSON.stringify(metadata));
}

/** The saved index, or undefined when there is none or it cannot be read (the caller rebuilds it). */
export async function loadIndex(dir: string): Promise<SemanticIndex | undefined> {
  try {
    const metadata = JSON.parse(await readFile(join(dir, METADATA_FILE), 'utf8')) as Metadata;
    if (metadata.version !== METADATA_VERSION || !Array.isArray(metadata.chunks)) return undefined;
    const records: ChunkRecord[] = metadata.chunks.map(([file, startLine, endLine]) => ({ file: metadata.fileOrder[file] ?? '', startLine, endLine }));
    const bytes = await readFile(join(dir, VECTORS_FILE));
    const store = bytes.byteLength ? VectorStore.decode(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), records) : undefined;
    const files = new Map<string, IndexedFile>(Object.entries(metadata.files).map(([file, [mtime, size, hash, chunks]]) => [file, { mtime, size, hash, chunks }]));
    return new SemanticIndex(metadata.model, store, files);
  } catch {
    return undefined;
  }
}

export async function deleteIndex(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

