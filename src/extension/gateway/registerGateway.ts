import * as vscode from 'vscode';
import type { ApiKeyStore } from '../apiKey/apiKeyStore';
import type { Log } from '../log';
import { GatewayConnection } from './gatewayConnection';
import { setBaseUrlCommand } from './setBaseUrl';
import { testConnectionCommand } from './testConnection';

/** The one connection to the gateway, and Set Gateway Address and Test Connection. */
export function registerGateway(
  context: vscode.ExtensionContext,
  { apiKeys, log }: { readonly apiKeys: ApiKeyStore; readonly log: Log },
): GatewayConnection {
  const connection = new GatewayConnection(apiKeys, log);
  context.subscriptions.push(
    connection,
    vscode.commands.registerCommand('unifiedInference.setBaseUrl', () => setBaseUrlCommand()),
    vscode.commands.registerCommand('unifiedInference.testConnection', () => testConnectionCommand(connection, log)),
  );
  return connection;
}
