import * as vscode from 'vscode';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import type { ModelCatalog } from '../models/modelCatalog';
import { GatewayLanguageModels, manageLanguageModels } from './languageModelProvider';

export interface LanguageModelServices {
  readonly connection: GatewayConnection;
  readonly catalog: ModelCatalog;
  readonly failures: Failures;
  readonly log: Log;
}

/** The gateway's chat models offered to VS Code (vscode.lm), and Manage Language Models. */
export function registerLanguageModels(
  context: vscode.ExtensionContext,
  { connection, catalog, failures, log }: LanguageModelServices,
): GatewayLanguageModels {
  const languageModels = new GatewayLanguageModels(connection, catalog, log, failures);
  context.subscriptions.push(
    languageModels,
    vscode.commands.registerCommand('unifiedInference.manageLanguageModels', () => manageLanguageModels()),
  );
  return languageModels;
}
