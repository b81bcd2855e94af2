import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..', '..');

describe('the packaged .vsix', function () {
  this.timeout(60_000);

  it('holds the bundles, media and manifest, and no sources, tests or node_modules', () => {
    // `vsce ls` lists exactly what `vsce package` would put in the .vsix (after .vscodeignore).
    const result = spawnSync(process.execPath, [join(repo, 'node_modules', '@vscode', 'vsce', 'vsce'), 'ls', '--no-dependencies'], { cwd: repo, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    const files = result.stdout.split('\n').map((line) => line.trim()).filter(Boolean);
    for (const expected of ['package.json', 'package.nls.json', 'l10n/bundle.l10n.json', 'dist/extension.js', 'dist/vendor/undici.js', 'dist/vendor/marked.js', 'dist/vendor/diff.js', 'dist/webview/chat.js', 'dist/codicons/codicon.css', 'media/unified-inference.svg', 'media/unified-inference-research.svg', 'media/icon.png', 'media/screenshots/chat-reply.jpg', 'media/webview.css', 'media/walkthrough/openChat.md', 'README.md']) {
      assert.ok(files.includes(expected), `${expected} is packaged (got: ${files.join(', ')})`);
    }
    // The README's screenshots go along (VS Code's extension page shows them from the installed folder); the icon's SVG source does not.
    const unwanted = files.filter((file) => /^(src|test|out|scripts|node_modules|\.ci|test-results)\//.test(file) || file === 'media/icon.svg' || file.endsWith('.map') || file.endsWith('.ts'));
    assert.deepEqual(unwanted, []);
  });
});
