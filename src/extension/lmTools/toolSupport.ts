// What every language model tool shares: its text result, the checks before it runs (gateway set
// up, workspace trusted), the input it reads from the model (untrusted: checked field by field)
// and the one place a failure becomes a message the model can act on. The API key never reaches
// a result: gateway texts are redacted, and setup problems are written here, not echoed.
import * as vscode from 'vscode';
import { formatCredits } from '../../core/account/creditsFormat';
import { isAbortError } from '../../core/errors';
import type { GatewayClient } from '../../core/transport/client';
import { ToolInputError } from '../../core/lmTools/toolInput';
import type { CreditsMonitor } from '../account/creditsMonitor';
import { describeInWords } from '../../core/failures/errorWords';
import type { Failures } from '../errors/failures';
import { missingSetup, SetupRequiredError } from '../../core/failures/setupError';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';

export function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** The gateway client, or a SetupRequiredError (toolFailure says what the user must set up first). */
export function requireClient(connection: GatewayConnection): GatewayClient {
  const { client } = connection.setup;
  const missing = missingSetup(connection.setup);
  if (missing || !client) throw new SetupRequiredError(missing ?? 'baseUrl');
  return client;
}

/** Tools that read or write workspace files do nothing in Restricted Mode (an untrusted repository could steer the model). */
export function requireTrustedWorkspace(what: string): void {
  if (!vscode.workspace.isTrusted)
    throw new Error(
      `The workspace is not trusted (Restricted Mode), so ${what} is not available. The user can trust the workspace (Manage Workspace Trust) and ask again.`,
    );
}

/** One line on the balance for a confirmation ("" when it has not been read). */
export function balanceNote(credits: CreditsMonitor): string {
  const state = credits.state;
  if (state.kind === 'ok') return vscode.l10n.t(' Current balance: {0}.', formatCredits(state.reading.credits));
  if (state.kind === 'outOfCredits')
    return vscode.l10n.t(' The account is out of credits right now: the gateway will likely refuse this.');
  return '';
}

export interface FailureContext {
  readonly failures: Failures;
  readonly log: Log;
}

/**
 * The Error a tool throws for a failure: cancellation stays a CancellationError; everything else
 * is the shared description (errors/describeError.ts) with its next steps in words a model can act
 * on (a tool cannot show buttons). The failure is reported to the connection once (the credits
 * status and its out-of-credits notice follow), and the text is redacted.
 */
export async function toolFailure(
  deps: FailureContext,
  tool: string,
  error: unknown,
  token: vscode.CancellationToken,
): Promise<Error> {
  if (token.isCancellationRequested || isAbortError(error) || error instanceof vscode.CancellationError)
    return new vscode.CancellationError();
  if (error instanceof ToolInputError) return new Error(`Invalid input for ${tool}: ${error.message}`);
  // A setup problem is not a failed request: nothing to report to the connection.
  if (!(error instanceof SetupRequiredError)) deps.failures.report(error);
  const description = await deps.failures.describe(error);
  deps.log.warn(`Language model tool ${tool} failed: ${description.detail}`);
  return new Error(describeInWords(description));
}
