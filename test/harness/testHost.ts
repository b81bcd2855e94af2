// Starts a real VS Code (the server inside code-server, on Node 24) and a real Chromium driving
// its workbench, with no internet. Every detail here is explained in ../shared/design/test-host.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

interface HostPaths {
  readonly node: string;
  readonly vscodeServer: string;
  readonly chromium: string;
}

/**
 * Installs (first run) or finds (later runs) the VS Code server, Node 24 and Chromium.
 * `browser: false` (npm start, where the user brings the browser) leaves Chromium out.
 */
export function ensureTestHost(options: { readonly browser?: boolean } = {}): HostPaths {
  const cache =
    process.env.UNIFIED_INFERENCE_TEST_CACHE ??
    join(process.env.HOME ?? tmpdir(), '.cache', 'unified-inference-test-host');
  const pathsFile = join(cache, 'paths.json');
  const env = options.browser === false ? { ...process.env, UNIFIED_INFERENCE_NO_BROWSER: '1' } : process.env;
  const result = spawnSync('bash', [join(REPO_ROOT, 'test', 'harness', 'installTestHost.sh')], {
    stdio: 'inherit',
    env,
  });
  if (result.status !== 0 || !existsSync(pathsFile))
    throw new Error('Could not install the test host (see the lines above).');
  return JSON.parse(readFileSync(pathsFile, 'utf8')) as HostPaths;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Quiet, deterministic workbench settings, plus the test's own. */
const baseUserSettings: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': false,
  'git.enabled': false,
  'window.restoreWindows': 'none',
  'workbench.colorTheme': 'Default Dark Modern',
};

export interface VsCodeServer {
  readonly url: string;
  readonly port: number;
  /** The server process (its extension hosts are its descendants). */
  readonly pid: number;
  /** The folder holding every state the run wrote (user data, server data, extensions, logs). */
  readonly runDir: string;
  readonly workspace: string;
  readonly serverDataDir: string;
  readonly userDataDir: string;
  /** The server's own output (for diagnosing a failed start). */
  output(): string;
  stop(): Promise<void>;
}

export interface ServerOptions {
  readonly workspaceFiles?: Record<string, string>;
  readonly userSettings?: Record<string, unknown>;
  /** Written to the folder's .vscode/settings.json: the place both the browser workbench and
   *  the server's extension host read for sure (user settings of the web workbench live in the
   *  browser's storage). Use it for the extension's own settings. */
  readonly workspaceSettings?: Record<string, unknown>;
  readonly env?: NodeJS.ProcessEnv;
  /** A fixed port (default: a free one). */
  readonly port?: number | undefined;
  /**
   * Extension folders (absolute) to load as installed extensions, beside the one under development.
   * The web workbench reads its test payload into a Map, so it takes one extensionDevelopmentPath
   * only: further extensions are listed in the extensions folder's extensions.json instead.
   */
  readonly installedExtensions?: readonly string[];
  /** Start again on the folders of an earlier run (same user data, global storage, workspace): a restart. */
  readonly runDir?: string;
}

/** The default profile's extension list, naming each folder where it is (nothing is copied). */
function writeInstalledExtensions(extensionsDir: string, folders: readonly string[]): void {
  const entries = folders.map((folder) => {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      publisher: string;
      name: string;
      version: string;
    };
    return {
      identifier: { id: `${manifest.publisher}.${manifest.name}`.toLowerCase() },
      version: manifest.version,
      location: { $mid: 1, scheme: 'file', path: resolve(folder) },
      metadata: { installedTimestamp: Date.now(), source: 'resource' },
    };
  });
  writeFileSync(join(extensionsDir, 'extensions.json'), JSON.stringify(entries, null, 2));
}

