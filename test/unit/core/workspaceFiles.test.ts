// The pure rules of what the workspace shares with a model (globs, .gitignore, sensitive paths,
// binary detection), then WorkspaceFiles on a real folder on disk: links, exclusions, bounded reads.
import * as assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  closeSync,
  ftruncateSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { compileGlob } from '../../../src/core/workspaceFiles/glob';
import { decodeText, looksBinary } from '../../../src/core/workspaceFiles/binary';
import { FileRules } from '../../../src/core/workspaceFiles/fileRules';
import { isGitignored, parseGitignore, type GitignoreFile } from '../../../src/core/workspaceFiles/gitignore';
import { relativeWithin } from '../../../src/core/workspaceFiles/rootFolders';
import { sensitiveMatcher } from '../../../src/core/workspaceFiles/sensitivePaths';
import { WorkspaceFiles } from '../../../src/core/workspaceFiles/workspaceFiles';

const ignored = (files: GitignoreFile[], path: string, folder = false): boolean => isGitignored(files, path, folder);
const root = (content: string): GitignoreFile => ({ base: '', rules: parseGitignore(content) });

describe('core/workspaceFiles: globs', () => {
  it('reads globs as VS Code does: * within a segment, ** across, braces and classes', () => {
    const m = (glob: string, path: string): boolean => compileGlob(glob)(path);
    assert.ok(m('**/node_modules', 'node_modules') && m('**/node_modules', 'a/b/node_modules'));
    assert.ok(!m('**/node_modules', 'node_modules_old'));
    assert.ok(m('src/**/*.ts', 'src/a.ts') && m('src/**/*.ts', 'src/x/y/a.ts') && !m('src/**/*.ts', 'lib/a.ts'));
    assert.ok(m('*.ts', 'a.ts') && !m('*.ts', 'src/a.ts'), '* does not cross a folder');
    assert.ok(m('**/*.{ts,md}', 'x/README.md') && !m('**/*.{ts,md}', 'x/a.js'));
    assert.ok(m('{src/**,docs/*.md}', 'docs/a.md') && m('{src/**,docs/*.md}', 'src/deep/a.js'));
    assert.ok(m('file[0-9].txt', 'file7.txt') && !m('file[!0-9].txt', 'file7.txt'));
    assert.ok(m('semantic/**', 'semantic/a/b.ts') && m('**', 'anything/at/all'));
    assert.ok(m('**/.env*', '.env') && m('**/.env*', 'a/.env.local'));
    assert.ok(compileGlob('README.MD', true)('readme.md') && !compileGlob('README.MD')('readme.md'));
  });
});

describe('core/workspaceFiles: .gitignore', () => {
  it('re-includes with a negation, and later rules win', () => {
    const files = [root('*.log\n!keep.log\n')];
    assert.ok(ignored(files, 'debug.log') && ignored(files, 'deep/x/debug.log'));
    assert.ok(!ignored(files, 'keep.log') && !ignored(files, 'deep/keep.log'));
    assert.ok(ignored([root('!keep.log\n*.log\n')], 'keep.log'), 'a negation before the rule it undoes does nothing');
  });

  it('cannot re-include a file inside an ignored folder (git does not look there)', () => {
    const files = [root('build/\n!build/keep.txt\n')];
    assert.ok(ignored(files, 'build', true));
    assert.ok(ignored(files, 'build/keep.txt'));
    const contents = [root('build/*\n!build/keep.txt\n')];
    assert.ok(
      !ignored(contents, 'build/keep.txt') && ignored(contents, 'build/other.txt'),
      'ignoring the contents, not the folder, allows it',
    );
    const below = [root('out/**\n!out/keep.txt\n')];
    assert.ok(
      !ignored(below, 'out', true) && !ignored(below, 'out/keep.txt') && ignored(below, 'out/x/y.txt'),
      'dir/** is what is inside, not dir',
    );
  });

  it('anchors patterns with a slash, matches others at any depth, and dir/ only matches folders', () => {
    const files = [root('/dist\nsrc/gen\ntmp/\n**/cache/*.bin\na/**/z.txt\n')];
    assert.ok(ignored(files, 'dist', true) && !ignored(files, 'pkg/dist', true));
    assert.ok(ignored(files, 'src/gen/x.ts') && !ignored(files, 'lib/src/gen/x.ts'));
    assert.ok(
      ignored(files, 'x/tmp/file.txt') && !ignored(files, 'tmp'),
      'tmp/ ignores a folder, not a file named tmp',
    );
    assert.ok(ignored(files, 'q/cache/a.bin') && ignored(files, 'a/z.txt') && ignored(files, 'a/b/c/z.txt'));
  });

  it('applies nested .gitignore files below their folder, after the ones above', () => {
    const files: GitignoreFile[] = [
      root('*.log\nsecret/\n'),
      { base: 'pkg', rules: parseGitignore('!trace.log\n/out\n') },
    ];
    assert.ok(!ignored(files, 'pkg/trace.log') && ignored(files, 'trace.log'));
    assert.ok(ignored(files, 'pkg/out', true) && !ignored(files, 'out', true), '/out is anchored to pkg/');
  });

  it('reads comments, escapes and trailing spaces as git does', () => {
    const files = [root('# comment\n\\#hash.txt\n\\!bang.txt\nspaced.txt   \n\n')];
    assert.ok(ignored(files, '#hash.txt') && ignored(files, '!bang.txt') && ignored(files, 'spaced.txt'));
    assert.ok(!ignored(files, 'comment'));
  });
});

