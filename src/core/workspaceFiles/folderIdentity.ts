// A workspace folder's identity for what is kept across sessions (checkpoints): its name is not
// one (a multi-root workspace may open two `app` folders from different parents) and its index
// moves when folders are reordered, but VS Code never opens one path twice, so the path is. It is
// kept as a hash: fixed length, easy to validate when read back, and no path in the manifest.
import { createHash } from 'node:crypto';
import * as nodePath from 'node:path';

export function folderIdentity(path: string, caseInsensitive: boolean): string {
  const resolved = nodePath.resolve(path);
  return createHash('sha256')
    .update(caseInsensitive ? resolved.toLowerCase() : resolved)
    .digest('hex')
    .slice(0, 32);
}

export function isFolderIdentity(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{32}$/.test(value);
}
