import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readManifest, REPO_ROOT } from './manifest';

// docs/settings.md and docs/commands.md are the complete reference: a setting or command added to
// package.json without a line there fails here.

interface Manifest {
  contributes: {
    configuration:
      { properties: Record<string, { default?: unknown }> } | { properties: Record<string, { default?: unknown }> }[];
    commands: { command: string; title: string }[];
  };
}

const manifest = readManifest<Manifest>();
const doc = (name: string): string => readFileSync(join(REPO_ROOT, 'docs', name), 'utf8');

describe('docs reference pages', () => {
  it('list every setting of package.json in docs/settings.md, and no other', () => {
    const settings = doc('settings.md');
    const keys = [manifest.contributes.configuration].flat().flatMap((section) => Object.keys(section.properties));
    assert.ok(keys.length > 0);
    assert.deepEqual(
      keys.filter((key) => !settings.includes(`\`${key}\``)),
      [],
      'settings missing from docs/settings.md',
    );
    const documented = [...settings.matchAll(/^\| `(unifiedInference\.[\w.]+)`/gm)].map((m) => m[1]);
    assert.deepEqual(
      documented.filter((key) => key === undefined || !keys.includes(key)),
      [],
      'rows of docs/settings.md that package.json does not have',
    );
  });

  it("show each setting's default as package.json has it", () => {
    const properties = Object.assign(
      {},
      ...[manifest.contributes.configuration].flat().map((section) => section.properties),
    ) as Record<string, { default?: unknown }>;
    const rows = [...doc('settings.md').matchAll(/^\| `(unifiedInference\.[\w.]+)`[^|]*\| `([^`]*)` \|/gm)];
    assert.equal(rows.length, Object.keys(properties).length, 'one row with a default per setting');
    for (const [, key = '', shown = ''] of rows) {
      const value = properties[key]?.default;
      // A string shows as itself (the empty one as ""), anything else as JSON.
      const expected = typeof value === 'string' && value !== '' ? value : JSON.stringify(value);
      assert.equal(shown.replace(/\s/g, ''), expected.replace(/\s/g, ''), `the default of ${key}`);
    }
  });

  it('list every command of package.json in docs/commands.md, with its title, and no other', () => {
    const commands = doc('commands.md');
    for (const { command, title } of manifest.contributes.commands) {
      assert.ok(commands.includes(`**${title}** (\`${command}\`)`), `${command} ("${title}") is in docs/commands.md`);
    }
    const ids = new Set(manifest.contributes.commands.map((c) => c.command));
    const documented = [...commands.matchAll(/\(`(unifiedInference\.[\w.]+)`\)/g)].map((m) => m[1] ?? '');
    assert.deepEqual(
      documented.filter((id) => !ids.has(id)),
      [],
      'rows of docs/commands.md that package.json does not have',
    );
  });
});
