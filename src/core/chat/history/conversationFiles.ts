// One conversation file on disk: its name rule, reading it with the stamp of the same open file,
// and moving a corrupt one aside.
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { renameWithRetry, type FileStamp } from '../../storage/durableFile';
import type { Conversation } from '../../../shared/chatModel';
import { isRecord } from '../../parse/json';
import { errorMessage } from '../../../shared/errorMessage';
import { parseConversation } from './conversationShape';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Files read at the same time while scanning: keeps clear of EMFILE. */
const PARALLEL_READS = 16;

export type FileRead =
  | { readonly kind: 'missing' }
  | { readonly kind: 'ok'; readonly conversation: Conversation; readonly stamp: FileStamp }
  | { readonly kind: 'corrupt'; readonly reason: string; readonly stamp: FileStamp };

export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id);
}

export function assertId(id: unknown): asserts id is string {
  if (!isValidId(id))
    throw new Error(`Invalid conversation id ${JSON.stringify(id)}: expected 1 to 64 letters, digits, '_' or '-'.`);
}

export function conversationFile(directory: string, id: string): string {
  return join(directory, `${id}.json`);
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size;
}

/** Reads and validates one file; the stamp comes from the same open file, so it matches the content. */
export async function readConversationFile(directory: string, id: string): Promise<FileRead> {
  let handle;
  try {
    handle = await open(conversationFile(directory, id), 'r');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  let stamp: FileStamp;
  let text: string;
  try {
    const info = await handle.stat();
    stamp = { mtimeMs: info.mtimeMs, size: info.size };
    text = await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'corrupt', reason: `bad JSON: ${errorMessage(error)}`, stamp };
  }
  const parsed = parseConversation(value, id);
  if (typeof parsed === 'string') return { kind: 'corrupt', reason: parsed, stamp };
  return { kind: 'ok', conversation: parsed, stamp };
}

/**
 * Renames a corrupt file to `<id>.corrupt-<time>.json` (never deletes it: the user may want it
 * back). Call under the id's lock. Leaves a file that changed since `read` alone: a save landed.
 */
export async function moveAside(
  directory: string,
  id: string,
  read: { readonly reason: string; readonly stamp: FileStamp },
  onProblem: (message: string) => void,
): Promise<void> {
  const now = await stat(conversationFile(directory, id)).catch(() => undefined);
  if (!now || !sameStamp(read.stamp, now)) return;
  const aside = `${id}.corrupt-${Date.now()}.json`;
  try {
    await renameWithRetry(conversationFile(directory, id), join(directory, aside));
    onProblem(`Conversation file ${id}.json is corrupt (${read.reason}); skipped it and moved it aside to ${aside}.`);
  } catch (error) {
    onProblem(
      `Conversation file ${id}.json is corrupt (${read.reason}); skipped it, and could not move it aside: ${errorMessage(error)}`,
    );
  }
}

/** The folder's file names; a folder not yet created has none. */
async function fileNames(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return [];
    throw error;
  }
}

/** The ids of the folder's files ending in `extension` (e.g. '.json'); names that are no id are left out. */
export async function idsWith(directory: string, extension: string): Promise<string[]> {
  return (await fileNames(directory))
    .filter((name) => name.endsWith(extension))
    .map((name) => name.slice(0, -extension.length))
    .filter(isValidId);
}

/** `task` over every item, at most PARALLEL_READS at a time; results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, items.length) }, worker));
  return results;
}

export function codeOf(error: unknown): string | undefined {
  return isRecord(error) && typeof error['code'] === 'string' ? error['code'] : undefined;
}
