// The largest file a checkpoint keeps. A writer is refused a change to a larger file (the change
// could not be undone), rather than a checkpoint silently missing it or copying gigabytes.
export const MAX_SNAPSHOT_BYTES = 5 * 1024 * 1024;
