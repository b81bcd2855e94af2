// The optional terminal tool (unifiedInference.chat.terminalTool, user settings only, off by
// default): run_command runs one command line in a workspace folder. It always asks, showing the
// command verbatim and where it runs; "for this conversation" is never offered for it. The line
// goes to the shell as ONE argument (`sh -c <line>`), so what runs is exactly what was shown.
// Stoppable with the reply's stop, killed after a timeout; output (stdout and stderr together)
// capped, the exit code returned. The API key's environment variable is not passed on.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { CappedOutput } from '../../core/index';
import { API_KEY_ENV_VAR } from '../apiKey/apiKeyStore';
import type { ToolCallRequest, ToolOutcome, ToolReview } from '../chat/replyRunner';
import type { GatewayTool } from '../languageModels/gatewayAnswer';

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

function isInside(parent: string, child: string): boolean {
  const relative = nodePath.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !nodePath.isAbsolute(relative));
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
    if (!cwd || !isInside(root, cwd) || !(await fs.stat(cwd).then((s) => s.isDirectory(), () => false))) {
      return { sensitivePaths: [], refusal: `${asked} is not a folder inside the workspace folder.` };
    }
    const shown = nodePath.relative(root, cwd).split(nodePath.sep).join('/') || '.';
    const plan: CommandPlan = { command, cwd };
    return { sensitivePaths: [], command: { command, cwd: shown }, askEveryTime: true, plan };
  }

  run(review: ToolReview, signal: AbortSignal): Promise<ToolOutcome> {
    const plan = review.plan as CommandPlan | undefined;
    if (!plan || review.command?.command !== plan.command) return Promise.resolve({ content: 'This command was not reviewed, so it did not run.', isError: true });
    const windows = process.platform === 'win32';
    const shell = windows ? (process.env.ComSpec ?? 'cmd.exe') : '/bin/sh';
    const args = windows ? ['/d', '/s', '/c', plan.command] : ['-c', plan.command];
    const env = { ...process.env };
    delete env[API_KEY_ENV_VAR];
    return new Promise<ToolOutcome>((resolve, reject) => {
      const output = new CappedOutput(MAX_COMMAND_OUTPUT);
      // Its own process group, so a stop or the timeout ends what it started too.
      const child = spawn(shell, args, { cwd: plan.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: !windows, windowsHide: true });
      let timedOut = false;
      const kill = (): void => {
        try {
          if (!windows && child.pid) process.kill(-child.pid, 'SIGKILL');
          else child.kill('SIGKILL');
        } catch {
          // already gone
        }
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
