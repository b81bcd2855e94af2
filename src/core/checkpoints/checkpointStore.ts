// The checkpoints on disk, under one folder (the extension's storage for this workspace):
//   blobs/<2 hex>/<sha256>                                  file contents, deduplicated by hash
//   conversations/<conversationId>/<turnId>/manifest.json   one per reply (see checkpointManifest.ts)
// Only touched files are read and written, so a checkpoint costs the size of the change, never
// the size of the workspace. Blobs are written before the manifest that names them (a crash
// between leaves an unreferenced blob, which pruning removes); both through writeFileDurably.
// Calls are serialized within this process, so a prune never sweeps a blob a record is adding.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurably } from '../storage/durableFile';
import {
  fileKey,
  isCheckpointId,
  isHash,
  MANIFEST_VERSION,
  parseManifest,
  type CheckpointFile,
  type CheckpointFileRef,
  type CheckpointManifest,
  type FileState,
  type ManifestParse,
} from './checkpointManifest';
import { decidePrune, type CheckpointSummary, type PruneDecision } from './pruneRules';
import { errorMessage } from '../../shared/errorMessage';
import { SerialQueue } from '../../shared/serialQueue';

export interface ReplyIds {
  readonly conversationId: string;
  readonly turnId: string;
}

/** A file about to change: where it is, and how to read what it holds now (only called when it is not kept yet). */
export interface PreImageSource extends CheckpointFileRef {
  /** The bytes the user sees now, or 'absent'. */
  read(): Promise<Uint8Array | 'absent'>;
  /** For an absent file: how many of the folders holding it are absent too (createdFolders.ts). */
  absentFolders?(): Promise<number>;
}

export interface RecordResult {
  /** Files newly kept by this call (the others were kept by an earlier call for the same reply). */
  readonly added: number;
  /** Bytes written: new blobs plus the manifest. */
  readonly bytesWritten: number;
}

export interface PruneReport extends PruneDecision {
  readonly blobsSwept: number;
}

export class CheckpointCorruptError extends Error {
  override readonly name = 'CheckpointCorruptError';
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: unknown } | null)?.code as string | undefined;
}

export class CheckpointStore {
  /** Each call runs after every earlier call of this store has finished. */
  private readonly calls = new SerialQueue();
  /** Manifests this process wrote or read, by reply: a reply's later calls skip the disk read. */
  private readonly manifests = new Map<string, CheckpointManifest>();

  constructor(readonly root: string) {}

  private manifestPath(reply: ReplyIds): string {
    return join(this.root, 'conversations', reply.conversationId, reply.turnId, 'manifest.json');
  }

  private blobPath(hash: string): string {
    return join(this.root, 'blobs', hash.slice(0, 2), hash);
  }

  /**
   * Keeps the pre-image of each file not kept yet for this reply (the first one wins). Throws
   * CheckpointCorruptError when the reply's manifest on disk is damaged (nothing is overwritten).
   */
  record(reply: ReplyIds, sources: readonly PreImageSource[]): Promise<RecordResult> {
    if (!isCheckpointId(reply.conversationId) || !isCheckpointId(reply.turnId))
      return Promise.reject(new Error(`Malformed reply ids for a checkpoint: ${JSON.stringify(reply)}`));
    return this.calls.run(async () => {
      const existing = await this.manifestFor(reply);
      const known = new Set(existing?.files.map(fileKey));
      const added: CheckpointFile[] = [];
      let bytesWritten = 0;
      for (const source of sources) {
        const key = fileKey(source);
        if (known.has(key)) continue;
        known.add(key);
        const bytes = await source.read();
        let before: FileState;
        let absentFolders = 0;
        if (bytes === 'absent') {
          before = { kind: 'absent' };
          absentFolders = (await source.absentFolders?.()) ?? 0;
        } else {
          const hash = sha256(bytes);
          bytesWritten += await this.writeBlob(hash, bytes);
          before = { kind: 'file', hash, size: bytes.byteLength };
        }
        added.push({
          folder: source.folder,
          folderId: source.folderId,
          path: source.path,
          before,
          ...(absentFolders > 0 ? { absentFolders } : {}),
        });
      }
      if (added.length === 0) return { added: 0, bytesWritten };
      const manifest: CheckpointManifest = existing
        ? { ...existing, files: [...existing.files, ...added] }
        : {
            version: MANIFEST_VERSION,
            conversationId: reply.conversationId,
            turnId: reply.turnId,
            seq: (await this.lastSeq(reply.conversationId)) + 1,
            createdAt: Date.now(),
            files: added,
          };
      bytesWritten += await this.writeManifest(manifest);
      return { added: added.length, bytesWritten };
    });
  }

