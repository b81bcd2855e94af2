// Stages the extension as the .vsix ships it (esbuild.js --production: minified, no source maps)
// in a folder of its own, so the bench measures what users run and leaves the developer's dist/
// (a development build with source maps) alone.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../harness/testHost';

/** Builds the production bundles into a new folder with the manifest and media; returns it. */
export function stageProductionBuild(): string {
  const folder = mkdtempSync(join(tmpdir(), 'uiv-prod-'));
  const build = spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'esbuild.js'), '--production', `--dist=${join(folder, 'dist')}`],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`The production build failed:\n${build.stdout}${build.stderr}`);
  // The manifest, its translations (package.nls*.json, l10n/) and media: what the extension reads at run time.
  const shipped = [
    'package.json',
    'LICENSE',
    'media',
    'l10n',
    ...readdirSync(REPO_ROOT).filter((name) => /^package\.nls(\.[\w-]+)?\.json$/.test(name)),
  ];
  for (const name of shipped) {
    if (existsSync(join(REPO_ROOT, name))) cpSync(join(REPO_ROOT, name), join(folder, name), { recursive: true });
  }
  return folder;
}
