// Recent completions by the text around the cursor: a user who deletes a character and types it
// again, or comes back to the same place, gets the same suggestion without paying for it twice.
// Bounded (least recently used goes first): the keys hold a window of the document.

/** The most suggestions kept: enough for a few minutes of typing, small enough to forget nothing of value. */
const COMPLETION_CACHE_ENTRIES = 200;

export class CompletionCache {
  private readonly entries = new Map<string, string>();

  constructor(private readonly capacity = COMPLETION_CACHE_ENTRIES) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // A Map keeps insertion order: re-inserting marks it as the most recently used.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, insertion: string): void {
    this.entries.delete(key);
    this.entries.set(key, insertion);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

/** How much of the text around the cursor names a cache entry (the rest rarely changes a suggestion). */
const CACHE_PREFIX_CHARS = 2_000;
const CACHE_SUFFIX_CHARS = 500;

/** The cache key of a place in a document, for one model. */
export function completionCacheKey(model: string, document: string, prefix: string, suffix: string): string {
  const head = prefix.length > CACHE_PREFIX_CHARS ? prefix.slice(-CACHE_PREFIX_CHARS) : prefix;
  const tail = suffix.length > CACHE_SUFFIX_CHARS ? suffix.slice(0, CACHE_SUFFIX_CHARS) : suffix;
  return `${model}\u0000${document}\u0000${head}\u0000${tail}`;
}
