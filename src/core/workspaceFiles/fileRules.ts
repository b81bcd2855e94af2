// What a workspace folder shares with a model: everything but what files.exclude, search.exclude
// and .gitignore leave out. Sensitive files are shared only with the user's one-time approval;
// writes to files that run code (guardedWrites.ts) are always asked.
// Pure: the .gitignore files are read by the caller and handed in.
import { compileGlob, pathPrefixes, type PathMatcher } from './glob';
import { guardedWriteMatcher, type GuardReason } from './guardedWrites';
import { gitignoreVerdict, isGitignored, type GitignoreFile } from './gitignore';
import { sensitiveMatcher } from './sensitivePaths';

/** Exclude globs by where they come from (e.g. `files.exclude`), workspace-folder-relative. */
export type ExcludeGlobs = Readonly<Record<string, readonly string[]>>;

export class FileRules {
  private readonly excludes: ReadonlyArray<readonly [string, PathMatcher]>;
  private readonly sensitive: (path: string) => string | undefined;
  private readonly guarded: (path: string) => GuardReason | undefined;

  constructor(excludes: ExcludeGlobs, sensitiveExtra: readonly string[] = [], readonly caseInsensitive = false, guardedExtra: readonly string[] = []) {
    // An exclude pattern that cannot be read keeps everything out rather than nothing.
    this.excludes = Object.entries(excludes).flatMap(([source, globs]) => globs.map((glob) => [source, compileGlob(glob, caseInsensitive, 'everything')] as const));
    this.sensitive = sensitiveMatcher(sensitiveExtra);
    this.guarded = guardedWriteMatcher(guardedExtra);
  }

  /**
   * Why `path` (workspace-folder-relative) is left out, or undefined when it is shared. `checkFolders`
   * false when its folders were already checked (a walk that does not enter excluded folders).
   */
  excludedBy(path: string, isFolder: boolean, gitignores: readonly GitignoreFile[], checkFolders = true): string | undefined {
    const candidates = checkFolders ? pathPrefixes(path) : [path];
    for (const candidate of candidates) {
      const hit = this.excludes.find(([, matches]) => matches(candidate));
      if (hit) return hit[0];
    }
    const ignored = checkFolders ? isGitignored(gitignores, path, isFolder) : gitignoreVerdict(gitignores, path, isFolder) === true;
    return ignored ? '.gitignore' : undefined;
  }

  /** The sensitive pattern `path` falls under, or undefined. */
  sensitivePattern(path: string): string | undefined {
    return this.sensitive(path);
  }

  /** Why a write to `path` is always asked (it can run code, it steers the model), or undefined. */
  guardReason(path: string): GuardReason | undefined {
    return this.guarded(path);
  }
}
