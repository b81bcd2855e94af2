// The optional terminal tool (unifiedInference.chat.terminalTool, user settings only, off by
// default): run_command runs one command line in a workspace folder. It always asks, showing the
// command verbatim and where it runs; "for this conversation" is never offered for it. The line
// goes to the shell as ONE argument (`sh -c <line>`, `cmd.exe /d /s /c "<line>"` verbatim), so
// what runs is exactly what was shown (core's shellInvocation.ts). Stoppable with the reply's
// stop, killed after a timeout with everything it started (its process group; taskkill /T on
// Windows); output (stdout and stderr together) capped, the exit code returned. The API key's
// environment variable and the editor's internal ones (ELECTRON_RUN_AS_NODE, VSCODE_*) are not
// passed on.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { CappedOutput, relativeWithin, shellInvocation, treeKill, type ShellPlatform } from '../../core/index';
import { API_KEY_ENV_VAR } from '../apiKey/apiKeyStore';
import type { ToolCallRequest, ToolOutcome, ToolReview } from '../answers/toolHost';
import type { GatewayTool } from '../answers/gatewayAnswer';

export const RUN_COMMAND = 'run_command';
/** A command still running after this is killed (a build or a test run fits; a server does not). */
export const COMMAND_TIMEOUT_MS = 120_000;
/** Output kept for the model (start and end). */
export const MAX_COMMAND_OUTPUT = 16 * 1024;

export const COMMAND_TOOL: GatewayTool = {
  name: RUN_COMMAND,
  description: `Run a shell command line in the workspace (e.g. "npm test", "git status"). The user sees the exact command and allows or denies each call. Output (stdout and stderr) is capped at ${MAX_COMMAND_OUTPUT} bytes (start and end kept); the command is killed after ${COMMAND_TIMEOUT_MS / 1000} s. Nothing interactive: no input is given.`,
  inputSchema: {
    type: 'object',
    properties: { command: { type: 'string', description: 'The command line' }, cwd: { type: 'string', description: 'Workspace-relative folder to run in (default: the workspace folder)' } },
    required: ['command'],
  },
};

interface CommandPlan {
  readonly command: string;
  readonly cwd: string;
}

const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';

/** Ends the command and what it started; never throws (it may be gone already). */
function killTree(pid: number | undefined, platform: ShellPlatform, fallback: () => void): void {
  if (pid === undefined) return fallback();
  const plan = treeKill(pid, platform, process.env);
  try {
    if (plan.kind === 'group') {
      process.kill(plan.pid, 'SIGKILL');
      return;
    }
    const killer = spawn(plan.file, [...plan.args], { stdio: 'ignore', windowsHide: true });
    killer.on('error', fallback);
    killer.on('exit', (code) => {
      // 128: no such process (it ended on its own); anything else: at least end the shell.
      if (code !== 0 && code !== 128) fallback();
    });
  } catch {
    fallback();
  }
}

export class CommandTool {
  /** The folder and the command, checked; or why it cannot run. */
  async review(call: ToolCallRequest): Promise<ToolReview> {
    const command = typeof call.input.command === 'string' ? call.input.command : '';
    if (!command.trim()) return { sensitivePaths: [], refusal: '"command" is required.' };
    const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.scheme === 'file');
    if (!folder) return { sensitivePaths: [], refusal: 'No workspace folder on disk is open to run a command in.' };
    const asked = typeof call.input.cwd === 'string' && call.input.cwd.trim() ? call.input.cwd.trim() : '.';
    const root = await fs.realpath(folder.uri.fsPath);
    const cwd = await fs.realpath(nodePath.resolve(root, asked)).catch(() => undefined);
    const within = cwd === undefined ? undefined : relativeWithin(root, cwd, CASE_INSENSITIVE);
    if (!cwd || within === undefined || !(await fs.stat(cwd).then((s) => s.isDirectory(), () => false))) {
      return { sensitivePaths: [], refusal: `${asked} is not a folder inside the workspace folder.` };
    }
    const shown = within || '.';
    const plan: CommandPlan = { command, cwd };
    return { sensitivePaths: [], command: { command, cwd: shown }, askEveryTime: true, plan };
  }

  run(review: ToolReview, signal: AbortSignal): Promise<ToolOutcome> {
    const plan = review.plan as CommandPlan | undefined;
    if (!plan || review.command?.command !== plan.command) return Promise.resolve({ content: 'This command was not reviewed, so it did not run.', isError: true });
    const platform: ShellPlatform = process.platform === 'win32' ? 'win32' : 'posix';
    const shell = shellInvocation(plan.command, platform, process.env, [API_KEY_ENV_VAR]);
    return new Promise<ToolOutcome>((resolve, reject) => {
      const output = new CappedOutput(MAX_COMMAND_OUTPUT);
      const child = spawn(shell.file, [...shell.args], {
        cwd: plan.cwd,
        env: shell.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: shell.detached,
        windowsVerbatimArguments: shell.windowsVerbatimArguments,
        windowsHide: true,
      });
      let timedOut = false;
      let killed = false;
      const kill = (): void => {
        if (killed) return;
        killed = true;
        killTree(child.pid, platform, () => {
          try {
            child.kill('SIGKILL');
          } catch {
            // already gone
          }
        });
        // A grandchild that escaped the kill may hold the pipes open: the command's end must not wait for it.
        child.stdout.destroy();
        child.stderr.destroy();
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, COMMAND_TIMEOUT_MS);
      const onAbort = (): void => kill();
      signal.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
      child.on('error', (error) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve({ content: `The command could not start: ${error.message}`, isError: true });
      });
      child.on('close', (code, killedBy) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) return reject(Object.assign(new Error('The reply was stopped while a command ran.'), { name: 'AbortError' }));
        const text = output.text();
        const ending = timedOut ? `killed after ${COMMAND_TIMEOUT_MS / 1000} s` : code !== null ? `exit code ${code}` : `ended by ${killedBy ?? 'a signal'}`;
        resolve({ content: `$ ${plan.command}\n${text}${text && !text.endsWith('\n') ? '\n' : ''}[${ending}]`, ...(timedOut || code !== 0 ? { isError: true } : {}) });
      });
    });
  }
}