export async function startVsCodeServer(host: HostPaths, options: ServerOptions = {}): Promise<VsCodeServer> {
  // Short paths: VS Code puts unix sockets under TMPDIR/XDG_RUNTIME_DIR (limit ~107 characters).
  const runDir = options.runDir ?? mkdtempSync(join('/tmp', 'uiv-'));
  const dirs = {
    userData: join(runDir, 'u'),
    serverData: join(runDir, 's'),
    extensions: join(runDir, 'e'),
    workspace: join(runDir, 'ws'),
    tmp: join(runDir, 't'),
    config: join(runDir, 'c'),
    data: join(runDir, 'd'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  if (options.installedExtensions?.length) writeInstalledExtensions(dirs.extensions, options.installedExtensions);
  for (const [path, text] of Object.entries(options.workspaceFiles ?? {})) {
    mkdirSync(join(dirs.workspace, path, '..'), { recursive: true });
    writeFileSync(join(dirs.workspace, path), text);
  }
  if (options.workspaceSettings) {
    mkdirSync(join(dirs.workspace, '.vscode'), { recursive: true });
    writeFileSync(join(dirs.workspace, '.vscode', 'settings.json'), JSON.stringify(options.workspaceSettings, null, 2));
  }
  const settings = JSON.stringify({ ...baseUserSettings, ...options.userSettings }, null, 2);
  // The browser workbench keeps user settings in the browser; the server's Machine settings are
  // what an extension host on the server reads for machine-overridable keys, so write both.
  for (const dir of [
    join(dirs.userData, 'User'),
    join(dirs.serverData, 'data', 'Machine'),
    join(dirs.serverData, 'data', 'User'),
  ]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'settings.json'), settings);
  }

  const port = options.port ?? (await freePort());
  const server: ChildProcess = spawn(
    host.node,
    [
      join(host.vscodeServer, 'out', 'server-main.js'),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--enable-smoke-test-driver',
      '--disable-telemetry',
      '--disable-workspace-trust',
      '--user-data-dir',
      dirs.userData,
      '--server-data-dir',
      dirs.serverData,
      '--extensions-dir',
      dirs.extensions,
      '--default-folder',
      dirs.workspace,
    ],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...options.env,
        EXTENSIONS_GALLERY: '{}',
        TMPDIR: dirs.tmp,
        XDG_RUNTIME_DIR: dirs.tmp,
        XDG_CONFIG_HOME: dirs.config,
        XDG_DATA_HOME: dirs.data,
      },
    },
  );
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (server.exitCode !== null || server.pid === undefined) return;
    const exited = new Promise<void>((done) => server.once('exit', () => done()));
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-server.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 2000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`VS Code server exited early:\n${output}`);
    try {
      const response = await fetch(`${url}/version`);
      if (response.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`VS Code server did not answer within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    runDir,
    pid: server.pid ?? 0,
    workspace: dirs.workspace,
    serverDataDir: dirs.serverData,
    userDataDir: dirs.userData,
    output: () => output,
    stop,
  };
}

const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
const VIEWPORT = { width: 1400, height: 900 };

/** Headless Debian Chromium with a fresh profile on disk; flags keep it off the closed network. */
export async function launchBrowser(host: HostPaths, profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: host.chromium,
    headless: true,
    viewport: VIEWPORT,
    args: BROWSER_ARGS,
  });
}

let shared: Promise<Browser> | undefined;

/**
 * A fresh in-memory profile (a browser context) in one Chromium shared by the whole test process:
 * a context starts in a fraction of a launch's time, and keeps nothing on disk (a test that needs
 * the browser's storage on disk, to restart on it or to search it, uses launchBrowser).
 */
export async function newBrowserContext(host: HostPaths): Promise<BrowserContext> {
  shared ??= chromium.launch({ executablePath: host.chromium, headless: true, args: BROWSER_ARGS });
  const browser = await shared.catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return browser.newContext({ viewport: VIEWPORT });
}

/** Closes the shared Chromium (if one was started). */
export async function closeSharedBrowser(): Promise<void> {
  const browser = await shared?.catch(() => undefined);
  shared = undefined;
  await browser?.close().catch(() => undefined);
}

/** The workbench address for a folder, optionally with a test payload (extension dev/test paths). */
export function workbenchUrl(server: VsCodeServer, payload?: [string, string][]): string {
  const query = new URLSearchParams({ folder: server.workspace });
  if (payload) query.set('payload', JSON.stringify(payload));
  return `${server.url}/?${query.toString()}`;
}

export async function waitForWorkbench(page: Page): Promise<void> {
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
}

export function removeRunDir(server: VsCodeServer): void {
  rmSync(server.runDir, { recursive: true, force: true });
}
