// Files a write to which is always asked (they run code or steer the model): the pure rule, then
// the same rule as WorkspaceFiles applies it to real paths on disk (links lead both ways).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_GUARDED_WRITES, guardedWriteMatcher } from '../../../src/core/workspaceFiles/guardedWrites';
import { compileGlob } from '../../../src/core/workspaceFiles/glob';
import { FileRules } from '../../../src/core/workspaceFiles/fileRules';
import { WorkspaceFiles } from '../../../src/core/workspaceFiles/workspaceFiles';

describe('core/workspaceFiles: writes that are always asked', () => {
  const guard = guardedWriteMatcher();

  it('knows editor configuration, package scripts, hooks, CI, build files, scripts and containers (running code)', () => {
    const runsCode = [
      '.vscode/tasks.json',
      '.vscode/launch.json',
      '.vscode/settings.json',
      '.vscode/extensions.json',
      'pkg/.vscode/tasks.json',
      'proj.code-workspace',
      '.devcontainer/devcontainer.json',
      '.devcontainer.json',
      'package.json',
      'packages/web/package.json',
      '.npmrc',
      '.yarnrc.yml',
      '.env',
      '.env.local',
      '.envrc',
      '.git/hooks/pre-commit',
      '.git/config',
      '.husky/pre-push',
      '.pre-commit-config.yaml',
      '.gitmodules',
      '.github/workflows/ci.yml',
      '.github/workflows/deep/x.yaml',
      '.github/actions/setup/action.yml',
      '.gitlab-ci.yml',
      'Makefile',
      'sub/GNUmakefile',
      'rules.mk',
      'build.sh',
      'tools/x.bash',
      'run.ps1',
      'win/setup.bat',
      'go.cmd',
      'Dockerfile',
      'svc/api.dockerfile',
      'docker-compose.yml',
      'compose.yaml',
      'eslint.config.mjs',
      'vite.config.ts',
      '.eslintrc.js',
      '.prettierrc.cjs',
    ];
    for (const path of runsCode) assert.equal(guard(path), 'runsCode', path);
  });

  it("knows the build and test entry points of every ecosystem, task runners, other CI hosts and other agents' MCP files (running code)", () => {
    const runsCode = [
      // Rust, Python
      'build.rs',
      'crates/x/build.rs',
      'Cargo.toml',
      '.cargo/config.toml',
      '.cargo/config',
      'rust-toolchain.toml',
      'tests/conftest.py',
      'setup.py',
      'setup.cfg',
      'pyproject.toml',
      'tox.ini',
      'pytest.ini',
      'noxfile.py',
      'Pipfile',
      'sitecustomize.py',
      '.venv/lib/site-packages/x.pth',
      // JVM, .NET, Go, Ruby and friends
      'build.gradle',
      'app/build.gradle.kts',
      'settings.gradle',
      'gradle.properties',
      'gradlew',
      'gradlew.bat',
      'gradle/wrapper/gradle-wrapper.properties',
      'buildSrc/src/main/kotlin/x.kt',
      'pom.xml',
      'mvnw',
      'mvnw.cmd',
      '.mvn/extensions.xml',
      'build.sbt',
      'project/Build.scala',
      'App.csproj',
      'Directory.Build.props',
      'go.mod',
      'go.work',
      'Gemfile',
      'x.gemspec',
      'Rakefile',
      'lib/tasks/db.rake',
      'composer.json',
      'mix.exs',
      'Package.swift',
      'CMakeLists.txt',
      'cmake/x.cmake',
      'meson.build',
      'flake.nix',
      // JavaScript tool configuration in any extension, and rc files that name plugins
      '.prettierrc',
      '.prettierrc.json',
      '.prettierrc.yaml',
      '.babelrc',
      '.babelrc.js',
      '.mocharc.yml',
      '.lintstagedrc.json',
      '.eslintrc.json',
      '.nycrc',
      'babel.config.json',
      'jest.config.json',
      'karma.conf.js',
      'gulpfile.js',
      '.yarn/releases/yarn.cjs',
      '.pnp.cjs',
      'deno.json',
      // Task runners, other CI hosts, a nested repository's workflows
      'justfile',
      '.justfile',
      'Taskfile.yml',
      'mise.toml',
      '.mise.toml',
      'mise/tasks/build',
      '.travis.yml',
      'bitbucket-pipelines.yml',
      '.buildkite/pipeline.yml',
      '.drone.yml',
      'vendor/lib/.github/workflows/ci.yml',
      '.gitea/workflows/x.yml',
      '.gitlab/ci/test.yml',
      'azure-pipelines.yml',
      'Jenkinsfile',
      'action.yml',
      'netlify.toml',
      '.gitattributes',
      // Other editors and agents
      '.idea/runConfigurations/x.xml',
      '.zed/tasks.json',
      '.mcp.json',
      '.cursor/mcp.json',
      '.claude/settings.json',
      '.gemini/settings.json',
      '.roo/mcp.json',
      '.continue/config.yaml',
      '.aider.conf.yml',
    ];
    for (const path of runsCode) assert.equal(guard(path), 'runsCode', path);
    for (const path of [
      'GEMINI.md',
      '.clinerules',
      '.clinerules/style.md',
      '.windsurfrules',
      '.github/chatmodes/x.chatmode.md',
      'CLAUDE.local.md',
    ])
      assert.equal(guard(path), 'instructsModel', path);
    for (const path of ['.gitignore', 'src/gen/.gitignore']) assert.equal(guard(path), 'changesReads', path);
    for (const path of [
      'build/out.js',
      'src/build/index.ts',
      'src/project.scala',
      'docs/setup.md',
      'src/config.ts',
      'lib/gradle.ts',
    ])
      assert.equal(guard(path), undefined, path);
  });

  it('also judges the real absolute path, with the globs that match at any depth (a folder opened at .vscode or .git/hooks)', () => {
    const absolute = guardedWriteMatcher(['*.tpl', 'tools/**'], false);
    assert.equal(absolute('home/me/proj/.vscode/tasks.json'), 'runsCode');
    assert.equal(absolute('C:/Users/me/proj/.git/hooks/pre-commit'), 'runsCode');
    assert.equal(absolute('home/me/views/a.tpl'), 'runsCode', 'a user glob without a slash floats');
    assert.equal(
      absolute('tools/proj/src/a.ts'),
      undefined,
      'a glob anchored at the workspace folder means nothing in an absolute path',
    );
    assert.equal(absolute('home/me/PROGRA~1/src/a.ts'), undefined, 'a real path has no short names to distrust');
    const rules = new FileRules({}, [], false, [], join(tmpdir(), 'proj', '.vscode'));
    assert.equal(rules.guardReason('tasks.json'), 'runsCode');
    assert.equal(new FileRules({}, [], false, [], join(tmpdir(), 'proj')).guardReason('src/a.ts'), undefined);
  });

  it('knows the instruction files that steer the model', () => {
    for (const path of [
      'AGENTS.md',
      'pkg/AGENTS.md',
      '.github/copilot-instructions.md',
      '.github/instructions/ts.instructions.md',
      'CLAUDE.md',
      '.cursorrules',
    ])
      assert.equal(guard(path), 'instructsModel', path);
  });

  it('leaves ordinary source, docs and data alone', () => {
    for (const path of [
      'src/index.ts',
      'README.md',
      'docs/AGENTS.md.txt',
      'package-lock.json',
      'src/package.json.ts',
      'data/vscode/tasks.json',
      'my.vscode/x.json',
      'notes.shell',
      'workflows/ci.yml',
      'scripts/config.json',
      'src/sh',
      'makefile.txt',
    ]) {
      assert.equal(guard(path), undefined, path);
    }
  });

  it('ignores case, as a case-insensitive disk does (.VSCode/Tasks.json is .vscode/tasks.json there)', () => {
    for (const path of [
      '.VSCODE/TASKS.JSON',
      'Package.JSON',
      'MAKEFILE',
      'BUILD.SH',
      '.GitHub/Workflows/ci.yml',
      'agents.md',
      '.Git/hooks/pre-commit',
    ])
      assert.ok(guard(path), path);
  });

  it('sees through the names Windows rewrites: trailing dots and spaces, streams, 8.3 short names, backslashes', () => {
    for (const path of [
      'package.json.',
      'package.json ',
      '.vscode./tasks.json',
      '.vscode /tasks.json',
      'package.json:evil',
      'VSCODE~1/tasks.json',
      'PACKAG~1.JSO',
      '.vscode\\tasks.json',
      '/.vscode/tasks.json',
    ]) {
      assert.equal(guard(path), 'runsCode', path);
    }
    assert.equal(guard('x:y.sh'), 'runsCode', 'a colon is an ordinary character on Linux, where x:y.sh is a script');
  });

  it('adds user globs (a name without a slash at any depth, counted as running code) and never narrows the built-in list', () => {
    const withExtra = guardedWriteMatcher(['*.py', 'tools/**', '  ', '']);
    assert.equal(withExtra('a/b/setup.py'), 'runsCode');
    assert.equal(withExtra('tools/gen/x.json'), 'runsCode');
    assert.equal(withExtra('src/tools/x.json'), undefined, 'a pattern with a slash is anchored at the folder');
    assert.equal(withExtra('.vscode/tasks.json'), 'runsCode');
    assert.equal(withExtra('src/a.ts'), undefined, 'blank globs match nothing');
  });

  it('is one list of globs that all compile to something (no pattern is dead)', () => {
    for (const [glob] of BUILT_IN_GUARDED_WRITES) {
      const example = glob
        .replace(/^\*\*\//, '')
        .replace(/\{([^,}]*)[^}]*\}/g, '$1')
        .replace(/\*/g, 'x');
      assert.ok(compileGlob(glob, true)(example), `${glob} matches ${example}`);
      assert.ok(guard(example), `${example} is guarded`);
    }
  });

  it('is asked through FileRules, next to the sensitive rule', () => {
    const rules = new FileRules({}, [], false, ['*.tpl']);
    assert.equal(rules.guardReason('.vscode/launch.json'), 'runsCode');
    assert.equal(rules.guardReason('views/a.tpl'), 'runsCode');
    assert.equal(rules.guardReason('src/a.ts'), undefined);
  });
});

