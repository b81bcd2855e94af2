// How one command line is handed to the system's shell, and how what it started is ended, for
// each platform by parameter (so both are unit-tested on any machine). Pure: no spawning here.
//
// Windows: `cmd.exe /d /s /c "<line>"` with windowsVerbatimArguments, exactly as Node's own
// `shell: true` does: with /s cmd strips the outer quotes and runs the rest as typed, so what runs
// is the line the user approved (Node's default quoting would escape its inner quotes with
// backslashes, which cmd does not understand). /d skips the AutoRun commands of the registry.
// Elsewhere: `/bin/sh -c <line>`, the line as one argument, in a process group of its own.
//
// The environment is the extension host's minus what must not reach a command a model wrote: the
// API key's variable, and the editor's internals (ELECTRON_RUN_AS_NODE would turn every Electron
// app the command starts, VS Code's `code` CLI included, into a bare Node; VSCODE_* carry IPC
// handles into the running editor), the same list VS Code's own terminal strips. Names are
// compared without case on Windows, where `Path` and `PATH` are one variable.

export type ShellPlatform = 'win32' | 'posix';

export interface ShellInvocation {
  readonly file: string;
  readonly args: readonly string[];
  /** Windows only: pass `args` as they are (the quoting above is already cmd's). */
  readonly windowsVerbatimArguments: boolean;
  /** Its own process group (POSIX), so a stop ends what it started too. */
  readonly detached: boolean;
  readonly env: Readonly<Record<string, string>>;
}

/** Variables VS Code's integrated terminal also removes (vs/base/common/processes.ts). */
const EDITOR_INTERNALS: readonly RegExp[] = [
  /^ELECTRON_.+$/,
  /^VSCODE_(?!(PORTABLE|SHELL_LOGIN|ENV_REPLACE|ENV_APPEND|ENV_PREPEND)).+$/,
  /^SNAP(|_.*)$/,
  /^GDK_PIXBUF_.+$/,
];

/** The value of `name` in `env`, ignoring case on Windows. */
function lookup(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  platform: ShellPlatform,
): string | undefined {
  if (platform !== 'win32') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

/** The child's environment: `base` without `removed` names and the editor's internals. */
export function commandEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  removed: readonly string[],
  platform: ShellPlatform,
): Record<string, string> {
  const fold = (name: string): string => (platform === 'win32' ? name.toUpperCase() : name);
  const drop = new Set(removed.map(fold));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || drop.has(fold(name))) continue;
    if (EDITOR_INTERNALS.some((pattern) => pattern.test(fold(name)))) continue;
    // Windows: one entry per name whatever its case (which one Node would pass is not defined).
    if (platform === 'win32' && Object.keys(env).some((k) => k.toUpperCase() === name.toUpperCase())) continue;
    env[name] = value;
  }
  return env;
}

/** The system folder of Windows, from the environment (a plain `cmd.exe` would be searched for in the current folder first). */
function systemRoot(env: Readonly<Record<string, string | undefined>>): string {
  return (lookup(env, 'SystemRoot', 'win32') ?? lookup(env, 'windir', 'win32') ?? 'C:\\Windows').replace(/[\\/]+$/, '');
}

export function shellInvocation(
  command: string,
  platform: ShellPlatform,
  baseEnv: Readonly<Record<string, string | undefined>>,
  removed: readonly string[],
): ShellInvocation {
  const env = commandEnvironment(baseEnv, removed, platform);
  if (platform === 'win32') {
    const comSpec = lookup(baseEnv, 'ComSpec', 'win32');
    const file = comSpec && /^[a-z]:[\\/]|^\\\\/i.test(comSpec) ? comSpec : `${systemRoot(baseEnv)}\\System32\\cmd.exe`;
    return { file, args: ['/d', '/s', '/c', `"${command}"`], windowsVerbatimArguments: true, detached: false, env };
  }
  return { file: '/bin/sh', args: ['-c', command], windowsVerbatimArguments: false, detached: true, env };
}

/** How to end a command and everything it started. */
export type TreeKill =
  | { readonly kind: 'spawn'; readonly file: string; readonly args: readonly string[] }
  | { readonly kind: 'group'; readonly pid: number };

export function treeKill(
  pid: number,
  platform: ShellPlatform,
  env: Readonly<Record<string, string | undefined>>,
): TreeKill {
  // Windows has no process groups to signal: taskkill walks the tree (/T) and forces it (/F).
  if (platform === 'win32')
    return {
      kind: 'spawn',
      file: `${systemRoot(env)}\\System32\\taskkill.exe`,
      args: ['/pid', String(pid), '/T', '/F'],
    };
  // The negative pid signals the whole group the detached shell leads.
  return { kind: 'group', pid: -pid };
}
