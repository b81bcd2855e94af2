// Reading the start of a file without ever holding more of it than asked: the size comes from
// fstat on the open handle (the file that is read, not whatever the path named a moment earlier),
// and at most `maxBytes` are read. Refuses anything that is not a regular file: a FIFO or a device
// would block or never end.
import { constants, promises as fs } from 'node:fs';
import { decodeText, looksBinary } from './binary';

export interface FilePrefix {
  readonly bytes: Uint8Array;
  /** The whole file's size, from fstat. */
  readonly size: number;
}

export type FileContent =
  | {
      readonly kind: 'text';
      readonly text: string;
      readonly size: number;
      readonly bytesRead: number;
      readonly truncated: boolean;
    }
  | { readonly kind: 'binary'; readonly size: number };

class NotAFileError extends Error {
  override readonly name = 'NotAFileError';
}

// O_NOFOLLOW: the path was resolved to its real path, so a link in its place now is a swap.
// O_NONBLOCK: opening a FIFO must not wait for a writer. Both are 0 where the platform lacks them.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export async function readPrefix(path: string, maxBytes: number): Promise<FilePrefix> {
  const handle = await fs.open(path, OPEN_FLAGS);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new NotAFileError(`${path} is not a regular file.`);
    const wanted = Math.max(0, Math.min(stat.size, maxBytes));
    const buffer = new Uint8Array(wanted);
    let filled = 0;
    while (filled < wanted) {
      const { bytesRead } = await handle.read(buffer, filled, wanted - filled, filled);
      if (bytesRead === 0) break; // shrank since fstat
      filled += bytesRead;
    }
    return { bytes: buffer.subarray(0, filled), size: stat.size };
  } finally {
    await handle.close();
  }
}

/** The first `maxBytes` of a file as text, or `binary` (nothing decoded) when it looks binary. */
export async function readTextPrefix(path: string, maxBytes: number): Promise<FileContent> {
  const { bytes, size } = await readPrefix(path, maxBytes);
  if (looksBinary(bytes)) return { kind: 'binary', size };
  return { kind: 'text', text: decodeText(bytes), size, bytesRead: bytes.length, truncated: size > bytes.length };
}
