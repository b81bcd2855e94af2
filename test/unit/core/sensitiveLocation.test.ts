// Sensitive by real location: a folder opened at ~/.aws (~/.ssh, ~/.kube, ~/.config/gh) holds
// credentials that its folder-relative paths (`credentials`, `hosts.yml`) do not name.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRules } from '../../../src/core/workspaceFiles/fileRules';
import { sensitiveMatcher } from '../../../src/core/workspaceFiles/sensitivePaths';
import { WorkspaceFiles } from '../../../src/core/workspaceFiles/workspaceFiles';

describe('core/workspaceFiles: sensitive by real location', () => {
  it('knows the credentials files of cloud, cluster and developer tools', () => {
    const sensitive = sensitiveMatcher();
    for (const path of [
      '.config/gh/hosts.yml',
      'infra/prod.tfvars',
      'infra/x.tfvars.json',
      '.kube/config',
      'clusters/kubeconfig',
      'dev.kubeconfig',
      'kubeconfig.yaml',
      '.cargo/credentials.toml',
      '.cargo/credentials',
      '.m2/settings.xml',
      '.m2/settings-security.xml',
      '.gradle/gradle.properties',
      '.aws/sso/cache/x.json',
      '.vault-token',
      '.my.cnf',
    ]) {
      assert.ok(sensitive(path), path);
    }
    for (const path of ['settings.xml', 'gradle.properties', 'src/hosts.yml', 'kube.md'])
      assert.equal(sensitive(path), undefined, path);
  });

  it('matches the real absolute path with the globs that match at any depth', () => {
    const absolute = sensitiveMatcher(['*.secret', 'config/**'], false);
    assert.ok(absolute('home/me/.aws/credentials'));
    assert.ok(absolute('home/me/.ssh/id_ed25519'));
    assert.ok(absolute('home/me/.config/gh/hosts.yml'));
    assert.ok(absolute('home/me/x/db.secret'));
    assert.equal(absolute('config/me/src/a.ts'), undefined, 'an anchored user glob means nothing in an absolute path');
    assert.equal(absolute('home/me/proj/src/a.ts'), undefined);
    assert.ok(new FileRules({}, [], false, [], join(tmpdir(), '.kube')).sensitivePattern('config'));
    assert.equal(new FileRules({}, [], false, [], join(tmpdir(), 'proj')).sensitivePattern('config'), undefined);
  });

  for (const [folder, file] of [
    ['.aws', 'credentials'],
    ['.ssh', 'config'],
    ['.kube', 'config'],
    ['.config/gh', 'hosts.yml'],
    ['.docker', 'config.json'],
  ] as const) {
    it(`asks before serving ${file} of a folder opened at ~/${folder}, and leaves it out of listings`, async () => {
      const home = mkdtempSync(join(tmpdir(), 'ui-home-'));
      try {
        const root = join(home, ...folder.split('/'));
        mkdirSync(root, { recursive: true });
        writeFileSync(join(root, file), 'token\n');
        const files = await WorkspaceFiles.open({ folders: [{ name: folder, path: root, excludes: {} }] });
        const resolved = await files.resolve(file);
        assert.ok(resolved.ok);
        assert.deepEqual(resolved.file.sensitive, [file]);
        const listing = await files.list({ limit: 10 });
        assert.deepEqual([listing.files.length, listing.sensitiveLeftOut], [0, 1]);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    });
  }
});
