// Files whose content makes code run, steers a model, or decides what a model may read: a write
// there is always asked, even with unifiedInference.chat.autoApproveEdits on, and never covered by
// "Allow for this conversation". An edit of src/ can at worst be wrong (until a test runs it:
// docs/security.md says so); an edit of .vscode/tasks.json runs on the next folder open without anyone
// looking. The list is built from what tools really run, ecosystem by ecosystem, each entry with
// what runs it. One list, here: the edit tools, Apply and the approval card all read it. Matched
// without regard to case everywhere: asking once too often costs a click, `.VSCode/Tasks.json`
// slipping through on a case-insensitive disk would cost much more. Pure.
import { compileGlob, pathPrefixes, type PathMatcher } from './glob';
import { userGlob } from './sensitivePaths';

/**
 * Why a write is always asked: the card says it in words. `changesReads`: it decides what the
 * model may read (a .gitignore). `otherNames`: a hard link, whose other names (a hook, a script)
 * cannot be found cheaply.
 */
export type GuardReason = 'runsCode' | 'instructsModel' | 'changesReads' | 'otherNames';

export interface GuardedPath {
  /** The displayed path that matched (the file, or through a link its target). */
  readonly path: string;
  readonly reason: GuardReason;
}

/**
 * Workspace-folder-relative globs (`**\/` ones at any depth, and also matched against the real
 * absolute path, so a folder opened at `.vscode` or `.git/hooks` is still guarded), and why.
 */
