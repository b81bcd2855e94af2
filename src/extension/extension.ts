import * as vscode from 'vscode';
import { ConnectionStatusItem } from './account/connectionStatusItem';
import { clearApiKeyCommand, setApiKeyCommand } from './apiKey/apiKeyCommands';
import { API_KEY_SECRET_ID, ApiKeyStore } from './apiKey/apiKeyStore';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat/chatViewProvider';
import { openSettings } from './config';
import { Log } from './log';
import { RESEARCH_VIEW_ID, ResearchTreeProvider } from './research/researchTreeProvider';
import { createTestApi, type TestApi } from './testApi';

/** Wires the extension together; every object it builds is owned by `context.subscriptions`. */
export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
  const log = new Log();
  const apiKeys = new ApiKeyStore(context.secrets);
  context.subscriptions.push(log, apiKeys);

  log.redactFrom(() => apiKeys.knownSecrets());
  await apiKeys.get(); // learn the stored key now, so the log redacts it from the first line

  const chat = new ChatViewProvider(context.extensionUri, apiKeys, log);
  context.subscriptions.push(
    chat,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chat, { webviewOptions: { retainContextWhenHidden: false } }),
    vscode.window.registerTreeDataProvider(RESEARCH_VIEW_ID, new ResearchTreeProvider()),
    new ConnectionStatusItem(apiKeys),
    vscode.commands.registerCommand('unifiedInference.setApiKey', () => setApiKeyCommand(apiKeys, log)),
    vscode.commands.registerCommand('unifiedInference.clearApiKey', () => clearApiKeyCommand(apiKeys, log)),
    vscode.commands.registerCommand('unifiedInference.showLog', () => log.show()),
    vscode.commands.registerCommand('unifiedInference.openSettings', () => openSettings()),
  );
  log.info(`Unified Inference ${String(context.extension.packageJSON.version)} activated.`);
  return context.extensionMode === vscode.ExtensionMode.Test ? createTestApi(context, API_KEY_SECRET_ID, () => apiKeys.source()) : undefined;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
