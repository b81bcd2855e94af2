import { randomUUID } from 'node:crypto';

export interface StoredFile {
  readonly bytes: Buffer;
  /** What the gateway says it is (image links may lie: see imageLinks.ts). */
  readonly contentType: string;
}

/** Images (and the files image links point at) served at the gateway's own URLs, like a provider's short-lived signed links. */
export class ImageStore {
  private readonly images = new Map<string, StoredFile & { expires: number }>();

  constructor(private readonly ttlMs: number) {}

  /** Keeps the file and returns its id (the URL path is `/files/images/<id>.<extension>`). */
  put(bytes: Buffer, contentType = 'image/png'): string {
    this.prune();
    const id = randomUUID();
    this.images.set(id, { bytes, contentType, expires: Date.now() + this.ttlMs });
    return id;
  }

  get(id: string): StoredFile | undefined {
    const entry = this.images.get(id);
    if (!entry || entry.expires < Date.now()) return undefined;
    return entry;
  }

  /** Drops expired images, and the oldest ones past 200, so a long session does not hoard memory. */
  private prune(): void {
    const now = Date.now();
    for (const [id, entry] of this.images) if (entry.expires < now) this.images.delete(id);
    while (this.images.size >= 200) {
      const oldest = this.images.keys().next().value;
      if (oldest === undefined) break;
      this.images.delete(oldest);
    }
  }
}
