import * as vscode from 'vscode';
import type { Log } from '../log';
import { clearApiKeyCommand, setApiKeyCommand } from './apiKeyCommands';
import type { ApiKeyStore } from './apiKeyStore';

/** Set API Key and Clear API Key. */
export function registerApiKey(
  context: vscode.ExtensionContext,
  { apiKeys, log }: { readonly apiKeys: ApiKeyStore; readonly log: Log },
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('unifiedInference.setApiKey', () => setApiKeyCommand(apiKeys, log)),
    vscode.commands.registerCommand('unifiedInference.clearApiKey', () => clearApiKeyCommand(apiKeys, log)),
  );
}
