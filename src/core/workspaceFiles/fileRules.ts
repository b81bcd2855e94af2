// What a workspace folder shares with a model: everything but what files.exclude, search.exclude
// and .gitignore leave out. Sensitive files are shared only with the user's one-time approval.
// Pure: the .gitignore files are read by the caller and handed in.
import { compileGlob, pathPrefixes, type PathMatcher } from './glob';
import { gitignoreVerdict, isGitignored, type GitignoreFile } from './gitignore';
import { sensitiveMatcher } from './sensitivePaths';

/** Exclude globs by where they come from (e.g. `files.exclude`), workspace-folder-relative. */
export type ExcludeGlobs = Readonly<Record<string, readonly string[]>>;

export class FileRules {
  private readonly excludes: ReadonlyArray<readonly [string, PathMatcher]>;
  private readonly sensitive: (path: string) => string | undefined;

  constructor(excludes: ExcludeGlobs, sensitiveExtra: readonly string[] = [], readonly caseInsensitive = false) {
    this.excludes = Object.entries(excludes).flatMap(([source, globs]) => globs.map((glob) => [source, compileGlob(glob, caseInsensitive)] as const));
    this.sensitive = sensitiveMatcher(sensitiveExtra);
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
}
