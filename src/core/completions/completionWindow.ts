// The text read around the cursor per keystroke: more than any budget sends (the prompt builder
// cuts to budget), little enough that reading it and keying the cache by it stays far under a
// millisecond. The provider reads these windows; the benchmark reads the same.

/** Characters read before the cursor. */
export const PREFIX_WINDOW_CHARS = 12_000;
/** Characters read after the cursor. */
export const SUFFIX_WINDOW_CHARS = 4_000;