  /** Notes each file's state after the reply changed it (files the reply's checkpoint does not hold are ignored). */
  recordAfter(
    reply: ReplyIds,
    states: ReadonlyArray<CheckpointFileRef & { readonly after: FileState }>,
  ): Promise<void> {
    return this.calls.run(async () => {
      const existing = await this.manifestFor(reply);
      if (!existing) return;
      const byKey = new Map(states.map((state) => [fileKey(state), state.after]));
      let changed = false;
      const files = existing.files.map((file) => {
        const after = byKey.get(fileKey(file));
        if (!after) return file;
        changed = true;
        return { ...file, after };
      });
      if (changed) await this.writeManifest({ ...existing, files });
    });
  }

  /** The reply's manifest as parsed, or undefined when it has none. */
  async load(reply: ReplyIds): Promise<ManifestParse | undefined> {
    if (!isCheckpointId(reply.conversationId) || !isCheckpointId(reply.turnId)) return undefined;
    let text: string;
    try {
      text = await fs.readFile(this.manifestPath(reply), 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      return { ok: false, problem: `it could not be read (${errorMessage(error)})` };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { ok: false, problem: 'it is not valid JSON' };
    }
    return parseManifest(json, reply);
  }

  /** Every checkpoint of a conversation, parsed (damaged ones say why). */
  async listConversation(
    conversationId: string,
  ): Promise<Array<{ readonly turnId: string; readonly parse: ManifestParse }>> {
    if (!isCheckpointId(conversationId)) return [];
    const turns = await fs.readdir(join(this.root, 'conversations', conversationId)).catch(() => [] as string[]);
    const out: Array<{ turnId: string; parse: ManifestParse }> = [];
    for (const turnId of turns.filter(isCheckpointId)) {
      const parse = await this.load({ conversationId, turnId });
      if (parse) out.push({ turnId, parse });
    }
    return out;
  }

  /** The kept bytes with this hash; throws CheckpointCorruptError when missing or altered. */
  async readBlob(hash: string): Promise<Uint8Array> {
    if (!isHash(hash)) throw new CheckpointCorruptError(`The checkpoint names a malformed content hash.`);
    let bytes: Uint8Array;
    try {
      const buffer = await fs.readFile(this.blobPath(hash));
      bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (error) {
      throw new CheckpointCorruptError(
        `The kept content ${hash.slice(0, 12)}… is missing from the checkpoint storage (${errorCode(error) ?? 'unreadable'}).`,
      );
    }
    if (sha256(bytes) !== hash)
      throw new CheckpointCorruptError(`The kept content ${hash.slice(0, 12)}… was altered on disk.`);
    return bytes;
  }

  /**
   * Drops checkpoints of conversations not in `liveConversations` and the oldest past `maxBytes`,
   * then removes blobs no manifest names (older than `graceMs`: another window may be recording).
   */
  prune(options: {
    readonly liveConversations?: ReadonlySet<string>;
    readonly maxBytes: number;
    readonly graceMs: number;
    readonly keep?: (reply: ReplyIds) => boolean;
    readonly now?: number;
  }): Promise<PruneReport> {
    return this.calls.run(async () => {
      const now = options.now ?? Date.now();
      const summaries = await this.summaries();
      const decision = decidePrune({
        checkpoints: summaries,
        maxBytes: options.maxBytes,
        now,
        graceMs: options.graceMs,
        ...(options.liveConversations ? { liveConversations: options.liveConversations } : {}),
        ...(options.keep ? { keep: options.keep } : {}),
      });
      for (const { checkpoint } of decision.remove) {
        const folder = join(this.root, 'conversations', checkpoint.conversationId);
        await fs.rm(join(folder, checkpoint.turnId), { recursive: true, force: true });
        await fs.rmdir(folder).catch(() => undefined); // only when empty
        this.manifests.delete(`${checkpoint.conversationId}/${checkpoint.turnId}`);
      }
      const removed = new Set(decision.remove.map(({ checkpoint }) => checkpoint));
      const referenced = new Set(summaries.filter((s) => !removed.has(s)).flatMap((s) => [...s.blobs.keys()]));
      const blobsSwept = await this.sweepBlobs(referenced, now - options.graceMs);
      return { ...decision, blobsSwept };
    });
  }

  private async summaries(): Promise<CheckpointSummary[]> {
    const base = join(this.root, 'conversations');
    const conversations = await fs.readdir(base).catch(() => [] as string[]);
    const out: CheckpointSummary[] = [];
    for (const conversationId of conversations.filter(isCheckpointId)) {
      const turns = await fs.readdir(join(base, conversationId)).catch(() => [] as string[]);
      for (const turnId of turns.filter(isCheckpointId)) {
        const info = await fs.stat(this.manifestPath({ conversationId, turnId })).catch(() => undefined);
        const parse = await this.load({ conversationId, turnId });
        const blobs = new Map<string, number>();
        if (parse?.ok)
          for (const file of parse.manifest.files)
            if (file.before.kind === 'file') blobs.set(file.before.hash, file.before.size);
        // A damaged manifest still takes space and still goes with its conversation or by age.
        out.push({
          conversationId,
          turnId,
          createdAt: parse?.ok ? parse.manifest.createdAt : (info?.mtimeMs ?? 0),
          manifestBytes: info?.size ?? 0,
          blobs,
        });
      }
    }
    return out;
  }

  private async sweepBlobs(referenced: ReadonlySet<string>, olderThan: number): Promise<number> {
    const base = join(this.root, 'blobs');
    let swept = 0;
    for (const prefix of await fs.readdir(base).catch(() => [] as string[])) {
      for (const name of await fs.readdir(join(base, prefix)).catch(() => [] as string[])) {
        if (referenced.has(name)) continue;
        const path = join(base, prefix, name);
        const info = await fs.stat(path).catch(() => undefined);
        if (!info || info.mtimeMs > olderThan) continue;
        await fs.rm(path, { force: true });
        swept++;
      }
    }
    return swept;
  }

  private async manifestFor(reply: ReplyIds): Promise<CheckpointManifest | undefined> {
    const key = `${reply.conversationId}/${reply.turnId}`;
    const cached = this.manifests.get(key);
    if (cached) return cached;
    const parse = await this.load(reply);
    if (!parse) return undefined;
    if (!parse.ok)
      throw new CheckpointCorruptError(
        `The checkpoint of this reply is damaged (${parse.problem}); nothing more is recorded in it.`,
      );
    this.manifests.set(key, parse.manifest);
    return parse.manifest;
  }

  private async lastSeq(conversationId: string): Promise<number> {
    let last = 0;
    for (const { parse } of await this.listConversation(conversationId))
      if (parse.ok) last = Math.max(last, parse.manifest.seq);
    return last;
  }

  /** Writes a blob unless it is there already (same hash, same size): returns the bytes written. */
  private async writeBlob(hash: string, bytes: Uint8Array): Promise<number> {
    const path = this.blobPath(hash);
    const info = await fs.stat(path).catch(() => undefined);
    if (info?.isFile() && info.size === bytes.byteLength) return 0;
    await writeFileDurably(path, bytes);
    return bytes.byteLength;
  }

  private async writeManifest(manifest: CheckpointManifest): Promise<number> {
    const text = JSON.stringify(manifest);
    await writeFileDurably(this.manifestPath(manifest), text);
    this.manifests.set(`${manifest.conversationId}/${manifest.turnId}`, manifest);
    return Buffer.byteLength(text);
  }
}
