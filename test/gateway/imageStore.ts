import { randomUUID } from 'node:crypto';

/** PNGs served at the gateway's own URLs, like a provider's short-lived signed links. */
export class ImageStore {
  private readonly images = new Map<string, { bytes: Buffer; expires: number }>();

  constructor(private readonly ttlMs: number) {}

  /** Keeps the image and returns its id (the URL path is `/files/images/<id>.png`). */
  put(bytes: Buffer): string {
    this.prune();
    const id = randomUUID();
    this.images.set(id, { bytes, expires: Date.now() + this.ttlMs });
    return id;
  }

  get(id: string): Buffer | undefined {
    const entry = this.images.get(id);
    if (!entry || entry.expires < Date.now()) return undefined;
    return entry.bytes;
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
