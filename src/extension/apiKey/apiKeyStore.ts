import * as vscode from 'vscode';
import { redactError, redactValue } from '../../core/secrets/redact';
import type { KeySource } from '../../shared/chatProtocol';
import { Disposable } from '../lifecycle';

/** The environment variable read when no key is stored (scripted and CI setups). */
export const API_KEY_ENV_VAR = 'UNIFIED_INFERENCE_API_KEY';
export const API_KEY_SECRET_ID = 'unifiedInference.apiKey';

export interface ApiKey {
  readonly value: string;
  readonly source: Exclude<KeySource, 'none'>;
}

/**
 * The API key lives in SecretStorage only (falling back to an environment variable). Changes made
 * here or in another window fire `onDidChange`, so every consumer picks the new key up at once.
 */
export class ApiKeyStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  /** Every key value seen in this session: the log redacts all of them, old ones included. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly environment: NodeJS.ProcessEnv = process.env,
  ) {
    super();
    this._register(
      secrets.onDidChange((event) => {
        if (event.key === API_KEY_SECRET_ID) this.changed.fire();
      }),
    );
  }

  async get(): Promise<ApiKey | undefined> {
    const stored = (await this.secrets.get(API_KEY_SECRET_ID))?.trim();
    if (stored) return { value: this.remember(stored), source: 'secretStorage' };
    const fromEnvironment = this.environment[API_KEY_ENV_VAR]?.trim();
    if (fromEnvironment) return { value: this.remember(fromEnvironment), source: 'environment' };
    return undefined;
  }

  /** Values that must never be written anywhere (known synchronously, before any await). */
  knownSecrets(): readonly string[] {
    const fromEnvironment = this.environment[API_KEY_ENV_VAR]?.trim();
    return fromEnvironment ? [...this.seen, fromEnvironment] : [...this.seen];
  }

  /**
   * `value` (text, or JSON-like data such as a conversation or a webview message) with every known
   * key taken out: the last step before anything is persisted, posted to a webview, written to VS
   * Code's chat or exported. The gateway's answers are untrusted and may echo the key.
   */
  redact<T>(value: T): T {
    return redactValue(value, this.knownSecrets());
  }

  /** The same for an error (message, stack, code, type, body, request id, causes), in place. */
  redactError<E>(error: E): E {
    return redactError(error, this.knownSecrets());
  }

  private remember(value: string): string {
    this.seen.add(value);
    return value;
  }

  async source(): Promise<KeySource> {
    return (await this.get())?.source ?? 'none';
  }

  async set(value: string): Promise<void> {
    const trimmed = value.trim();
    if (!trimmed) throw new Error('The API key is empty.');
    this.remember(trimmed);
    await this.secrets.store(API_KEY_SECRET_ID, trimmed);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(API_KEY_SECRET_ID);
  }
}