export const BUILT_IN_GUARDED_WRITES: ReadonlyArray<readonly [string, GuardReason]> = [
  // The editor's own configuration: tasks (runOn folderOpen), launch configurations, settings
  // that name executables (terminal profiles, interpreters, formatters), MCP servers, extensions.
  ['**/.vscode', 'runsCode'],
  ['**/*.code-workspace', 'runsCode'],
  ['**/.devcontainer', 'runsCode'], // container build, postCreateCommand
  ['**/.devcontainer.json', 'runsCode'],
  ['**/.gitpod.yml', 'runsCode'], // tasks run when the workspace starts
  ['**/.idx', 'runsCode'], // dev.nix of Project IDX / Firebase Studio
  // Other editors opening the same folder: their tasks, run configurations and local scripts.
  ['**/.idea', 'runsCode'], // JetBrains run configurations and startup tasks
  ['**/.zed', 'runsCode'], // Zed tasks and language-server commands
  ['**/.helix', 'runsCode'], // Helix languages.toml names language-server commands
  ['**/.nvim.lua', 'runsCode'], // Neovim runs it with 'exrc'
  ['**/.exrc', 'runsCode'],
  ['**/.dir-locals.el', 'runsCode'], // Emacs evaluates it (eval: forms)
  ['**/*.sublime-project', 'runsCode'], // Sublime build systems
  // Shells and run-commands files: a tool's "...rc" is read on every start, and many name plugins
  // or commands by path (.babelrc, .prettierrc, .eslintrc, .mocharc, .lintstagedrc, .nycrc,
  // .npmrc, .bazelrc, .bashrc...), in any extension (.prettierrc.json, .mocharc.yml, .babelrc.js).
  ['**/.*rc', 'runsCode'],
  ['**/.*rc.*', 'runsCode'],
  ['**/.env*', 'runsCode'], // .envrc is run by direnv; .env files feed variables like NODE_OPTIONS
  ['**/.{profile,bash_profile,bash_login,bash_logout,zprofile,zshenv,zlogin,Rprofile}', 'runsCode'], // shell and R startup
  ['**/*.{sh,bash,zsh,fish,ksh,csh,ps1,psm1,psd1,bat,cmd,command,vbs}', 'runsCode'],
  // JavaScript and TypeScript: package scripts and install hooks, the package manager's own code,
  // and tool configuration that is itself a program (or names one), loaded by editor extensions
  // when a file opens (ESLint, Prettier, Jest, Vitest) or by every build and test run.
  ['**/package.json', 'runsCode'], // lifecycle and named scripts
  ['**/.yarnrc', 'runsCode'],
  ['**/.yarn', 'runsCode'], // yarnPath release, plugins, editor SDKs: run by every yarn command
  ['**/.pnp.{cjs,js,loader.mjs}', 'runsCode'], // Yarn PnP loader, required by every node start
  ['**/.pnpmfile.cjs', 'runsCode'],
  ['**/deno.{json,jsonc}', 'runsCode'], // deno tasks
  ['**/bunfig.toml', 'runsCode'], // bun preloads
  ['**/*.config.*', 'runsCode'], // vite, jest, babel, eslint, playwright, lint-staged... in any extension
  ['**/*.conf.{js,cjs,mjs,ts,cts,mts}', 'runsCode'], // karma.conf.js, protractor.conf.js
  ['**/{gulpfile,gruntfile,jakefile}*', 'runsCode'],
  ['**/.storybook', 'runsCode'], // main.js, preview.js
  // Python: what pip, pytest, tox, nox and every interpreter start import or run.
  ['**/conftest.py', 'runsCode'], // pytest imports it before any test
  ['**/setup.py', 'runsCode'], // pip and setuptools run it to build or install
  ['**/setup.cfg', 'runsCode'], // setuptools, pytest and flake8 options (plugins, addopts)
  ['**/pyproject.toml', 'runsCode'], // build backend (backend-path may name a module here), pytest addopts, hatch/pdm scripts
  ['**/{pytest,tox,mypy,.mypy}.ini', 'runsCode'], // test commands, plugins
  ['**/.flake8', 'runsCode'], // local plugins, loaded by the editor's linter
  ['**/pylintrc', 'runsCode'], // load-plugins
  ['**/noxfile.py', 'runsCode'],
  ['**/Pipfile', 'runsCode'], // pipenv scripts
  ['**/{site,user}customize.py', 'runsCode'], // imported by every Python start that has it on its path
  ['**/*.pth', 'runsCode'], // import lines run by every Python start of a virtual environment
  // Rust: cargo (and rust-analyzer, when the folder opens) builds and runs build scripts and
  // procedural macros.
  ['**/build.rs', 'runsCode'],
  ['**/Cargo.toml', 'runsCode'], // names the build script, macros and linked programs
  ['**/.cargo', 'runsCode'], // config: runners, rustc wrappers, aliases
  ['**/rust-toolchain{,.toml}', 'runsCode'], // the toolchain rustup runs (a path is allowed)
  // Go: the toolchain directive makes go and gopls download and run that toolchain.
  ['**/go.{mod,work}', 'runsCode'],
  // JVM: Gradle and Maven run their build scripts, plugins and wrappers (editors import on open).
  ['**/*.gradle{,.kts}', 'runsCode'], // build.gradle, settings.gradle, init scripts
  ['**/gradle.properties', 'runsCode'], // JVM arguments, Java home
  ['**/gradlew{,.bat}', 'runsCode'],
  ['**/gradle/wrapper', 'runsCode'], // distributionUrl: the Gradle that gradlew downloads and runs
  ['**/buildSrc', 'runsCode'], // compiled into the build
  ['**/pom.xml', 'runsCode'], // plugins, exec goals
  ['**/mvnw{,.cmd}', 'runsCode'],
  ['**/.mvn', 'runsCode'], // wrapper properties, extensions.xml, jvm.config
  ['**/*.sbt', 'runsCode'], // sbt build definition
  ['**/project/*.scala', 'runsCode'],
  ['**/.{sbtopts,jvmopts}', 'runsCode'],
  ['**/build.{sc,mill}', 'runsCode'], // Mill
  // .NET: MSBuild runs Exec tasks and targets, also in the design-time builds editors do on open.
  ['**/*.{csproj,fsproj,vbproj,vcxproj,proj,props,targets}', 'runsCode'], // Directory.Build.props/targets too
  ['**/nuget.config', 'runsCode'], // package sources: which packages' build targets run
  // Ruby and other languages whose manifests are programs.
  ['**/Gemfile', 'runsCode'], // Bundler evaluates it as Ruby
  ['**/*.gemspec', 'runsCode'],
  ['**/Rakefile', 'runsCode'],
  ['**/*.rake', 'runsCode'],
  ['**/{Guardfile,Vagrantfile,Podfile,Fastfile,Brewfile}', 'runsCode'],
  ['**/.rspec', 'runsCode'], // --require
  ['**/composer.json', 'runsCode'], // Composer scripts
  ['**/mix.exs', 'runsCode'], // Elixir's mix
  ['**/Package.swift', 'runsCode'], // SwiftPM (and sourcekit-lsp on open)
  ['**/Setup.hs', 'runsCode'], // Cabal custom setup
  ['**/{Makefile,Build}.PL', 'runsCode'], // Perl
  ['**/build.zig', 'runsCode'],
  // Build files and task runners.
  ['**/Makefile', 'runsCode'],
  ['**/GNUmakefile', 'runsCode'],
  ['**/*.mk', 'runsCode'],
  ['**/CMakeLists.txt', 'runsCode'], // CMake Tools configures on open (execute_process)
  ['**/*.cmake', 'runsCode'],
  ['**/CMake{,User}Presets.json', 'runsCode'],
  ['**/meson.build', 'runsCode'],
  ['**/meson{_options.txt,.options}', 'runsCode'],
  ['**/configure{,.ac}', 'runsCode'],
  // Bazel (a bare BUILD file is left out: matched without case it would be every build/ folder).
  ['**/BUILD.bazel', 'runsCode'],
  ['**/WORKSPACE{,.bazel}', 'runsCode'],
  ['**/MODULE.bazel', 'runsCode'],
  ['**/*.bzl', 'runsCode'],
  ['**/{Earthfile,Tiltfile,Procfile}', 'runsCode'],
  ['**/{flake,shell,default,devenv}.nix', 'runsCode'], // nix develop, direnv's use flake
  ['**/{.,}justfile', 'runsCode'], // just
  ['**/*.just', 'runsCode'],
  ['**/Taskfile*.{yml,yaml}', 'runsCode'], // go-task
  ['**/{.,}mise{,.*}.toml', 'runsCode'], // mise tasks, hooks and env scripts
  ['**/{.,}mise/{tasks,config.toml}', 'runsCode'],
  ['**/.config/mise', 'runsCode'],
  ['**/.rtx.toml', 'runsCode'],
  ['**/Dockerfile', 'runsCode'],
  ['**/Containerfile', 'runsCode'],
  ['**/*.dockerfile', 'runsCode'],
  ['**/{docker-,}compose*.{yml,yaml}', 'runsCode'],
  // Version control: hooks inside .git, or installed from the repository by husky / pre-commit /
  // lefthook / overcommit (a custom core.hooksPath is added per folder, gitRunPaths.ts); filter
  // and diff drivers chosen by .gitattributes.
  ['**/.git', 'runsCode'],
  ['**/.husky', 'runsCode'],
  ['**/.githooks', 'runsCode'],
  ['**/.pre-commit-{config,hooks}.yaml', 'runsCode'],
  ['**/{.,}lefthook*', 'runsCode'],
  ['**/.overcommit.yml', 'runsCode'],
  ['**/.gitmodules', 'runsCode'],
  ['**/.gitattributes', 'runsCode'],
  // A shared config a repository's .git/config includes (include.path): core.fsmonitor, filters, hooksPath.
  ['**/.gitconfig', 'runsCode'],
  // What the model may read: a .gitignore decides it (.git/info/exclude is under .git above).
  ['**/.gitignore', 'changesReads'],
  // Continuous integration: runs with the repository's secrets (also a repository nested here).
  ['**/.github/workflows', 'runsCode'],
  ['**/.github/actions', 'runsCode'],
  ['**/action.{yml,yaml}', 'runsCode'], // an action defined by the repository itself
  ['**/.gitea/workflows', 'runsCode'],
  ['**/.forgejo/workflows', 'runsCode'],
  ['**/.gitlab-ci.yml', 'runsCode'],
  ['**/.gitlab', 'runsCode'], // CI includes and templates
  ['**/azure-pipelines*.{yml,yaml}', 'runsCode'],
  ['**/.azure-pipelines', 'runsCode'],
  ['**/.circleci', 'runsCode'],
  ['**/Jenkinsfile*', 'runsCode'],
  ['**/.travis.yml', 'runsCode'],
  ['**/{.,}appveyor.yml', 'runsCode'],
  ['**/bitbucket-pipelines.yml', 'runsCode'],
  ['**/.buildkite', 'runsCode'],
  ['**/.drone.yml', 'runsCode'],
  ['**/.woodpecker{,.yml,.yaml}', 'runsCode'],
  ['**/cloudbuild.{yml,yaml,json}', 'runsCode'],
  ['**/buildspec*.{yml,yaml}', 'runsCode'], // AWS CodeBuild
  ['**/.semaphore', 'runsCode'],
  ['**/.cirrus.{yml,star}', 'runsCode'],
  ['**/{bitrise,codemagic}.{yml,yaml}', 'runsCode'],
  ['**/.teamcity', 'runsCode'],
  ['**/.tekton', 'runsCode'],
  ['**/{netlify.toml,vercel.json}', 'runsCode'], // build commands run on deploy
  ['**/.ci', 'runsCode'], // CI scripts by convention
  // Other agents' configuration: MCP servers they start and hooks they run.
  ['**/.mcp.json', 'runsCode'],
  ['**/.cursor', 'runsCode'], // mcp.json, rules
  ['**/.claude', 'runsCode'], // settings.json hooks run commands; agents, commands
  ['**/.gemini', 'runsCode'], // settings.json MCP servers
  ['**/.roo', 'runsCode'], // mcp.json, rules
  ['**/.continue', 'runsCode'], // MCP servers, rules
  ['**/.amazonq', 'runsCode'], // MCP servers, rules
  ['**/.kiro', 'runsCode'], // hooks, steering
  ['**/.codex', 'runsCode'],
  ['**/.openhands', 'runsCode'], // setup.sh, microagents
  ['**/.opencode', 'runsCode'],
  ['**/opencode.{json,jsonc}', 'runsCode'],
  ['**/.aider.conf.yml', 'runsCode'], // lint and test commands
  // Instructions every later conversation (this chat's, and other agents') puts before the model.
  ['**/AGENTS.md', 'instructsModel'],
  ['**/AGENT.md', 'instructsModel'],
  ['**/CLAUDE{,.local}.md', 'instructsModel'],
  ['**/GEMINI.md', 'instructsModel'],
  ['**/.github/copilot-instructions.md', 'instructsModel'],
  ['**/.github/{instructions,prompts,chatmodes,agents}', 'instructsModel'],
  ['**/.cursorrules', 'instructsModel'],
  ['**/.clinerules', 'instructsModel'],
  ['**/.windsurfrules', 'instructsModel'],
  ['**/.windsurf', 'instructsModel'],
  ['**/.roorules', 'instructsModel'],
  ['**/.roomodes', 'instructsModel'],
  ['**/.junie', 'instructsModel'],
  ['**/.augment-guidelines', 'instructsModel'],
  ['**/.goosehints', 'instructsModel'],
  ['**/.rules', 'instructsModel'], // Zed
  ['**/.trae', 'instructsModel'],
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

/** Whether a glob matches at any depth (so it also applies to an absolute path). */
function floatsFree(glob: string): boolean {
  return glob.startsWith('**/');
}

/**
 * Why a write to the workspace-folder-relative `path` is always asked (the path itself or one of
 * its folders: everything under `.vscode/` or `.git/`), or undefined. `extra`: user globs, as in
 * unifiedInference.sensitiveFiles (no slash: a file name at any depth), counted as running code.
 * `anchored` false: `path` is a real absolute path (`/home/me/.vscode/tasks.json`), tried against
 * the globs that match at any depth only (a glob anchored at the workspace folder means nothing there).
 * `checkedDepth`: that many leading folders were checked already (the workspace folder's own path).
 */
export function guardedWriteMatcher(
  extra: readonly string[] = [],
  anchored = true,
): (path: string, checkedDepth?: number) => GuardReason | undefined {
  const patterns: Array<[GuardReason, PathMatcher]> = [
    ...BUILT_IN_GUARDED_WRITES.filter(([glob]) => anchored || floatsFree(glob)).map(
      ([glob, reason]): [GuardReason, PathMatcher] => [reason, compileGlob(glob, true)],
    ),
    ...extra
      .filter((glob) => glob.trim())
      .map(userGlob)
      .filter((glob) => anchored || floatsFree(glob))
      .map((glob): [GuardReason, PathMatcher] => ['runsCode', compileGlob(glob, true, 'everything')]),
  ];
  return (path, checkedDepth = 0) => {
    const segments = path.replace(/\\/g, '/').split('/').filter(Boolean);
    // An 8.3 short name (`VSCODE~1`) may alias any folder or file: it cannot be told apart.
    // (A real path has none: realpath gives long names.)
    if (anchored && segments.some((segment) => /~\d+(\.[^.]*)?$/.test(segment))) return 'runsCode';
    for (const prefix of [
      ...pathPrefixes(segments.join('/')).slice(checkedDepth),
      ...pathPrefixes(segments.map(windowsName).join('/')).slice(checkedDepth),
    ]) {
      const hit = patterns.find(([, matches]) => matches(prefix));
      if (hit) return hit[0];
    }
    return undefined;
  };
}
