import * as vscode from 'vscode';
import { setContextKey, WALKTHROUGH_KEYS } from '../contextKeys';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import { showCreditsMenu } from './creditsMenu';
import { CreditsMonitor } from './creditsMonitor';
import { CreditsStatusItem } from './creditsStatusItem';

export interface AccountServices {
  readonly connection: GatewayConnection;
  readonly log: Log;
}

/** The credit balance: its monitor, the status bar item and their commands. */
export function registerAccount(
  context: vscode.ExtensionContext,
  { connection, log }: AccountServices,
): { readonly credits: CreditsMonitor; readonly creditsItem: CreditsStatusItem } {
  const credits = new CreditsMonitor(connection, log);
  const creditsItem = new CreditsStatusItem(credits, connection.onDidTest);
  context.subscriptions.push(
    credits,
    creditsItem,
    // A balance read is the gateway answering with this address and key: the walkthrough's
    // "Test the connection" is done, without the command.
    credits.onDidChange((state) => state.kind === 'ok' && setContextKey(WALKTHROUGH_KEYS.connectionTested, true)),
    vscode.commands.registerCommand('unifiedInference.refreshCredits', () => credits.refresh()),
    vscode.commands.registerCommand('unifiedInference.showCreditsMenu', () => showCreditsMenu()),
  );
  return { credits, creditsItem };
}
