// What every language model tool shares: its text result, the checks before it runs (gateway set
// up, workspace trusted), the input it reads from the model (untrusted: checked field by field)
// and the one place a failure becomes a message the model can act on. The API key never reaches
// a result: gateway texts are redacted, and setup problems are written here, not echoed.
import * as vscode from 'vscode';
import { formatCredits } from '../../core/account/creditsFormat';
import { isAbortError } from '../../core/errors';
import type { GatewayClient } from '../../core/transport/client';
import { asRecord } from '../../core/parse/json';
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

export class ToolInputError extends Error {}

/** A required text field, trimmed, at most `max` characters. */
export function requiredText(input: unknown, key: string, max: number): string {
  const value = asRecord(input)[key];
  if (typeof value !== 'string' || !value.trim())
    throw new ToolInputError(`The input needs "${key}" (a non-empty string).`);
  const text = value.trim();
  if (text.length > max)
    throw new ToolInputError(`"${key}" is ${text.length} characters long; the most accepted is ${max}.`);
  return text;
}

export function optionalText(input: unknown, key: string, max: number): string | undefined {
  const value = asRecord(input)[key];
  if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) return undefined;
  return requiredText(input, key, max);
}

export function optionalInteger(input: unknown, key: string, min: number, max: number): number | undefined {
  const value = asRecord(input)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new ToolInputError(`"${key}" must be a whole number from ${min} to ${max}.`);
  return value;
}

export function optionalBoolean(input: unknown, key: string): boolean | undefined {
  const value = asRecord(input)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ToolInputError(`"${key}" must be true or false.`);
  return value;
}

export function optionalChoice<T extends string>(input: unknown, key: string, choices: readonly T[]): T | undefined {
  const value = asRecord(input)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value))
    throw new ToolInputError(`"${key}" must be one of: ${choices.join(', ')}.`);
  return value as T;
}

/** An array of strings, each non-empty after trimming, with bounds on count and length. */
export function requiredTexts(input: unknown, key: string, maxCount: number, maxLength: number): string[] {
  const value = asRecord(input)[key];
  if (!Array.isArray(value) || value.length === 0)
    throw new ToolInputError(`The input needs "${key}" (a non-empty array of strings).`);
  if (value.length > maxCount)
    throw new ToolInputError(`"${key}" has ${value.length} items; the most accepted is ${maxCount}.`);
  return value.map((item, index) => {
    if (typeof item !== 'string' || !item.trim())
      throw new ToolInputError(`"${key}"[${index}] must be a non-empty string.`);
    if (item.length > maxLength)
      throw new ToolInputError(
        `"${key}"[${index}] is ${item.length} characters long; the most accepted is ${maxLength}.`,
      );
    return item;
  });
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
