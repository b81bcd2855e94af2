// What a workspace folder shares with a model: everything but what files.exclude, search.exclude
// and .gitignore leave out. Sensitive files are shared only with the user's one-time approval;
// writes to files that run code (guardedWrites.ts) are always asked. Both are decided by the path
// in the folder and by the real absolute path: a folder opened at `~/.aws` (or at `.vscode`) holds
// `credentials` (`tasks.json`), which its folder-relative paths do not say.
// Pure: the .gitignore files are read by the caller and handed in.
import { compileGlob, pathPrefixes, type PathMatcher } from './glob';
import { guardedWriteMatcher, type GuardReason } from './guardedWrites';
import { gitignoreVerdict, isGitignored, type GitignoreFile } from './gitignore';
import { sensitiveMatcher } from './sensitivePaths';

/** Exclude globs by where they come from (e.g. `files.exclude`), workspace-folder-relative. */
export type ExcludeGlobs = Readonly<Record<string, readonly string[]>>;

export class FileRules {
  private readonly excludes: ReadonlyArray<readonly [string, PathMatcher]>;
  private readonly sensitive: (path: string, checkedDepth?: number) => string | undefined;
  private readonly guarded: (path: string, checkedDepth?: number) => GuardReason | undefined;
  /** The folder's absolute paths as matched (`/`-separated, no leading slash), their depth, and what each is itself. */
  private readonly roots: ReadonlyArray<{
    readonly path: string;
    readonly depth: number;
    readonly sensitive?: string;
    readonly guarded?: GuardReason;
  }>;
  private readonly sensitiveAbsolute: (path: string, checkedDepth?: number) => string | undefined;
  private readonly guardedAbsolute: (path: string, checkedDepth?: number) => GuardReason | undefined;

  /**
   * `roots`: the folder's real absolute path, and its path as the editor names it when that differs
   * (a folder opened at a link named .git/hooks is run by that name), matched too (see above); none
   * in pure tests of relative paths.
   */
  constructor(
    excludes: ExcludeGlobs,
    sensitiveExtra: readonly string[] = [],
    readonly caseInsensitive = false,
    guardedExtra: readonly string[] = [],
    roots: string | readonly string[] = [],
  ) {
    // An exclude pattern that cannot be read keeps everything out rather than nothing.
    this.excludes = Object.entries(excludes).flatMap(([source, globs]) =>
      globs.map((glob) => [source, compileGlob(glob, caseInsensitive, 'everything')] as const),
    );
    this.sensitive = sensitiveMatcher(sensitiveExtra);
    this.guarded = guardedWriteMatcher(guardedExtra);
    this.sensitiveAbsolute = sensitiveMatcher(sensitiveExtra, false);
    this.guardedAbsolute = guardedWriteMatcher(guardedExtra, false);
    const paths = (typeof roots === 'string' ? [roots] : roots).map((root) =>
      root.replace(/\\/g, '/').split('/').filter(Boolean).join('/'),
    );
    this.roots = [...new Set(paths)].map((path) => {
      const sensitive = path ? this.sensitiveAbsolute(path) : undefined;
      const guarded = path ? this.guardedAbsolute(path) : undefined;
      return {
        path,
        depth: path ? path.split('/').length : 0,
        ...(sensitive ? { sensitive } : {}),
        ...(guarded ? { guarded } : {}),
      };
    });
  }

  /**
   * Why `path` (workspace-folder-relative) is left out, or undefined when it is shared. `checkFolders`
   * false when its folders were already checked (a walk that does not enter excluded folders).
   */
  excludedBy(
    path: string,
    isFolder: boolean,
    gitignores: readonly GitignoreFile[],
    checkFolders = true,
  ): string | undefined {
    const candidates = checkFolders ? pathPrefixes(path) : [path];
    for (const candidate of candidates) {
      const hit = this.excludes.find(([, matches]) => matches(candidate));
      if (hit) return hit[0];
    }
    const ignored = checkFolders
      ? isGitignored(gitignores, path, isFolder)
      : gitignoreVerdict(gitignores, path, isFolder) === true;
    return ignored ? '.gitignore' : undefined;
  }

  /**
   * The sensitive pattern `path` falls under (by itself or its real absolute path), or undefined.
   * `foldersChecked`: its folders were already found not sensitive (a walk), so only it is looked at.
   */
  sensitivePattern(path: string, foldersChecked = false): string | undefined {
    const skip = foldersChecked ? path.split('/').length - 1 : 0;
    const relative = this.sensitive(path, skip);
    if (relative !== undefined) return relative;
    for (const root of this.roots) {
      const hit = root.sensitive ?? this.sensitiveAbsolute(`${root.path}/${path}`, root.depth + skip);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  /** Why a write to `path` is always asked (it can run code, it steers the model, it decides what is read), or undefined. */
  guardReason(path: string): GuardReason | undefined {
    const relative = this.guarded(path);
    if (relative) return relative;
    for (const root of this.roots) {
      const hit = root.guarded ?? this.guardedAbsolute(`${root.path}/${path}`, root.depth);
      if (hit) return hit;
    }
    return undefined;
  }
}
