import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..', '..');

describe('the packaged .vsix', function () {
  this.timeout(60_000);

  it('holds the bundles, media and manifest, and no sources, tests or node_modules', () => {
    // `vsce ls` lists exactly what `vsce package` would put in the .vsix (after .vscodeignore), given
    // the README `npm run package` hands it (README.md and docs/ as one page; vsce stores it as readme.md).
    const readme = spawnSync(process.execPath, [join(repo, 'scripts', 'marketplaceReadme.mjs')], {
      cwd: repo,
      encoding: 'utf8',
    });
    assert.equal(readme.status, 0, readme.stderr);
    const result = spawnSync(
      process.execPath,
      [
        join(repo, 'node_modules', '@vscode', 'vsce', 'vsce'),
        'ls',
        '--no-dependencies',
        '--readme-path',
        'dist-vsix/README.md',
      ],
      { cwd: repo, encoding: 'utf8' },
    );
    assert.equal(result.status, 0, result.stderr);
    const files = result.stdout
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    for (const expected of [
      'package.json',
      'package.nls.json',
      'l10n/bundle.l10n.json',
      'dist/extension.js',
      'dist/vendor/undici.js',
      'dist/vendor/marked.js',
      'dist/vendor/diff.js',
      'dist/webview/chat.js',
      'dist/codicons/codicon.css',
      'media/unified-inference.svg',
      'media/unified-inference-research.svg',
      'media/icon.png',
      'media/screenshots/chat-reply.jpg',
      'media/webview.css',
      'media/walkthrough/openChat.md',
      'dist-vsix/README.md',
    ]) {
      assert.ok(files.includes(expected), `${expected} is packaged (got: ${files.join(', ')})`);
    }
    // The README's screenshots go along (VS Code's extension page shows them from the installed folder); the icon's SVG source does not.
    for (const picture of [
      'media/screenshots/chat-reply.jpg',
      'media/screenshots/edit-review.jpg',
      'media/screenshots/research-report.jpg',
    ])
      assert.ok(files.includes(picture), `${picture} is packaged`);
    // One readme only: README.md beside the one vsce stores as readme.md would be a second, and docs/ is in it already.
    const unwanted = files.filter(
      (file) =>
        /^(src|test|out|scripts|docs|node_modules|\.ci|test-results)\//.test(file) ||
        file === 'README.md' ||
        file === 'media/icon.svg' ||
        file.endsWith('.map') ||
        file.endsWith('.ts'),
    );
    assert.deepEqual(unwanted, []);
  });
});
