// What was left out of a conversation's reach when it began, kept for its whole life: a model
// that edits a .gitignore (or gets the user to change files.exclude) must not thereby read what
// was excluded before. Each rule source is remembered the first time the conversation's gate
// reads it (a .gitignore before the edit that changes it: the edit's own review reads the
// .gitignore of its folder first), and from then on a path is excluded when the rules of now OR
// the rules as first seen leave it out. A new conversation starts from the rules of its day.
// Pure: the caller reads the files and hands their text in.
//
// Bounded, since a window keeps many conversations: only the text is kept (the caller parses it
// again only when it differs from today's), up to MAX_CHARS of it, then a digest (enough to tell
// "unchanged"); and up to MAX_FILES files. What it cannot tell (a file past the bounds, or one
// kept by digest that changed) is NOT_KEPT (past the bounds a folder without an ignore file now
// is taken as it is: its ignore file could only have gone by a deletion, which always asks), and the caller then takes the file to exclude its
// whole folder: sharing less, never more.
import { createHash } from 'node:crypto';
import type { ExcludeGlobs } from './fileRules';

/** Appended to a rule source's name when only its earlier form still excludes a path. */
export const AS_IT_WAS = ' (as it was when this conversation began)';

/** What an ignore file was when first seen cannot be told (see above). */
export const NOT_KEPT: unique symbol = Symbol('not kept');

/** Appended to `.gitignore` when a NOT_KEPT file excludes a path. */
export const NOT_KEPT_NOTE =
  ' (this conversation keeps track of only so many .gitignore files, and cannot tell what this one said when it began, so its folder stays excluded: start a new conversation)';

/** Most ignore files (present or not) remembered per conversation. */
const MAX_FILES = 10_000;
/** Most characters of their text remembered per conversation (paths included); past it a digest. */
const MAX_CHARS = 500_000;

export interface BaselineBounds {
  readonly maxFiles: number;
  readonly maxChars: number;
}

/** Text, undefined (there was no file), or a digest of a text too large to keep. */
type Kept = string | undefined | { readonly digest: string };

const digestOf = (text: string | undefined): string =>
  text === undefined ? '' : createHash('sha256').update(text).digest('base64');

export class ExclusionBaseline {
  /** Per folder (a real path), per folder in it: the ignore file as first seen. */
  private readonly ignoreFiles = new Map<string, Map<string, Kept>>();
  private readonly globs = new Map<string, ExcludeGlobs>();
  private files = 0;
  private chars = 0;

  constructor(private readonly bounds: BaselineBounds = { maxFiles: MAX_FILES, maxChars: MAX_CHARS }) {}

  /**
   * The ignore file of folder `dir` in workspace folder `folder` (as the disk names them: the
   * caller folds case on a case-insensitive disk) as first seen, its text now being `now`: `now`
   * is remembered at the first sighting. NOT_KEPT when that cannot be told (see above).
   */
  ignoreFile(folder: string, dir: string, now: string | undefined): string | undefined | typeof NOT_KEPT {
    let inFolder = this.ignoreFiles.get(folder);
    if (inFolder?.has(dir)) {
      const kept = inFolder.get(dir);
      if (typeof kept !== 'object') return kept;
      return kept.digest === digestOf(now) ? now : NOT_KEPT;
    }
    // Past the bound, a folder with no ignore file now is taken at its word: one that was there
    // when the conversation began could only be gone by a deletion, which always asks. So only
    // folders that hold an ignore file are kept out, not every folder of a large repository.
    if (this.files >= this.bounds.maxFiles) return now === undefined ? undefined : NOT_KEPT;
    if (!inFolder) {
      inFolder = new Map();
      this.ignoreFiles.set(folder, inFolder);
      this.chars += folder.length;
    }
    const whole = this.chars + dir.length + (now?.length ?? 0) <= this.bounds.maxChars;
    const kept: Kept = whole || now === undefined ? now : { digest: digestOf(now) };
    inFolder.set(dir, kept);
    this.files++;
    this.chars += dir.length + (typeof kept === 'object' ? kept.digest.length : (kept?.length ?? 0));
    return now;
  }

  /** How much is remembered (for tests of the bounds). */
  get size(): { readonly files: number; readonly chars: number } {
    return { files: this.files, chars: this.chars };
  }

  /**
   * The exclude globs of a folder (keyed by its path) to apply now: those of now, plus those first
   * seen that are gone, under their source's name marked AS_IT_WAS.
   */
  excludes(folderKey: string, now: ExcludeGlobs): ExcludeGlobs {
    const seen = this.globs.get(folderKey);
    if (!seen) {
      this.globs.set(folderKey, now);
      return now;
    }
    const merged: Record<string, readonly string[]> = { ...now };
    for (const [source, globs] of Object.entries(seen)) {
      const gone = globs.filter((glob) => !(now[source] ?? []).includes(glob));
      if (gone.length) merged[`${source}${AS_IT_WAS}`] = gone;
    }
    return merged;
  }
}
