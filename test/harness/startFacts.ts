// Gathers the facts startPreflight decides on: platform, libc, the commands on PATH, whether the
// VS Code server is already installed, and the free space where it would go. Reads only.
import { accessSync, constants, existsSync, readFileSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type { StartFacts } from './startPreflight';
import { REPO_ROOT } from './testHost';

const COMMANDS = ['bash', 'flock', 'tar', 'gzip', 'npm', 'make', 'g++', 'python3', 'rg', 'apt-get', 'sudo'];

function testHostCacheDir(): string {
  return (
    process.env.UNIFIED_INFERENCE_TEST_CACHE ??
    join(process.env.HOME ?? tmpdir(), '.cache', 'unified-inference-test-host')
  );
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, command), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

function libc(): StartFacts['libc'] {
  if (process.platform !== 'linux') return 'unknown';
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  if (header?.glibcVersionRuntime) return 'glibc';
  return ['/lib/ld-musl-x86_64.so.1', '/lib/ld-musl-aarch64.so.1'].some((file) => existsSync(file))
    ? 'musl'
    : 'unknown';
}

function wsl(): boolean {
  try {
    return /microsoft/i.test(readFileSync('/proc/version', 'utf8'));
  } catch {
    return false;
  }
}

/** The versions installTestHost.sh installs, read from the script so the two never disagree. */
function installedHost(cache: string): boolean {
  const script = readFileSync(join(REPO_ROOT, 'test', 'harness', 'installTestHost.sh'), 'utf8');
  const codeServer = /^CODE_SERVER_VERSION=(\S+)/m.exec(script)?.[1];
  const nodeMajor = /^NODE_MAJOR=(\S+)/m.exec(script)?.[1];
  if (!codeServer || !nodeMajor) return false;
  return [
    join(cache, `code-server-${codeServer}`, '.stamp'),
    join(cache, `node-${nodeMajor}`, '.stamp'),
    join(cache, 'paths.json'),
  ].every((file) => existsSync(file));
}

function freeBytes(dir: string): number | undefined {
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    const stats = statfsSync(at);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

export function gatherStartFacts(): StartFacts {
  const cacheDir = testHostCacheDir();
  const commands = Object.fromEntries(COMMANDS.map((command) => [command, onPath(command)]));
  return {
    platform: process.platform,
    arch: process.arch,
    libc: libc(),
    wsl: wsl(),
    hostInstalled: process.platform === 'linux' && installedHost(cacheDir),
    commands,
    gssapiHeader: existsSync('/usr/include/gssapi/gssapi.h'),
    canInstallPackages: process.getuid?.() === 0 || commands.sudo === true,
    freeBytes: freeBytes(cacheDir),
    cacheDir,
  };
}
