// One way to put a file on disk so that a crash or power cut at any instant leaves either the old
// file or the new one, never a torn one: write a temp file beside the target, fsync it, rename it
// over the target, fsync the folder. Every store (chat history, the last conversation, the
// semantic index) writes through here.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errorMessage } from '../../shared/errorMessage';

/** What a written file looks like to `stat` afterwards (rename keeps both). */
export interface FileStamp {
  readonly mtimeMs: number;
  readonly size: number;
}

/** `<target>.<pid>-<random>.tmp`: the pid tells a crashed writer's leftovers from a live window's write. */
const TEMP_SUFFIX = /\.(\d+)-[0-9a-f]+\.tmp$/;
const STALE_TEMP_MS = 60 * 60 * 1000;

/** Temp file, fsync, rename, folder fsync. Creates the folder. Returns the new file's stamp. */
export async function writeFileDurably(target: string, data: string | Uint8Array): Promise<FileStamp> {
  const folder = dirname(target);
  await mkdir(folder, { recursive: true });
  const temp = `${target}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx');
    let stamp: FileStamp;
    try {
      await handle.writeFile(data);
      await handle.sync();
      const info = await handle.stat();
      stamp = { mtimeMs: info.mtimeMs, size: info.size };
    } finally {
      await handle.close();
    }
    await renameWithRetry(temp, target);
    await syncFolder(folder);
    return stamp;
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Makes a rename or a new file's entry durable where the platform allows it (not on Windows). */
export async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort: the data is already synced; only the folder entry may lag after a power cut.
  }
}

/** Windows refuses a rename over a file another process (an indexer, a virus scanner) holds open for a moment. */
export async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(from, to);
      return;
    } catch (error) {
      const code = errorCode(error);
      if (attempt >= 5 || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    }
  }
}

/**
 * Removes temp files left in `folder` by writers that no longer run (a crash), or very old ones;
 * never a live window's write in progress. Returns the names it could not remove, with why.
 */
export async function removeStrayTempFiles(folder: string): Promise<string[]> {
  const problems: string[] = [];
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return problems;
    throw error;
  }
  for (const name of names) {
    const match = TEMP_SUFFIX.exec(name);
    if (!match) continue;
    const path = join(folder, name);
    const info = await stat(path).catch(() => undefined);
    if (!info) continue;
    if (processIsAlive(Number(match[1])) && Date.now() - info.mtimeMs < STALE_TEMP_MS) continue;
    await rm(path, { force: true }).catch((error: unknown) =>
      problems.push(`${basename(path)}: ${errorMessage(error)}`),
    );
  }
  return problems;
}

/** Whether a process with this id runs (ours or another user's): tells a live writer from a crashed one. */
export function processIsAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM'; // exists, but belongs to someone else
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: unknown } | null)?.code as string | undefined;
}
