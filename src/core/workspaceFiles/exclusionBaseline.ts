// What was left out of a conversation's reach when it began, kept for its whole life: a model
// that edits a .gitignore (or gets the user to change files.exclude) must not thereby read what
// was excluded before. Each rule source is remembered the first time the conversation's gate
// reads it (a .gitignore before the edit that changes it: the edit's own review reads the
// .gitignore of its folder first), and from then on a path is excluded when the rules of now OR
// the rules as first seen leave it out. A new conversation starts from the rules of its day.
// Pure: the caller reads the files and hands their text in.
import type { ExcludeGlobs } from './fileRules';

/** One .gitignore as first seen: its text (undefined: there was none) and whatever the caller parsed of it. */
export interface SeenIgnoreFile<T> {
  readonly text: string | undefined;
  readonly parsed: T;
}

/** Appended to a rule source's name when only its earlier form still excludes a path. */
export const AS_IT_WAS = ' (as it was when this conversation began)';

export class ExclusionBaseline {
  private readonly ignoreFiles = new Map<string, SeenIgnoreFile<unknown>>();
  private readonly globs = new Map<string, ExcludeGlobs>();

  /**
   * The ignore file at `key` (a folder and a path in it) as first seen: `now` is remembered when
   * it is the first sighting, and what was remembered is returned.
   */
  ignoreFile<T>(key: string, now: SeenIgnoreFile<T>): SeenIgnoreFile<T> {
    const seen = this.ignoreFiles.get(key) as SeenIgnoreFile<T> | undefined;
    if (seen) return seen;
    this.ignoreFiles.set(key, now);
    return now;
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
