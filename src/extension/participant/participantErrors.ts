import type * as vscode from 'vscode';
import type { GatewayClient } from '../../core/index';
import type { SetupAction } from './quotaMarkdown';
import { escapeMarkdown } from '../../shared/markdownText';
import { result, type CommandContext, type UnifiedCommand } from './participantContext';

const ACTION_BUTTONS: Readonly<Record<SetupAction, vscode.Command>> = {
  setBaseUrl: { command: 'unifiedInference.setBaseUrl', title: 'Set Gateway Address' },
  setApiKey: { command: 'unifiedInference.setApiKey', title: 'Set API Key' },
  refreshCredits: { command: 'unifiedInference.refreshCredits', title: 'Refresh Credits' },
};

export function actionButtons(stream: vscode.ChatResponseStream, actions: readonly SetupAction[]): void {
  for (const action of actions) stream.button(ACTION_BUTTONS[action]);
}

/**
 * The client when the gateway address and a key are set; otherwise says what is missing, with the
 * button that fixes it, and gives undefined.
 */
export function requireClient(ctx: CommandContext): GatewayClient | undefined {
  const { client, hasKey } = ctx.deps.connection.setup;
  if (!client) {
    ctx.stream.markdown('The gateway address is not set. Set it, then ask again.');
    actionButtons(ctx.stream, ['setBaseUrl']);
    return undefined;
  }
  if (!hasKey) {
    ctx.stream.markdown('No API key is set for the gateway. Set one (it is kept in VS Code\'s secret storage), then ask again.');
    actionButtons(ctx.stream, ['setApiKey']);
    return undefined;
  }
  return client;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : '';
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Says what went wrong after a request failed, below whatever part of the answer already arrived.
 * Compared by `name`: a caller's copy of the error classes may not be the bundle's.
 */
export function reportCommandError(ctx: CommandContext, command: UnifiedCommand, error: unknown): vscode.ChatResult {
  if (ctx.token.isCancellationRequested || errorName(error) === 'AbortError') return result(command, 'cancelled');
  const { connection, log } = ctx.deps;
  // What VS Code's chat shows (and keeps in its history) must not carry a key the gateway echoed.
  connection.redactError(error);
  connection.reportFailure(error);
  log.warn(`@unified${command ? ` /${command}` : ''} failed: ${errorMessage(error)}`);
  if (errorName(error) === 'RateLimitError' && (error as { quotaExhausted?: boolean }).quotaExhausted) {
    // The server's words too: a usage or plan limit may be said only there (see isOutOfCredits).
    ctx.stream.markdown(`\n\n**Out of credits**: the gateway refused the request (${escapeMarkdown(errorMessage(error))}). New credits arrive when the quota window resets (\`@unified /quota\` shows when).`);
    actionButtons(ctx.stream, ['refreshCredits']);
    return result(command, 'outOfCredits');
  }
  if (errorName(error) === 'AuthenticationError') {
    ctx.stream.markdown(`\n\nThe gateway refused the API key: ${escapeMarkdown(errorMessage(error))}`);
    actionButtons(ctx.stream, ['setApiKey']);
    return result(command, 'setup');
  }
  return result(command, 'error', errorMessage(error));
}
