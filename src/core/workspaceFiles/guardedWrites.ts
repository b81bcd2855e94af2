// Files whose content makes code run (a task, a launch configuration, a package script, a git
// hook, a CI workflow, a shell script, a container definition) or steers the model (AGENTS.md):
// a write there is always asked, even with unifiedInference.chat.autoApproveEdits on, and never
// covered by "Allow for this conversation". An edit of src/ can at worst be wrong; an edit of
// .vscode/tasks.json runs on the next folder open without anyone looking. One list, here: the
// edit tools and the approval card both read it. Matched without regard to case everywhere:
// asking once too often costs a click, `.VSCode/Tasks.json` slipping through on a
// case-insensitive disk would cost much more. Pure.
import { compileGlob, pathPrefixes, type PathMatcher } from './glob';
import { userGlob } from './sensitivePaths';

/** Why a write is always asked: the card says it in words. */
export type GuardReason = 'runsCode' | 'instructsModel';

export interface GuardedPath {
  /** The displayed path that matched (the file, or through a link its target). */
  readonly path: string;
  readonly reason: GuardReason;
}

/** Workspace-folder-relative globs (any depth unless they start at the folder), and why. */
export const BUILT_IN_GUARDED_WRITES: ReadonlyArray<readonly [string, GuardReason]> = [
  // The editor's own configuration: tasks (runOn folderOpen), launch configurations, settings
  // that name executables (terminal profiles, interpreters, formatters), recommended extensions.
  ['**/.vscode', 'runsCode'],
  ['**/*.code-workspace', 'runsCode'],
  ['**/.devcontainer', 'runsCode'],
  ['**/.devcontainer.json', 'runsCode'],
  // Package managers: lifecycle and named scripts, install hooks, registry and script settings.
  ['**/package.json', 'runsCode'],
  ['**/.npmrc', 'runsCode'],
  ['**/.yarnrc', 'runsCode'],
  ['**/.yarnrc.yml', 'runsCode'],
  ['**/.pnpmfile.cjs', 'runsCode'],
  ['**/.env*', 'runsCode'], // .envrc is run by direnv; .env files feed variables like NODE_OPTIONS
  // Version control hooks (inside .git, or installed from the repository by husky / pre-commit / lefthook).
  ['**/.git', 'runsCode'],
  ['**/.husky', 'runsCode'],
  ['**/.githooks', 'runsCode'],
  ['**/.pre-commit-config.yaml', 'runsCode'],
  ['**/lefthook.yml', 'runsCode'],
  ['**/.gitmodules', 'runsCode'],
  // Continuous integration: runs with the repository's secrets.
  ['.github/workflows', 'runsCode'],
  ['.github/actions', 'runsCode'],
  ['**/.gitlab-ci.yml', 'runsCode'],
  ['**/azure-pipelines.yml', 'runsCode'],
  ['**/.circleci', 'runsCode'],
  ['**/Jenkinsfile', 'runsCode'],
  // Build files and scripts.
  ['**/Makefile', 'runsCode'],
  ['**/GNUmakefile', 'runsCode'],
  ['**/*.mk', 'runsCode'],
  ['**/*.{sh,bash,zsh,fish,ps1,psm1,bat,cmd}', 'runsCode'],
  ['**/Dockerfile', 'runsCode'],
  ['**/*.dockerfile', 'runsCode'],
  ['**/{docker-,}compose*.{yml,yaml}', 'runsCode'],
  // Tool configuration that is itself a program, loaded by editor extensions when a file opens
  // (ESLint, Prettier) or by every build and test run.
  ['**/*.config.{js,cjs,mjs,ts,cts,mts}', 'runsCode'],
  ['**/.eslintrc.{js,cjs}', 'runsCode'],
  ['**/.prettierrc.{js,cjs,mjs}', 'runsCode'],
  // Instructions every later conversation (this chat's, and other agents') puts before the model.
  ['**/AGENTS.md', 'instructsModel'],
  ['**/CLAUDE.md', 'instructsModel'],
  ['**/.github/copilot-instructions.md', 'instructsModel'],
  ['**/.github/instructions', 'instructsModel'],
  ['**/.github/prompts', 'instructsModel'],
  ['**/.cursorrules', 'instructsModel'],
  ['**/.cursor/rules', 'instructsModel'],
];

/**
 * The name Windows opens for a path segment: trailing dots and spaces are dropped (`tasks.json.`
 * is tasks.json) and `name:stream` writes a stream of `name`. Applied everywhere: elsewhere it can
 * only make a path ask more.
 */
function windowsName(segment: string): string {
  const name = segment.split(':')[0] ?? segment;
  return name.replace(/[. ]+$/, '') || name;
}

/**
 * Why a write to the workspace-folder-relative `path` is always asked (the path itself or one of
 * its folders: everything under `.vscode/` or `.git/`), or undefined. `extra`: user globs, as in
 * unifiedInference.sensitiveFiles (no slash: a file name at any depth), counted as running code.
 */
export function guardedWriteMatcher(extra: readonly string[] = []): (path: string) => GuardReason | undefined {
  const patterns: Array<[GuardReason, PathMatcher]> = [
    ...BUILT_IN_GUARDED_WRITES.map(([glob, reason]): [GuardReason, PathMatcher] => [reason, compileGlob(glob, true)]),
    ...extra.filter((glob) => glob.trim()).map((glob): [GuardReason, PathMatcher] => ['runsCode', compileGlob(userGlob(glob), true)]),
  ];
  return (path) => {
    const segments = path.replace(/\\/g, '/').split('/').filter(Boolean);
    // An 8.3 short name (`VSCODE~1`) may alias any folder or file: it cannot be told apart.
    if (segments.some((segment) => /~\d+(\.[^.]*)?$/.test(segment))) return 'runsCode';
    for (const prefix of [...pathPrefixes(segments.join('/')), ...pathPrefixes(segments.map(windowsName).join('/'))]) {
      const hit = patterns.find(([, matches]) => matches(prefix));
      if (hit) return hit[0];
    }
    return undefined;
  };
}
