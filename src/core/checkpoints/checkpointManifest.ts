// What a checkpoint keeps on disk for one reply: each touched file's state before the reply's first
// change to it (its bytes, kept as a content-addressed blob, or "absent"), and, when the writer
// said so, its state right after. A manifest is read back after a reload, possibly hand-edited or
// torn by a disk problem, so everything here is parsed, never trusted.
// A file names its workspace folder by identity (folderIdentity.ts: two open folders may share a
// name) and by name (shown).
import { isFolderIdentity } from '../workspaceFiles/folderIdentity';

export const MANIFEST_VERSION = 1;

/** What a file was (before) or became (after): absent, or bytes with this SHA-256. */
export type FileState =
  { readonly kind: 'absent' } | { readonly kind: 'file'; readonly hash: string; readonly size: number };

/** Where a file is: its folder (identity and name) and its path in it. */
export interface CheckpointFileRef {
  /** The workspace folder's name (shown). */
  readonly folder: string;
  /** The workspace folder's identity (two open folders may share a name). */
  readonly folderId: string;
  readonly path: string;
}

export interface CheckpointFile extends CheckpointFileRef {
  /** Folder-relative, `/`-separated, no `.` or `..` segments. */
  readonly path: string;
  /** Before the reply's first change: what a restore brings back. */
  readonly before: FileState;
  /** After the reply's last change, when the writer told (tells "changed since" in a restore). */
  readonly after?: FileState;
  /**
   * For a file kept as absent: how many of the folders holding it were absent too, innermost first
   * (writing the file created them; a restore removes them again when they are empty).
   */
  readonly absentFolders?: number;
}

export interface CheckpointManifest {
  readonly version: typeof MANIFEST_VERSION;
  readonly conversationId: string;
  readonly turnId: string;
  /** Order of the checkpoints within a conversation (a restore to one undoes it and every later one). */
  readonly seq: number;
  readonly createdAt: number;
  readonly files: readonly CheckpointFile[];
}

/** Conversation and turn ids become folder names: only the shape the chat makes ([A-Za-z0-9_-]). */
export function isCheckpointId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(value);
}

export function isHash(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

/**
 * A folder-relative path a manifest may name: relative, `/`-separated, no empty, `.` or `..`
 * segment, no NUL or backslash. Anything else could lead out of the folder.
 */
export function isSafeRelativePath(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096) return false;
  if (value.includes('\0') || value.includes('\\') || value.startsWith('/') || /^[a-zA-Z]:/.test(value)) return false;
  return value.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** The key that names one file across checkpoints: its folder's identity and its path. */
export function fileKey(file: Pick<CheckpointFileRef, 'folderId' | 'path'>): string {
  return `${file.folderId}\0${file.path}`;
}

export type ManifestParse =
  { readonly ok: true; readonly manifest: CheckpointManifest } | { readonly ok: false; readonly problem: string };

function parseState(value: unknown): FileState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  if (raw.kind === 'absent') return { kind: 'absent' };
  if (raw.kind === 'file' && isHash(raw.hash) && Number.isSafeInteger(raw.size) && (raw.size as number) >= 0)
    return { kind: 'file', hash: raw.hash, size: raw.size as number };
  return undefined;
}

/** Parses a manifest's JSON value; `expected` are the ids its location names (a moved manifest is refused). */
export function parseManifest(
  value: unknown,
  expected?: { readonly conversationId: string; readonly turnId: string },
): ManifestParse {
  const fail = (problem: string): ManifestParse => ({ ok: false, problem });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('it is not a JSON object');
  const raw = value as Record<string, unknown>;
  if (raw.version !== MANIFEST_VERSION) return fail(`unknown version ${JSON.stringify(raw.version)}`);
  if (!isCheckpointId(raw.conversationId) || !isCheckpointId(raw.turnId))
    return fail('its conversation or turn id is malformed');
  if (expected && (raw.conversationId !== expected.conversationId || raw.turnId !== expected.turnId))
    return fail('its ids do not match the folder it is in');
  if (!Number.isSafeInteger(raw.seq) || (raw.seq as number) < 0) return fail('its sequence number is malformed');
  if (typeof raw.createdAt !== 'number' || !Number.isFinite(raw.createdAt))
    return fail('its creation time is malformed');
  if (!Array.isArray(raw.files)) return fail('it has no file list');
  const files: CheckpointFile[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of raw.files.entries()) {
    if (typeof entry !== 'object' || entry === null) return fail(`file ${index} is not an object`);
    const file = entry as Record<string, unknown>;
    if (typeof file.folder !== 'string' || file.folder.length === 0 || file.folder.length > 1024)
      return fail(`file ${index} has no folder name`);
    if (!isFolderIdentity(file.folderId)) return fail(`file ${index} has no folder identity`);
    if (!isSafeRelativePath(file.path))
      return fail(`file ${index} has an unsafe path ${JSON.stringify(String(file.path).slice(0, 200))}`);
    const before = parseState(file.before);
    if (!before) return fail(`file ${index} (${file.path}) has a malformed "before" state`);
    const after = file.after === undefined ? undefined : parseState(file.after);
    if (file.after !== undefined && !after) return fail(`file ${index} (${file.path}) has a malformed "after" state`);
    const absentFolders = file.absentFolders;
    if (
      absentFolders !== undefined &&
      (before.kind !== 'absent' ||
        !Number.isSafeInteger(absentFolders) ||
        (absentFolders as number) < 1 ||
        (absentFolders as number) >= file.path.split('/').length)
    )
      return fail(`file ${index} (${file.path}) has a malformed "absentFolders"`);
    const folderId = file.folderId;
    const key = fileKey({ folderId, path: file.path });
    if (seen.has(key)) return fail(`file ${file.path} is listed twice`);
    seen.add(key);
    files.push({
      folder: file.folder,
      folderId,
      path: file.path,
      before,
      ...(after ? { after } : {}),
      ...(absentFolders !== undefined ? { absentFolders: absentFolders as number } : {}),
    });
  }
  return {
    ok: true,
    manifest: {
      version: MANIFEST_VERSION,
      conversationId: raw.conversationId,
      turnId: raw.turnId,
      seq: raw.seq as number,
      createdAt: raw.createdAt,
      files,
    },
  };
}
