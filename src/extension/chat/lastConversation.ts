// Which conversation the chat view had open, per workspace, so a reload reopens it. Kept in a
// small file of the workspace's storage folder rather than workspaceState: VS Code writes mementos
// lazily, and a reload right after a reply brought back an older id.
import { readFile } from 'node:fs/promises';
import { writeFileDurably } from '../../core/storage/durableFile';

export class LastConversation {
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly file: string) {}

  async get(): Promise<string | undefined> {
    try {
      const value: unknown = JSON.parse(await readFile(this.file, 'utf8'));
      const id = (value as { id?: unknown } | null)?.id;
      return typeof id === 'string' && id ? id : undefined;
    } catch {
      return undefined;
    }
  }

  /** Written durably (temp file, fsync, rename); writes are serialised, so the last call wins. */
  set(id: string | undefined): Promise<void> {
    this.writing = this.writing
      .then(async () => {
        await writeFileDurably(this.file, JSON.stringify({ id: id ?? null }));
      })
      .catch(() => undefined);
    return this.writing;
  }
}