describe('core/workspaceFiles: always-asked writes on disk', () => {
  let ws: string;
  let outsideLinkTarget: string;
  before(() => {
    ws = mkdtempSync(join(tmpdir(), 'ui-guarded-'));
    mkdirSync(join(ws, '.vscode'));
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, '.vscode', 'tasks.json'), '{}\n');
    writeFileSync(join(ws, 'src', 'a.ts'), 'export {};\n');
    writeFileSync(join(ws, 'package.json'), '{}\n');
    // A harmless name leading to a file that runs code, and a linked folder leading into .vscode.
    symlinkSync(join(ws, '.vscode', 'tasks.json'), join(ws, 'notes.txt'));
    symlinkSync(join(ws, '.vscode'), join(ws, 'editor'));
    outsideLinkTarget = join(ws, 'src', 'a.ts');
    symlinkSync(outsideLinkTarget, join(ws, 'Makefile'));
  });
  after(() => rmSync(ws, { recursive: true, force: true }));
  const open = (guarded: string[] = []): Promise<WorkspaceFiles> =>
    WorkspaceFiles.open({ folders: [{ name: 'ws', path: ws, excludes: {} }], guarded });

  it('names an existing guarded file, by the path asked and by the real path of a link', async () => {
    const files = await open();
    const direct = await files.resolve('.vscode/tasks.json');
    assert.ok(direct.ok);
    assert.deepEqual(direct.file.guarded, [{ path: '.vscode/tasks.json', reason: 'runsCode' }]);
    const linked = await files.resolve('notes.txt');
    assert.ok(linked.ok);
    assert.deepEqual(
      linked.file.guarded,
      [{ path: '.vscode/tasks.json', reason: 'runsCode' }],
      'the link target is what gets written',
    );
    const linkName = await files.resolve('Makefile');
    assert.ok(linkName.ok);
    assert.deepEqual(
      linkName.file.guarded,
      [{ path: 'Makefile', reason: 'runsCode' }],
      'make reads the link, whatever it leads to',
    );
    const plain = await files.resolve('src/a.ts');
    assert.ok(plain.ok);
    assert.deepEqual(plain.file.guarded, []);
  });

  it('names a new file inside a guarded place, also when a linked folder leads there', async () => {
    const files = await open();
    const fresh = await files.resolveNew('.vscode/launch.json');
    assert.ok(fresh.ok);
    assert.deepEqual(fresh.target.guarded, [{ path: '.vscode/launch.json', reason: 'runsCode' }]);
    const through = await files.resolveNew('editor/launch.json');
    assert.ok(through.ok);
    assert.deepEqual(through.target.guarded, [{ path: '.vscode/launch.json', reason: 'runsCode' }]);
    const written = await files.resolveForWrite('scripts/deploy.sh');
    assert.ok(written.ok && !written.exists);
    assert.deepEqual(written.file.guarded, [{ path: 'scripts/deploy.sh', reason: 'runsCode' }]);
    const plain = await files.resolveNew('src/b.ts');
    assert.ok(plain.ok);
    assert.deepEqual(plain.target.guarded, []);
  });

  it("applies the user's extra globs", async () => {
    const files = await open(['src/**']);
    const extra = await files.resolve('src/a.ts');
    assert.ok(extra.ok);
    assert.deepEqual(extra.file.guarded, [{ path: 'src/a.ts', reason: 'runsCode' }]);
  });
});
