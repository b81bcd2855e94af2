// The optional terminal tool (unifiedInference.chat.terminalTool, user settings only, off by
// default): run_command runs one command line in a workspace folder. It always asks, showing the
// command verbatim and where it runs; "for this conversation" is never offered for it. The line
// goes to the shell as ONE argument (`sh -c <line>`, `cmd.exe /d /s /c "<line>"` verbatim), so
// what runs is exactly what was shown (core's shellInvocation.ts). Stoppable with the reply's
// stop, killed after a timeout, and what it started is ended with it, also when it ends by itself
// (core's runCommand.ts: its process group, on Linux also what left the group; taskkill /T on
// Windows); output (stdout and stderr together) capped, the exit code returned. The API key's
// environment variable and the editor's internal ones (ELECTRON_RUN_AS_NODE, VSCODE_*) are not
// passed on.
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { relativeWithin } from '../../core/workspaceFiles/rootFolders';
import { runCommand } from '../../core/commands/runCommand';
import type { ShellPlatform } from '../../core/commands/shellInvocation';
import { API_KEY_ENV_VAR } from '../apiKey/apiKeyStore';
import type { ToolCallRequest, ToolOutcome, ToolReview } from '../../core/answers/toolHost';
import type { GatewayTool } from '../../core/answers/gatewayAnswer';

export const RUN_COMMAND = 'run_command';
/** A command still running after this is killed (a build or a test run fits; a server does not). */
const COMMAND_TIMEOUT_MS = 120_000;
/** Output kept for the model (start and end). */
const MAX_COMMAND_OUTPUT = 16 * 1024;

export const COMMAND_TOOL: GatewayTool = {
  name: RUN_COMMAND,
  description: `Run a shell command line in the workspace (e.g. "npm test", "git status"). The user sees the exact command and allows or denies each call. Output (stdout and stderr) is capped at ${MAX_COMMAND_OUTPUT} bytes (start and end kept); the command is killed after ${COMMAND_TIMEOUT_MS / 1000} s. Nothing interactive: no input is given.`,
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line' },
      cwd: { type: 'string', description: 'Workspace-relative folder to run in (default: the workspace folder)' },
    },
    required: ['command'],
  },
};

interface CommandPlan {
  readonly command: string;
  readonly cwd: string;
}

const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';

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
    if (
      !cwd ||
      within === undefined ||
      !(await fs.stat(cwd).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    ) {
      return { sensitivePaths: [], refusal: `${asked} is not a folder inside the workspace folder.` };
    }
    const shown = within || '.';
    const plan: CommandPlan = { command, cwd };
    return { sensitivePaths: [], command: { command, cwd: shown }, askEveryTime: true, plan };
  }

  async run(review: ToolReview, signal: AbortSignal): Promise<ToolOutcome> {
    const plan = review.plan as CommandPlan | undefined;
    if (!plan || review.command?.command !== plan.command)
      return { content: 'This command was not reviewed, so it did not run.', isError: true };
    const platform: ShellPlatform = process.platform === 'win32' ? 'win32' : 'posix';
    const result = await runCommand({
      command: plan.command,
      cwd: plan.cwd,
      platform,
      baseEnv: process.env,
      removed: [API_KEY_ENV_VAR],
      timeoutMs: COMMAND_TIMEOUT_MS,
      maxOutputBytes: MAX_COMMAND_OUTPUT,
      signal,
    }).catch((error: unknown) => {
      if (signal.aborted)
        throw Object.assign(new Error('The reply was stopped while a command ran.'), { name: 'AbortError' });
      throw error;
    });
    if (result.kind === 'notStarted')
      return { content: `The command could not start: ${result.message}`, isError: true };
    const text = result.output;
    const ending =
      result.kind === 'timedOut'
        ? `killed after ${COMMAND_TIMEOUT_MS / 1000} s`
        : result.code !== null
          ? `exit code ${result.code}`
          : `ended by ${result.signal ?? 'a signal'}`;
    const failed = result.kind === 'timedOut' || result.code !== 0;
    return {
      content: `$ ${plan.command}\n${text}${text && !text.endsWith('\n') ? '\n' : ''}[${ending}]`,
      ...(failed ? { isError: true } : {}),
    };
  }
}
