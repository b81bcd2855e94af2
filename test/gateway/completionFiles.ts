// The source files the completion model continues (completionModel.ts): a folder given to the
// gateway (`completionFiles` option, `--completion-files <dir>` / GATEWAY_COMPLETION_FILES), read
// lazily on the first completion request and boundedly: text files only, size caps per file and
// in all, a file count cap, no dependency or build folders. A file changed on disk is read again
// (checked at most once a second), so a demo folder the user edits stays current.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const MAX_FILE_BYTES = 256 * 1024;
const MAX_TOTAL_BYTES = 16 * 1024 * 1024;
const MAX_FILES = 2000;
const MAX_DEPTH = 12;
const SKIPPED_DIRS = new Set([
  'node_modules',
  '.git',
  'out',
  'dist',
  'build',
  '.vscode-test',
  'coverage',
  'test-results',
  '.cache',
]);
const RESCAN_MS = 1000;

export interface SourceFile {
  /** Forward-slash path relative to the folder. */
  readonly path: string;
  readonly text: string;
}

interface Entry {
  readonly mtimeMs: number;
  readonly size: number;
  readonly file?: SourceFile;
}

/** Text, not binary: no NUL byte and valid UTF-8 in what was read. */
function textOf(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  const text = bytes.toString('utf8');
  return text.includes('\ufffd') ? undefined : text;
}

export class CompletionFiles {
  private readonly entries = new Map<string, Entry>();
  private scannedAt = -Infinity;
  private list: SourceFile[] = [];

  constructor(private folder: string | undefined) {}

  setFolder(folder: string | undefined): void {
    this.folder = folder;
    this.entries.clear();
    this.scannedAt = -Infinity;
    this.list = [];
  }

  /** The files, read now if not yet (or if the last look is over a second old). */
  files(): readonly SourceFile[] {
    if (!this.folder) return [];
    const now = Date.now();
    if (now - this.scannedAt < RESCAN_MS) return this.list;
    this.scannedAt = now;
    const seen = new Set<string>();
    const list: SourceFile[] = [];
    let total = 0;
    const walk = (dir: string, depth: number): void => {
      if (depth > MAX_DEPTH || list.length >= MAX_FILES) return;
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch {
        return;
      }
      for (const name of names) {
        if (list.length >= MAX_FILES || total >= MAX_TOTAL_BYTES) return;
        if (name.startsWith('.') && name !== '.github') continue;
        const full = join(dir, name);
        let stat;
        try {
          stat = statSync(full);
        } catch {
          continue;
        }
        if (stat.isDirectory()) {
          if (!SKIPPED_DIRS.has(name)) walk(full, depth + 1);
          continue;
        }
        if (!stat.isFile() || stat.size === 0 || stat.size > MAX_FILE_BYTES || total + stat.size > MAX_TOTAL_BYTES)
          continue;
        seen.add(full);
        let entry = this.entries.get(full);
        if (!entry || entry.mtimeMs !== stat.mtimeMs || entry.size !== stat.size) {
          let text: string | undefined;
          try {
            text = textOf(readFileSync(full));
          } catch {
            text = undefined;
          }
          entry = {
            mtimeMs: stat.mtimeMs,
            size: stat.size,
            file:
              text === undefined
                ? undefined
                : {
                    path: relative(this.folder as string, full)
                      .split('\\')
                      .join('/'),
                    text: text.replace(/\r\n/g, '\n'),
                  },
          };
          this.entries.set(full, entry);
        }
        if (entry.file) {
          list.push(entry.file);
          total += entry.size;
        }
      }
    };
    walk(this.folder, 0);
    for (const key of [...this.entries.keys()]) if (!seen.has(key)) this.entries.delete(key);
    this.list = list;
    return list;
  }
}
