// Which files an index update has to look at: the cheap part (no file is read here).
import { createHash } from 'node:crypto';

export interface FileState {
  /** Modification time, ms. */
  readonly mtime: number;
  readonly size: number;
}

export interface IndexedFile extends FileState {
  /** Hash of the content that was embedded: a touched but unchanged file is not embedded again. */
  readonly hash: string;
  readonly chunks: number;
}

export interface UpdatePlan {
  /** New files and files whose time or size changed: to be read (and embedded if their content changed). */
  readonly toRead: readonly string[];
  /** Indexed files that are gone (or now excluded). */
  readonly removed: readonly string[];
  readonly unchanged: number;
}

/**
 * Compares what the index holds with what is there now. `scope` limits the comparison to some
 * files (a watcher's events): an indexed file in scope but missing from `current` was deleted;
 * indexed files outside the scope are left alone. `force` files are read whatever their stamps.
 */
export function planUpdate(
  indexed: ReadonlyMap<string, IndexedFile>,
  current: ReadonlyMap<string, FileState>,
  scope?: ReadonlySet<string>,
  force: ReadonlySet<string> = new Set(),
): UpdatePlan {
  const toRead: string[] = [];
  let unchanged = 0;
  for (const [file, state] of current) {
    if (scope && !scope.has(file)) continue;
    const known = indexed.get(file);
    if (!known || force.has(file) || known.mtime !== state.mtime || known.size !== state.size) toRead.push(file);
    else unchanged++;
  }
  const removed = [...indexed.keys()].filter((file) => !current.has(file) && (!scope || scope.has(file)));
  return { toRead: toRead.sort(), removed: removed.sort(), unchanged };
}

export function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}
