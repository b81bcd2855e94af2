import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = join(__dirname, '..', '..', '..');

/** Runs the real layer checker on a throwaway src/ tree holding `files`. */
function checkTree(files: Record<string, string>): { status: number | null; output: string } {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const result = spawnSync(process.execPath, [join(repo, 'scripts', 'checkLayers.mjs'), root], {
      encoding: 'utf8',
      cwd: root,
    });
    return { status: result.status, output: result.stdout + result.stderr };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('layer check (fails the build on a forbidden import)', () => {
  it('passes the real source tree', () => {
    const result = spawnSync(process.execPath, [join(repo, 'scripts', 'checkLayers.mjs')], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
  });

  it('passes imports that follow the arrows', () => {
    const result = checkTree({
      'core/a.ts':
        "import { request } from 'undici';\nimport { x } from './b';\nimport 'node:fs';\nimport type { P } from '../shared/p';",
      'shared/p.ts': "export * from './q';",
      'webview/chat/m.ts': "import { marked } from 'marked';\nimport type { P } from '../../shared/p';",
      'extension/e.ts': "import * as vscode from 'vscode';\nimport { a } from '../core/a';\nimport * as fs from 'fs';",
    });
    assert.equal(result.status, 0, result.output);
  });

  const forbidden: [string, string, RegExp][] = [
    ['core/a.ts', "import * as vscode from 'vscode';", /src\/core may not import 'vscode'/],
    ['shared/a.ts', "import type { Uri } from 'vscode';", /src\/shared may not import 'vscode'/],
    ['shared/a.ts', "import { readFileSync } from 'node:fs';", /src\/shared may not import the node built-in/],
    ['shared/a.ts', "import type { Model } from '../core/types/models';", /src\/shared may not import from src\/core/],
    ['webview/a.ts', "const fs = require('fs');", /src\/webview may not import the node built-in 'fs'/],
    ['webview/a.ts', "export { window } from 'vscode';", /src\/webview may not import 'vscode'/],
    ['webview/a.ts', "import { c } from '../core/client';", /src\/webview may not import from src\/core/],
    ['core/a.ts', "const m = await import('../extension/x');", /src\/core may not import from src\/extension/],
    ['core/a.ts', "import hljs from 'highlight.js';", /src\/core may not import the package 'highlight.js'/],
  ];
  it('passes an extension feature importing a lower service folder', () => {
    const result = checkTree({
      'extension/chat/panel.ts':
        "import { a } from '../models/modelCatalog';\nimport { b } from './local';\nimport { c } from '../config';",
      'extension/models/modelCatalog.ts':
        "import * as vscode from 'vscode';\nimport { g } from '../gateway/connection';",
    });
    assert.equal(result.status, 0, result.output);
  });

  const sideways: [string, string, RegExp][] = [
    [
      'extension/models/a.ts',
      "import { c } from '../chat/chatController';",
      /src\/extension\/models may not import from src\/extension\/chat/,
    ],
    [
      'extension/media/a.ts',
      "import { s } from '../search/index';",
      /src\/extension\/media may not import from src\/extension\/search \(same tier/,
    ],
    [
      'extension/gateway/a.ts',
      "import { x } from '../extension';",
      /src\/extension\/gateway may not import from src\/extension\/extension\.ts/,
    ],
    [
      'extension/newFeature/a.ts',
      "import { x } from '../config';",
      /src\/extension\/newFeature has no place in EXTENSION_TIERS/,
    ],
  ];
  for (const [file, text, message] of sideways) {
    it(`fails on ${file}: ${text}`, () => {
      const result = checkTree({ [file]: text });
      assert.equal(result.status, 1);
      assert.match(result.output, message);
    });
  }

  describe('host-free code lives in src/core', () => {
    it('passes a file that reaches vscode only through the src/extension files it imports', () => {
      const result = checkTree({
        'extension/chat/panel.ts': "import { view } from './view';",
        'extension/chat/view.ts': "import * as vscode from 'vscode';\nimport { r } from '../../core/chat/replyRunner';",
        'core/chat/replyRunner.ts': 'export const r = 1;',
      });
      assert.equal(result.status, 0, result.output);
    });

    it('fails a file under src/extension that never reaches vscode', () => {
      const result = checkTree({
        'extension/chat/pure.ts': "import { r } from '../../core/chat/replyRunner';",
        'core/chat/replyRunner.ts': 'export const r = 1;',
      });
      assert.equal(result.status, 1);
      assert.match(result.output, /extension\/chat\/pure\.ts: host-free .*move it to src\/core/);
    });

    it('fails every file of a chain that ends in host-free code, and only those', () => {
      const result = checkTree({
        'extension/chat/a.ts': "import { b } from './b';",
        'extension/chat/b.ts': "import { c } from '../models/c';",
        'extension/models/c.ts': 'export const c = 1;',
        'extension/models/d.ts': "import * as vscode from 'vscode';\nimport { c } from './c';",
      });
      assert.equal(result.status, 1);
      const named = [...result.output.matchAll(/extension\/(\S+)\.ts: host-free/g)].map((m) => m[1]).sort();
      assert.deepEqual(named, ['chat/a', 'chat/b', 'models/c']);
    });

    it('lets the files on HOST_FREE_ALLOWED stay', () => {
      const listed = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { HOST_FREE_ALLOWED } from ${JSON.stringify(pathToFileURL(join(repo, 'scripts', 'checkLayers.mjs')).href)}; console.log(JSON.stringify(HOST_FREE_ALLOWED));`,
        ],
        { encoding: 'utf8' },
      );
      const allowed = JSON.parse(listed.stdout) as string[];
      assert.ok(allowed.length > 0 && allowed.length <= 5, 'the list stays short');
      const files = Object.fromEntries(
        allowed.map((name) => [`extension/${name.endsWith('/') ? `${name}x.ts` : name}`, 'export const x = 1;']),
      );
      const result = checkTree(files);
      assert.equal(result.status, 0, result.output);
    });
  });

  for (const [file, text, message] of forbidden) {
    it(`fails on ${file}: ${text}`, () => {
      const result = checkTree({ [file]: text });
      assert.equal(result.status, 1);
      assert.match(result.output, message);
    });
  }
});
