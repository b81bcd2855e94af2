import * as vscode from 'vscode';
import { inspect } from 'node:util';
import { redactSecrets } from '../core/secrets/redact';

/**
 * The "Unified Inference" log. Every line passes through redaction of the secrets it knows
 * (the API key in use), so a key echoed by a server or an exception cannot reach the log.
 */
export class Log implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private secrets: () => readonly string[] = () => [];

  constructor(name = 'Unified Inference') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** Where the values that must never appear in the log come from (asked on every line). */
  redactFrom(secrets: () => readonly string[]): void {
    this.secrets = secrets;
  }

  info(message: string): void {
    this.channel.info(this.clean(message));
  }

  warn(message: string): void {
    this.channel.warn(this.clean(message));
  }

  error(message: string, error?: unknown): void {
    const detail =
      error instanceof Error
        ? `: ${error.message}`
        : typeof error === 'string'
          ? `: ${error}`
          : error !== undefined
            ? `: ${inspect(error, { breakLength: Infinity })}`
            : '';
    this.channel.error(this.clean(message + detail));
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }

  private clean(message: string): string {
    return redactSecrets(message, this.secrets());
  }
}
