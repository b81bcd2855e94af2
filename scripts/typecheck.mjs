// Type-checks every layer with its own tsconfig (each sees only the globals it may use).
// Incremental: each project keeps tsc's build info in out/.tsbuildinfo/ (out/ is gitignored), so
// a run after a small edit re-checks only what the edit can affect (~25 s cold, a few s warm). tsc
// hashes every file of the program (sources, @types, tsconfig options) into that info, so a stale
// file can never hide an error; a clean clone has none and checks everything. Two projects run at
// once (the machine has two cores); each one's output is printed whole, in order.
//   node scripts/typecheck.mjs           incremental (the default)
//   node scripts/typecheck.mjs --clean   forget the build info first (a cold check)
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const infoDir = join(root, 'out', '.tsbuildinfo');
const projects = ['src/shared', 'src/core', 'src/webview', 'src/extension', 'test'];
if (process.argv.includes('--clean')) rmSync(infoDir, { recursive: true, force: true });
mkdirSync(infoDir, { recursive: true });

function check(project) {
  const info = join(infoDir, `${project.replaceAll('/', '-')}.tsbuildinfo`);
  const args = [
    tsc,
    '-p',
    join(root, project, 'tsconfig.json'),
    '--incremental',
    '--tsBuildInfoFile',
    info,
    '--pretty',
    String(Boolean(process.stdout.isTTY)),
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ project, ok: code === 0, output }));
    child.on('error', (error) => resolve({ project, ok: false, output: String(error) }));
  });
}

const started = Date.now();
const results = new Array(projects.length);
let next = 0;
const worker = async () => {
  while (next < projects.length) {
    const index = next++;
    results[index] = await check(projects[index]);
  }
};
await Promise.all(Array.from({ length: Math.min(2, availableParallelism(), projects.length) }, worker));

let failed = 0;
for (const { project, ok, output } of results) {
  if (output) process.stdout.write(output);
  if (!ok) {
    failed++;
    console.error(`typecheck failed: ${project}`);
  }
}
if (failed) process.exit(1);
console.log(`typecheck: ${projects.length} projects clean in ${((Date.now() - started) / 1000).toFixed(1)} s`);