describe('core/workspaceFiles: sensitive paths and exclusions', () => {
  const sensitive = sensitiveMatcher();
  it('knows env files, keys, certificates, VCS internals and cloud credentials', () => {
    for (const path of [
      '.env',
      '.env.local',
      'app/.env.production',
      '.ENV',
      'server.pem',
      'certs/site.key',
      'id_rsa',
      'home/.ssh/id_ed25519',
      'keystore.p12',
      'win.pfx',
      '.git/config',
      'sub/.git/HEAD',
      '.npmrc',
      '.pypirc',
      '.netrc',
      '.ssh/known_hosts',
      '.aws/credentials',
      '.azure/accessTokens.json',
      '.config/gcloud/application_default_credentials.json',
      '.docker/config.json',
      '.kube/config',
      'infra/terraform.tfstate',
    ]) {
      assert.ok(sensitive(path), `${path} is sensitive`);
    }
    for (const path of [
      'src/env.ts',
      'environment.md',
      '.gitignore',
      '.github/workflows/ci.yml',
      'docs/keys.md',
      'kube/config',
      'src/app.ts',
    ]) {
      assert.equal(sensitive(path), undefined, `${path} is not sensitive`);
    }
  });

  it('adds user globs (a name without a slash at any depth) and never narrows the built-in list', () => {
    const extra = sensitiveMatcher(['*.secret', 'config/prod.json', '']);
    assert.equal(extra('a/b/db.secret'), '*.secret');
    assert.equal(extra('config/prod.json'), 'config/prod.json');
    assert.equal(extra('x/config/prod.json'), undefined, 'a pattern with a slash is anchored');
    assert.ok(extra('.env'), 'the built-in list still applies');
  });

  it('names what excludes a path: files.exclude, search.exclude or .gitignore, folders included', () => {
    const rules = new FileRules({ 'files.exclude': ['**/.git'], 'search.exclude': ['**/node_modules'] });
    assert.equal(rules.excludedBy('node_modules/x/index.js', false, []), 'search.exclude');
    assert.equal(rules.excludedBy('.git/config', false, []), 'files.exclude');
    assert.equal(rules.excludedBy('gen/out.ts', false, [root('gen/\n')]), '.gitignore');
    assert.equal(rules.excludedBy('src/app.ts', false, [root('gen/\n')]), undefined);
  });
});

describe('core/workspaceFiles: a path within a folder', () => {
  it("gives the folder-relative path with / separators, '' for the folder itself, undefined outside (run_command's working folder)", () => {
    const root = join(tmpdir(), 'Proj');
    assert.equal(relativeWithin(root, root, false), '');
    assert.equal(relativeWithin(root, root + sep, false), '');
    assert.equal(relativeWithin(root, join(root, 'a', 'b'), false), 'a/b');
    assert.equal(
      relativeWithin(root, join(tmpdir(), 'Project'), false),
      undefined,
      'a sibling sharing the prefix is outside',
    );
    assert.equal(relativeWithin(root, tmpdir(), false), undefined);
    assert.equal(relativeWithin(root, join(tmpdir(), 'proj', 'x'), false), undefined);
    assert.equal(relativeWithin(root, join(tmpdir(), 'proj', 'x'), true), 'x', 'case-insensitive disks');
    assert.equal(relativeWithin(root, join(tmpdir(), 'PROJ'), true), '');
  });
});

