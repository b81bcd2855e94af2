// Type-checks every layer with its own tsconfig (each sees only the globals it may use).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = ['src/shared', 'src/core', 'src/webview', 'src/extension', 'test'];
let failed = 0;
for (const project of projects) {
  const result = spawnSync(process.execPath, [tsc, '-p', `${project}/tsconfig.json`], { stdio: 'inherit' });
  if (result.status !== 0) { failed++; console.error(`typecheck failed: ${project}`); }
}
if (failed) process.exit(1);
console.log(`typecheck: ${projects.length} projects clean`);
