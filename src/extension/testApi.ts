import type * as vscode from 'vscode';
import type { KeySource } from '../shared/chatProtocol';

/**
 * What the integration tests may inspect, returned from `activate` only when VS Code runs the
 * extension in test mode (never in normal use: it would expose state to other extensions).
 */
export interface TestApi {
  /** Every key and value the extension keeps in globalState and workspaceState. */
  storedState(): Record<string, unknown>;
  /** Where the extension's log files are written. */
  readonly logUri: vscode.Uri;
  /** The raw SecretStorage entry for the key (to check what the commands stored). */
  storedApiKey(): Thenable<string | undefined>;
  /** Where the key in use comes from, as the rest of the extension sees it. */
  apiKeySource(): Promise<KeySource>;
}

export function createTestApi(context: vscode.ExtensionContext, apiKeySecretId: string, apiKeySource: () => Promise<KeySource>): TestApi {
  const dump = (memento: vscode.Memento): Record<string, unknown> =>
    Object.fromEntries(memento.keys().map((key) => [key, memento.get(key)]));
  return {
    storedState: () => ({ global: dump(context.globalState), workspace: dump(context.workspaceState) }),
    logUri: context.logUri,
    storedApiKey: () => context.secrets.get(apiKeySecretId),
    apiKeySource,
  };
}
