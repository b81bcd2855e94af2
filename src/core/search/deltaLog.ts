// A generation's append-only change log (`gen-<n>/delta.log`): each watcher update appends one
// record with the changed files' new chunks and vectors and the files removed, so a one-file edit
// writes about one file's worth of bytes instead of the whole index. A record is framed (magic,
// lengths, checksum): a crash mid-append leaves a torn tail that the reader stops at, and the next
// append writes over it. The log is folded into a new generation once it grows past a share of it.
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncFolder } from '../storage/durableFile';
import type { IndexedFile } from './indexPlan';
import type { ChunkRecord } from './vectorStore';

const MAGIC = 0x4c444955; // "UIDL" read as a little-endian u32
const HEADER_BYTES = 16;
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export interface DeltaFile {
  readonly file: string;
  readonly state: IndexedFile;
  /** The file's chunks now (its previous ones are all dropped). */
  readonly rows: readonly ChunkRecord[];
}

export interface DeltaRecord {
  readonly model: string;
  readonly dimensions: number;
  readonly set: readonly DeltaFile[];
  /** The vectors of `set`'s rows, in order, back to back. */
  readonly vectors: Float32Array;
  /** Files whose stamps changed, not their chunks. */
  readonly touched: readonly (readonly [string, IndexedFile])[];
  readonly removed: readonly string[];
}

interface RecordJson {
  model: string;
  dimensions: number;
  set: [file: string, mtime: number, size: number, hash: string, rows: [number, number, string][]][];
  touched: [file: string, mtime: number, size: number, hash: string, chunks: number][];
  removed: string[];
}

function checksum(parts: readonly Uint8Array[]): number {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return hash.digest().readUInt32LE(0);
}

export function encodeDeltaRecord(record: DeltaRecord): Uint8Array {
  const json: RecordJson = {
    model: record.model,
    dimensions: record.dimensions,
    set: record.set.map((f) => [
      f.file,
      f.state.mtime,
      f.state.size,
      f.state.hash,
      f.rows.map((r) => [r.startLine, r.endLine, r.hash ?? '']),
    ]),
    touched: record.touched.map(([file, s]) => [file, s.mtime, s.size, s.hash, s.chunks]),
    removed: [...record.removed],
  };
  const text = Buffer.from(JSON.stringify(json), 'utf8');
  const floats = record.vectors;
  const vectors = new Uint8Array(floats.length * 4);
  if (LITTLE_ENDIAN_HOST) vectors.set(new Uint8Array(floats.buffer, floats.byteOffset, floats.length * 4));
  else {
    const view = new DataView(vectors.buffer);
    floats.forEach((value, i) => view.setFloat32(i * 4, value, true));
  }
  const out = new Uint8Array(HEADER_BYTES + text.byteLength + vectors.byteLength);
  const view = new DataView(out.buffer);
  [MAGIC, text.byteLength, vectors.byteLength, checksum([text, vectors])].forEach((value, i) =>
    view.setUint32(i * 4, value, true),
  );
  out.set(text, HEADER_BYTES);
  out.set(vectors, HEADER_BYTES + text.byteLength);
  return out;
}

export interface DeltaLogContents {
  readonly records: DeltaRecord[];
  /** Bytes of whole, valid records from the start: where the next append goes. */
  readonly goodLength: number;
  /** Why reading stopped before the end (a torn or damaged tail), if it did. */
  readonly problem?: string;
}

function decodeJson(text: string): Omit<DeltaRecord, 'vectors'> {
  const raw = JSON.parse(text) as Partial<RecordJson>;
  if (
    typeof raw.model !== 'string' ||
    typeof raw.dimensions !== 'number' ||
    !Array.isArray(raw.set) ||
    !Array.isArray(raw.touched) ||
    !Array.isArray(raw.removed)
  )
    throw new Error('malformed record');
  return {
    model: raw.model,
    dimensions: raw.dimensions,
    set: raw.set.map(([file, mtime, size, hash, rows]) => ({
      file,
      state: { mtime, size, hash, chunks: rows.length },
      rows: rows.map(([startLine, endLine, h]) =>
        h ? { file, startLine, endLine, hash: h } : { file, startLine, endLine },
      ),
    })),
    touched: raw.touched.map(([file, mtime, size, hash, chunks]) => [file, { mtime, size, hash, chunks }] as const),
    removed: raw.removed.filter((f): f is string => typeof f === 'string'),
  };
}

/** Every whole record from the start; stops (and says why) at the first torn or damaged one. */
export function readDeltaLog(bytes: Uint8Array): DeltaLogContents {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: DeltaRecord[] = [];
  let at = 0;
  const stop = (problem: string): DeltaLogContents => ({ records, goodLength: at, problem });
  while (at < bytes.byteLength) {
    if (at + HEADER_BYTES > bytes.byteLength) return stop('the change log ends in a torn record header');
    const [magic, jsonBytes, vectorBytes, sum] = [0, 1, 2, 3].map((i) => view.getUint32(at + i * 4, true)) as [
      number,
      number,
      number,
      number,
    ];
    if (magic !== MAGIC) return stop('the change log has a damaged record');
    const end = at + HEADER_BYTES + jsonBytes + vectorBytes;
    if (end > bytes.byteLength || vectorBytes % 4 !== 0) return stop('the change log ends in a torn record');
    const text = bytes.subarray(at + HEADER_BYTES, at + HEADER_BYTES + jsonBytes);
    const vectors = bytes.slice(at + HEADER_BYTES + jsonBytes, end);
    if (checksum([text, vectors]) !== sum) return stop('a change log record does not match its checksum');
    let record: DeltaRecord;
    try {
      const json = decodeJson(Buffer.from(text).toString('utf8'));
      const floats = new Float32Array(vectorBytes / 4);
      if (LITTLE_ENDIAN_HOST) floats.set(new Float32Array(vectors.buffer, 0, floats.length));
      else {
        const vview = new DataView(vectors.buffer);
        for (let i = 0; i < floats.length; i++) floats[i] = vview.getFloat32(i * 4, true);
      }
      const rows = json.set.reduce((sum, f) => sum + f.rows.length, 0);
      if (rows * json.dimensions !== floats.length) throw new Error('vector count');
      record = { ...json, vectors: floats };
    } catch {
      return stop('a change log record is malformed');
    }
    records.push(record);
    at = end;
  }
  return { records, goodLength: at };
}

/** The log on disk is not the one this process read or wrote (changed by someone else). */
export class DeltaLogChanged extends Error {}

/**
 * Appends `record` at `goodLength` (cutting any torn tail a crash left after it) and fsyncs.
 * Returns the log's new length.
 */
export async function appendDeltaRecord(path: string, goodLength: number, record: Uint8Array): Promise<number> {
  const existed = await stat(path).then(
    (s) => s.size,
    () => undefined,
  );
  // Shorter than what was read or written before: someone else changed it; appending would misplace the record.
  if ((existed ?? 0) < goodLength)
    throw new DeltaLogChanged(
      `The index's change log is shorter than expected (${existed ?? 0} bytes, not ${goodLength}).`,
    );
  const handle = await open(path, 'a');
  try {
    if (existed !== undefined && existed !== goodLength) await handle.truncate(goodLength);
    await handle.write(record);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (existed === undefined) await syncFolder(dirname(path));
  return goodLength + record.byteLength;
}