describe('core/workspaceFiles: binary detection', () => {
  it('finds NUL bytes and control characters, and reads UTF-16 with a byte-order mark as text', () => {
    assert.equal(looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1])), true);
    assert.equal(looksBinary(new TextEncoder().encode('plain text\n\twith tabs')), false);
    assert.equal(looksBinary(new Uint8Array(100).fill(1)), true, 'mostly control characters');
    assert.equal(looksBinary(new Uint8Array()), false);
    const utf16 = new Uint8Array([0xff, 0xfe, 0x68, 0, 0x69, 0]);
    assert.equal(looksBinary(utf16), false);
    assert.equal(decodeText(utf16), 'hi');
    assert.equal(looksBinary('PNG\0data'), true, 'decoded text too');
  });
});

describe('core/workspaceFiles: WorkspaceFiles on disk', () => {
  let base: string;
  let ws: string;
  let outside: string;
  const write = (path: string, text: string): void => {
    mkdirSync(join(ws, path, '..'), { recursive: true });
    writeFileSync(join(ws, path), text);
  };
  const open = (extra: Partial<Parameters<typeof WorkspaceFiles.open>[0]> = {}): Promise<WorkspaceFiles> =>
    WorkspaceFiles.open({
      folders: [
        { name: 'ws', path: ws, excludes: { 'files.exclude': ['**/.git'], 'search.exclude': ['**/node_modules'] } },
      ],
      ...extra,
    });

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'wsfiles-'));
    ws = join(base, 'ws');
    outside = join(base, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-SECRET\n');
    write('src/app.ts', 'export const app = 1;\n');
    write('.env', 'API_TOKEN=xyz\n');
    write('node_modules/x.js', 'module.exports = 1;\n');
    write('.git/config', '[core]\n');
    write('.gitignore', '*.log\n!keep.log\ngen/\n');
    write('debug.log', 'noise\n');
    write('keep.log', 'kept\n');
    write('gen/out.ts', 'generated\n');
    write('pkg/.gitignore', '!trace.log\nlocal.txt\n');
    write('pkg/trace.log', 'trace\n');
    write('pkg/local.txt', 'local\n');
    write('pkg/lib.ts', 'lib\n');
    symlinkSync(outside, join(ws, 'escape'));
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'linked-secret.txt'));
    symlinkSync(join(ws, '.env'), join(ws, 'settings.txt'));
    symlinkSync(join(ws, 'src', 'app.ts'), join(ws, 'app-link.ts'));
  });

  after(() => rmSync(base, { recursive: true, force: true }));

  it('refuses paths that leave the folders, through links or `..`, without naming where they lead', async () => {
    const files = await open();
    for (const path of [
      'escape/secret.txt',
      'linked-secret.txt',
      '../outside/secret.txt',
      'src/../../outside/secret.txt',
      join(outside, 'secret.txt'),
    ]) {
      const resolved = await files.resolve(path);
      assert.equal(resolved.ok, false, path);
      assert.equal(resolved.ok ? '' : resolved.problem, 'outside', path);
      if (!path.startsWith('/'))
        assert.ok(!(resolved.ok ? '' : resolved.message).includes(outside), 'the target is not named');
    }
    const inside = await files.resolve('src/../src/app.ts');
    assert.equal(inside.ok && inside.file.path, 'src/app.ts');
    assert.equal((await files.resolve(join(ws, 'src', 'app.ts'))).ok, true, 'an absolute path inside');
  });

  it('resolves a file to write: existing, or new inside the folders; never out through a link or into an excluded place', async () => {
    const files = await open();
    const existing = await files.resolveForWrite('src/app.ts');
    assert.ok(existing.ok && existing.exists && existing.file.path === 'src/app.ts');
    const created = await files.resolveForWrite('src/deep/new/file.ts');
    assert.ok(created.ok && !created.exists, 'a missing file in missing folders is one to create');
    assert.equal(created.ok && created.file.real, join(ws, 'src', 'deep', 'new', 'file.ts'));
    for (const path of ['escape/new.txt', 'escape/deeper/new.txt', '../outside/new.txt', join(outside, 'new.txt')]) {
      const refused = await files.resolveForWrite(path);
      assert.equal(refused.ok ? 'ok' : refused.problem, 'outside', path);
      if (!path.startsWith('/'))
        assert.ok(!(refused.ok ? '' : refused.message).includes(outside), 'the target is not named');
    }
    const ignoredNew = await files.resolveForWrite('gen/new.ts');
    assert.equal(
      ignoredNew.ok ? 'ok' : ignoredNew.problem,
      'excluded',
      'a new file where .gitignore excludes is refused',
    );
    const sensitiveNew = await files.resolveForWrite('config/.env.local');
    assert.ok(sensitiveNew.ok && !sensitiveNew.exists);
    assert.deepEqual(sensitiveNew.ok && sensitiveNew.file.sensitive, ['config/.env.local']);
    const underFile = await files.resolveForWrite('src/app.ts/inner.ts');
    assert.equal(underFile.ok, false, 'a file cannot hold another');
  });

  it('refuses to write through a link that leads nowhere (it would create its target, wherever that is)', async () => {
    const dangling = join(ws, 'dangling.ts');
    const danglingFolder = join(ws, 'dangling-folder');
    symlinkSync(join(outside, 'not-there.ts'), dangling);
    symlinkSync(join(outside, 'no-folder'), danglingFolder);
    try {
      const files = await open();
      assert.equal((await files.resolve('dangling.ts')).ok, false, 'nothing to read there');
      for (const [path, names] of [
        ['dangling.ts', /^dangling\.ts is a link that leads nowhere/],
        [
          'dangling-folder/new.ts',
          /^dangling-folder \(on the way to dangling-folder\/new\.ts\) is a link that leads nowhere/,
        ],
      ] as const) {
        const refused = await files.resolveForWrite(path);
        assert.equal(refused.ok ? 'ok' : refused.problem, 'invalid', path);
        assert.match(refused.ok ? '' : refused.message, names, path);
        assert.ok(!(refused.ok ? '' : refused.message).includes(outside), 'the target is not named');
        const fresh = await files.resolveNew(path);
        assert.equal(fresh.ok, false, `${path}: not a new file either`);
        const placed = await files.place(join(ws, path));
        assert.equal(placed.ok, false, `${path}: not kept by a checkpoint either`);
        assert.match(placed.ok ? '' : placed.message, /link that leads nowhere/);
      }
      assert.ok((await files.place(join(ws, 'src', 'deep', 'new.ts'))).ok, 'a plain new path still places');
    } finally {
      rmSync(dangling);
      rmSync(danglingFolder);
    }
  });

  it('flags sensitive files by the path asked and by the real path of a link', async () => {
    const files = await open();
    const env = await files.resolve('.env');
    assert.deepEqual(env.ok && env.file.sensitive, ['.env']);
    const link = await files.resolve('settings.txt');
    assert.deepEqual(link.ok && link.file.sensitive, ['.env'], 'a harmless name linking to .env');
    const plain = await files.resolve('app-link.ts');
    assert.deepEqual(plain.ok && plain.file.sensitive, []);
  });

  it('refuses excluded and .gitignored files, naming why', async () => {
    const files = await open();
    const cases: Array<[string, string]> = [
      ['node_modules/x.js', 'search.exclude'],
      ['.git/config', 'files.exclude'],
      ['debug.log', '.gitignore'],
      ['gen/out.ts', '.gitignore'],
      ['pkg/local.txt', '.gitignore'],
    ];
    for (const [path, why] of cases) {
      const resolved = await files.resolve(path);
      assert.equal(resolved.ok ? 'ok' : resolved.problem, 'excluded', path);
      assert.match(resolved.ok ? '' : resolved.message, new RegExp(why.replace('.', '\\.')));
    }
    assert.equal((await files.resolve('keep.log')).ok, true, 'negated');
    assert.equal((await files.resolve('pkg/trace.log')).ok, true, 'negated by the nested .gitignore');
  });

  it('lists shared files only: no excluded, ignored, escaping or sensitive ones (counted)', async () => {
    const files = await open();
    const listing = await files.list({ limit: 100 });
    assert.deepEqual(listing.files.map((f) => f.path).sort(), [
      '.gitignore',
      'app-link.ts',
      'keep.log',
      'pkg/.gitignore',
      'pkg/lib.ts',
      'pkg/trace.log',
      'src/app.ts',
    ]);
    assert.equal(listing.sensitiveLeftOut, 2, '.env and the link to it');
    assert.equal(listing.truncated, false);
    const limited = await files.list({ include: '**/*.ts', limit: 1 });
    assert.equal(limited.files.length, 1);
    assert.equal(limited.truncated, true);
    const extra = await (await open({ sensitive: ['*.ts'] })).list({ include: 'src/**', limit: 10 });
    assert.deepEqual([extra.files.length, extra.sensitiveLeftOut], [0, 1], "the user's sensitive globs count too");
  });

  it('reads only up to the cap, reporting the whole size from fstat', async () => {
    write('big.txt', `${'a'.repeat(5_000)}TAIL-MARKER`);
    const files = await open();
    const resolved = await files.resolve('big.txt');
    assert.ok(resolved.ok);
    const content = await files.read(resolved.file, 1_000);
    assert.equal(content.kind, 'text');
    if (content.kind !== 'text') return;
    assert.deepEqual([content.bytesRead, content.size, content.truncated], [1_000, 5_011, true]);
    assert.ok(!content.text.includes('TAIL-MARKER'));
  });

  it('reads the start of a file far larger than memory would allow (a sparse 3 GB file)', async () => {
    const path = join(ws, 'huge.txt');
    const fd = openSync(path, 'w');
    writeSync(fd, 'HEAD of a huge file\n');
    ftruncateSync(fd, 3 * 1024 ** 3);
    writeSync(fd, 'TAIL-MARKER', 3 * 1024 ** 3 - 20);
    closeSync(fd);
    const files = await open();
    const resolved = await files.resolve('huge.txt');
    assert.ok(resolved.ok);
    const content = await files.read(resolved.file, 20);
    assert.deepEqual(content, {
      kind: 'text',
      text: 'HEAD of a huge file\n',
      size: 3 * 1024 ** 3,
      bytesRead: 20,
      truncated: true,
    });
    rmSync(path);
  });

  it('decides one path (a watcher event) exactly as the listing does, for every file of the tree', async () => {
    symlinkSync(join(ws, 'pkg'), join(ws, 'pkg-link')); // a linked folder: the walk does not enter it
    try {
      const all: string[] = [];
      const walk = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          all.push(path); // files, links and folders alike: a folder is never listed
        }
      };
      walk(ws);
      all.push(
        join(ws, 'pkg-link', 'lib.ts'),
        join(ws, 'escape', 'secret.txt'),
        join(ws, 'missing.ts'),
        join(outside, 'secret.txt'),
      );
      for (const [options, include] of [
        [{}, undefined],
        [{ sensitive: ['*.ts'] }, undefined],
        [{}, '**/*.ts'],
        [{}, 'pkg/**'],
      ] as const) {
        const files = await open(options);
        const listed = (await files.list({ limit: 100, ...(include ? { include } : {}) })).files;
        const expected = new Map(listed.map((f) => [join(ws, f.path), f]));
        const gitignores = files.gitignores();
        for (const path of all) {
          const one = await files.listed(path, include, gitignores);
          assert.deepEqual(
            one,
            expected.get(path),
            `${path} with ${JSON.stringify(options)} / ${include ?? 'no include'}`,
          );
        }
        assert.ok(expected.size > 0);
      }
    } finally {
      rmSync(join(ws, 'pkg-link'));
    }
  });

  it('names multi-root files by folder, and finds a path in the folder it names', async () => {
    const second = join(base, 'two');
    mkdirSync(join(second, 'src'), { recursive: true });
    writeFileSync(join(second, 'src', 'app.ts'), 'two\n');
    const files = await WorkspaceFiles.open({
      folders: [
        { name: 'ws', path: ws, excludes: {} },
        { name: 'two', path: second, excludes: {} },
      ],
    });
    const named = await files.resolve('two/src/app.ts');
    assert.equal(named.ok && named.file.display, 'two/src/app.ts');
    assert.equal(named.ok && named.file.real.startsWith(second), true);
    const first = await files.resolve('src/app.ts');
    assert.equal(first.ok && first.file.display, 'ws/src/app.ts');
  });
});
