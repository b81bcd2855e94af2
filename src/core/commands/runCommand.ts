// Runs one command line the user approved and ends everything it started: on a stop, on the
// timeout, and when the command itself ends (a daemon it left behind would run on unseen). The
// shell runs in a process group of its own (POSIX) and the group is killed; on Linux a ProcessTree
// also finds what left the group (setsid, double forks). Windows: taskkill /T /F walks the tree by
// parent pid, so a process whose parent already ended escapes it. Output is capped.
// The group id (and on Windows the pid) is signalled only while it is still the command's: while
// the shell is not yet reaped (its pid, so its group's id, cannot be reused), or on Linux while a
// verified process of the command is in the group. After the shell's end an empty group's id may
// already belong to an unrelated process, so without /proc the group is not signalled then.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { abortError } from '../errors';
import { CappedOutput } from './cappedOutput';
import { ProcessTree } from './processTree';
import { shellInvocation, treeKill, type ShellPlatform } from './shellInvocation';

/** Every process of one command starts with this variable (a random value per run): how its escaped descendants are found. */
const COMMAND_MARKER_VAR = 'UNIFIED_INFERENCE_COMMAND_RUN';
/** How often the descendant tree is walked while a command runs (Linux), at least. */
const TRACK_INTERVAL_MS = 250;

export interface CommandRunOptions {
  readonly command: string;
  readonly cwd: string;
  readonly platform: ShellPlatform;
  /** The extension host's environment; `removed` names (the key's variable) are not passed on. */
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  readonly removed: readonly string[];
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal: AbortSignal;
  /** Tests: the tracker of this run (Linux), once the command started. */
  readonly onTracking?: (tree: ProcessTree) => void;
  /** Tests: where /proc is (default '/proc'); a missing one stands for a system without it (macOS). */
  readonly procRoot?: string;
}

export type CommandRunResult =
  | {
      readonly kind: 'ended';
      readonly code: number | null;
      readonly signal: NodeJS.Signals | null;
      readonly output: string;
    }
  | { readonly kind: 'timedOut'; readonly output: string }
  | { readonly kind: 'notStarted'; readonly message: string };

/** Resolves when the command and all it started are gone; rejects with an AbortError when `signal` stopped it. */
export function runCommand(options: CommandRunOptions): Promise<CommandRunResult> {
  const { signal, platform } = options;
  if (signal.aborted) return Promise.reject(abortError(signal));
  const shell = shellInvocation(options.command, platform, options.baseEnv, options.removed);
  const marker = { name: COMMAND_MARKER_VAR, value: randomBytes(16).toString('hex') };
  return new Promise<CommandRunResult>((resolve, reject) => {
    const output = new CappedOutput(options.maxOutputBytes);
    const child = spawn(shell.file, [...shell.args], {
      cwd: options.cwd,
      env: { ...shell.env, [marker.name]: marker.value },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: shell.detached,
      windowsVerbatimArguments: shell.windowsVerbatimArguments,
      windowsHide: true,
    });
    const tree =
      platform === 'posix' && child.pid !== undefined
        ? new ProcessTree(child.pid, marker, options.procRoot)
        : undefined;
    let stopping: Promise<void> | undefined;
    let tracking: Promise<boolean> = Promise.resolve(false);
    let ticker: NodeJS.Timeout | undefined;
    if (tree) {
      tracking = ProcessTree.available(options.procRoot).then(async (available) => {
        if (!available) return false;
        await tree.scan();
        options.onTracking?.(tree);
        return true;
      });
      const tick = (): void => {
        const started = Date.now();
        void tracking
          .then(async (on) => {
            if (on) await tree.scan();
          })
          .catch(() => undefined)
          .finally(() => {
            // A scan reads every process's stat: on a busy machine the pause grows, so scanning stays under a fifth of the time.
            if (!stopping) ticker = setTimeout(tick, Math.max(TRACK_INTERVAL_MS, (Date.now() - started) * 4));
          });
      };
      ticker = setTimeout(tick, TRACK_INTERVAL_MS);
    }
    let timedOut = false;
    const stopAll = (): Promise<void> => {
      stopping ??= (async () => {
        if (ticker) clearTimeout(ticker);
        const group = (): void => killGroup(child.pid, platform, options.baseEnv, () => child.kill('SIGKILL'));
        // Node sets these when it reaps the shell, in the same step: before that the pid is still held.
        const groupWhileShellUnreaped = (): void => {
          if (child.exitCode === null && child.signalCode === null) group();
        };
        if (tree && (await tracking.catch(() => false))) await tree.killAll(group).catch(groupWhileShellUnreaped);
        else groupWhileShellUnreaped();
        // A grandchild that escaped every kill may hold the pipes open: the command's end must not wait for it.
        child.stdout?.destroy();
        child.stderr?.destroy();
      })();
      return stopping;
    };
    const timer = setTimeout(() => {
      timedOut = true;
      void stopAll();
    }, options.timeoutMs);
    const onAbort = (): void => void stopAll();
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    // The shell ended: what it left running is ended too (and so its pipes close).
    child.on('exit', () => void stopAll());
    child.on('error', (error) => {
      settle();
      void stopAll();
      resolve({ kind: 'notStarted', message: error.message });
    });
    child.on('close', (code, killedBy) => {
      settle();
      void stopAll().then(() => {
        if (signal.aborted) return reject(abortError(signal));
        resolve(
          timedOut
            ? { kind: 'timedOut', output: output.text() }
            : { kind: 'ended', code, signal: killedBy, output: output.text() },
        );
      });
    });
  });
}

/** The process group (POSIX) or the tree by taskkill (Windows); never throws (it may be gone already). */
function killGroup(
  pid: number | undefined,
  platform: ShellPlatform,
  env: Readonly<Record<string, string | undefined>>,
  fallback: () => void,
): void {
  const safeFallback = (): void => {
    try {
      fallback();
    } catch {
      // already gone
    }
  };
  if (pid === undefined) return safeFallback();
  const plan = treeKill(pid, platform, env);
  try {
    if (plan.kind === 'group') {
      process.kill(plan.pid, 'SIGKILL');
      return;
    }
    const killer = spawn(plan.file, [...plan.args], { stdio: 'ignore', windowsHide: true });
    killer.on('error', safeFallback);
    killer.on('exit', (code) => {
      // 128: no such process (it ended on its own); anything else: at least end the shell.
      if (code !== 0 && code !== 128) safeFallback();
    });
  } catch {
    safeFallback();
  }
}
