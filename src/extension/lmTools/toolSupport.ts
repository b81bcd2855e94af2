// What every language model tool shares: its text result, the checks before it runs (gateway set
// up, workspace trusted), the input it reads from the model (untrusted: checked field by field)
// and the one place a failure becomes a message the model can act on. The API key never reaches
// a result: gateway texts are redacted, and setup problems are written here, not echoed.
import * as vscode from 'vscode';
import { AuthenticationError, ConnectionError, GatewayError, formatCredits, formatResetIn, isAbortError, RateLimitError, type GatewayClient } from '../../core/index';
import type { CreditsMonitor } from '../account/creditsMonitor';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';

export function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** The gateway client, or an Error saying what the user must set up first. */
export function requireClient(connection: GatewayConnection): GatewayClient {
  const { client, hasKey } = connection.setup;
  if (!client) throw new Error('The Unified Inference gateway address is not set. Ask the user to run "Unified Inference: Set Gateway Address", then try again.');
  if (!hasKey) throw new Error('No Unified Inference API key is set. Ask the user to run "Unified Inference: Set API Key", then try again.');
  return client;
}

/** Tools that read or write workspace files do nothing in Restricted Mode (an untrusted repository could steer the model). */
export function requireTrustedWorkspace(what: string): void {
  if (!vscode.workspace.isTrusted) throw new Error(`The workspace is not trusted (Restricted Mode), so ${what} is not available. The user can trust the workspace (Manage Workspace Trust) and ask again.`);
}

/** A plain object from the tool input (a model may send anything). */
function record(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

export class ToolInputError extends Error {}

/** A required text field, trimmed, at most `max` characters. */
export function requiredText(input: unknown, key: string, max: number): string {
  const value = record(input)[key];
  if (typeof value !== 'string' || !value.trim()) throw new ToolInputError(`The input needs "${key}" (a non-empty string).`);
  const text = value.trim();
  if (text.length > max) throw new ToolInputError(`"${key}" is ${text.length} characters long; the most accepted is ${max}.`);
  return text;
}

export function optionalText(input: unknown, key: string, max: number): string | undefined {
  const value = record(input)[key];
  if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) return undefined;
  return requiredText(input, key, max);
}

export function optionalInteger(input: unknown, key: string, min: number, max: number): number | undefined {
  const value = record(input)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new ToolInputError(`"${key}" must be a whole number from ${min} to ${max}.`);
  return value;
}

export function optionalBoolean(input: unknown, key: string): boolean | undefined {
  const value = record(input)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ToolInputError(`"${key}" must be true or false.`);
  return value;
}

export function optionalChoice<T extends string>(input: unknown, key: string, choices: readonly T[]): T | undefined {
  const value = record(input)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) throw new ToolInputError(`"${key}" must be one of: ${choices.join(', ')}.`);
  return value as T;
}

/** An array of strings, each non-empty after trimming, with bounds on count and length. */
export function requiredTexts(input: unknown, key: string, maxCount: number, maxLength: number): string[] {
  const value = record(input)[key];
  if (!Array.isArray(value) || value.length === 0) throw new ToolInputError(`The input needs "${key}" (a non-empty array of strings).`);
  if (value.length > maxCount) throw new ToolInputError(`"${key}" has ${value.length} items; the most accepted is ${maxCount}.`);
  return value.map((item, index) => {
    if (typeof item !== 'string' || !item.trim()) throw new ToolInputError(`"${key}"[${index}] must be a non-empty string.`);
    if (item.length > maxLength) throw new ToolInputError(`"${key}"[${index}] is ${item.length} characters long; the most accepted is ${maxLength}.`);
    return item;
  });
}

/** One line on the balance for a confirmation ("" when it has not been read). */
export function balanceNote(credits: CreditsMonitor): string {
  const state = credits.state;
  if (state.kind === 'ok') return ` Current balance: ${formatCredits(state.reading.credits)}.`;
  if (state.kind === 'outOfCredits') return ' The account is out of credits right now: the gateway will likely refuse this.';
  return '';
}

export interface FailureContext {
  readonly connection: GatewayConnection;
  readonly credits: CreditsMonitor;
  readonly log: Log;
}

/**
 * The Error a tool throws for a failure: cancellation stays a CancellationError; out of credits,
 * a refused key, a rate limit, an unreachable or failing gateway each say what happened and what
 * to do next, in words a model can act on. The failure is reported to the connection (the credits
 * status and its out-of-credits notice follow), and the text is redacted.
 */
export async function toolFailure(deps: FailureContext, tool: string, error: unknown, token: vscode.CancellationToken): Promise<Error> {
  if (token.isCancellationRequested || isAbortError(error) || error instanceof vscode.CancellationError) return new vscode.CancellationError();
  if (error instanceof ToolInputError) return new Error(`Invalid input for ${tool}: ${error.message}`);
  deps.connection.redactError(error);
  deps.connection.reportFailure(error);
  const detail = error instanceof Error ? error.message : String(error);
  deps.log.warn(`Language model tool ${tool} failed: ${detail}`);
  const message = await describe(deps, error, detail);
  return new Error(deps.connection.redact(message));
}

async function describe(deps: FailureContext, error: unknown, detail: string): Promise<string> {
  if (error instanceof RateLimitError && error.quotaExhausted) {
    const reset = await deps.credits.resetTime().catch(() => undefined);
    const at = reset && !Number.isNaN(Date.parse(reset)) ? ` New credits arrive when the quota resets at ${new Date(reset).toISOString()} (${formatResetIn(new Date(reset), new Date())}).` : '';
    return `Out of credits: the Unified Inference gateway refused the request (${detail}).${at} Do not retry now; tell the user, who can add credits or wait for the reset.`;
  }
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterMs !== undefined ? ` It asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s.` : '';
    return `The Unified Inference gateway is rate limiting requests (HTTP ${error.status ?? 429}).${wait} Try again later.`;
  }
  if (error instanceof AuthenticationError) {
    return `The Unified Inference gateway refused the API key (${error.status ? `HTTP ${error.status}` : 'no key'}). Ask the user to set a valid key with "Unified Inference: Set API Key"; retrying will not help until then.`;
  }
  if (error instanceof ConnectionError) return `The Unified Inference gateway could not be reached (${detail}). Try again later, or ask the user to check the gateway address and network.`;
  if (error instanceof GatewayError && error.status !== undefined && error.status >= 500) {
    return `The Unified Inference gateway had a server error (HTTP ${error.status}: ${detail}). Try again in a few minutes.`;
  }
  if (error instanceof GatewayError && error.status !== undefined) return `The Unified Inference gateway refused the request (HTTP ${error.status}): ${detail}`;
  return detail;
}
