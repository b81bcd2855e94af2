import * as vscode from 'vscode';
import type { GatewayClient } from '../../core/transport/client';
import type { SetupAction } from '../../core/participant/quotaMarkdown';
import { describeError, type ErrorAction, type ErrorDescription } from '../../core/failures/describeError';
import { ACTION_COMMANDS } from '../../core/failures/errorWords';
import { actionLabel } from '../errors/failures';
import { missingSetup, SetupRequiredError } from '../../core/failures/setupError';
import { result, type CommandContext, type Outcome, type UnifiedCommand } from './participantContext';

/**
 * The actions as chat buttons. Retry is left out: VS Code's chat has its own (the request is
 * asked again from the chat input).
 */
export function actionButtons(
  stream: vscode.ChatResponseStream,
  actions: readonly (ErrorAction | SetupAction)[],
): void {
  for (const action of new Set(actions)) {
    if (action === 'retry') continue;
    stream.button({ command: ACTION_COMMANDS[action].command, title: actionLabel(action) });
  }
}

/**
 * The client when the gateway address and a key are set; otherwise says what is missing (the
 * shared description), with the button that fixes it, and gives undefined.
 */
export function requireClient(ctx: CommandContext): GatewayClient | undefined {
  const { setup } = ctx.deps.connection;
  const missing = missingSetup(setup);
  if (!missing && setup.client) return setup.client;
  const description = describeError(new SetupRequiredError(missing ?? 'baseUrl'), { baseUrl: setup.baseUrl });
  ctx.stream.markdown(description.message);
  actionButtons(ctx.stream, description.actions);
  return undefined;
}

function outcomeOf(description: ErrorDescription): Outcome {
  if (description.kind === 'outOfCredits') return 'outOfCredits';
  if (description.kind === 'auth' || description.kind === 'setup') return 'setup';
  return 'error';
}

/**
 * Says what went wrong after a request failed, below whatever part of the answer already arrived:
 * the shared description as the result's errorDetails (VS Code's chat shows it as the error), its
 * actions as buttons. Compared by `name`: a caller's copy of the error classes may not be the bundle's.
 */
export async function reportCommandError(
  ctx: CommandContext,
  command: UnifiedCommand,
  error: unknown,
): Promise<vscode.ChatResult> {
  if (ctx.token.isCancellationRequested || (error instanceof Error && error.name === 'AbortError'))
    return result(command, 'cancelled');
  const { failures, log } = ctx.deps;
  // What VS Code's chat shows (and keeps in its history) must not carry a key the gateway echoed: describe redacts.
  failures.report(error, true); // shown below, with its fix as buttons
  const description = await failures.describe(error);
  log.warn(`@unified${command ? ` /${command}` : ''} failed: ${description.detail}`);
  actionButtons(ctx.stream, description.actions);
  return result(command, outcomeOf(description), description.message);
}
