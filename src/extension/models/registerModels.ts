import * as vscode from 'vscode';
import type { Model } from '../../core/types/account';
import { MODEL_CATEGORIES, type ModelCategoryName } from '../../shared/settings';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import { CATEGORY_LABELS, categoryOf } from '../../core/models/catalogTree';
import { changeModelCategory } from './changeCategory';
import { ModelCatalog } from './modelCatalog';
import { ModelsView } from './modelsView';
import { pickDefaultModel, setDefaultModel } from './pickDefaultModel';

export interface ModelServices {
  readonly connection: GatewayConnection;
  readonly log: Log;
}

/** A node of the Models view, as its context-menu commands receive it. */
type ModelNode = { readonly model?: Model } | undefined;

/** The catalog (cached in globalState), the Models view and the commands on models and default models. */
export function registerModels(
  context: vscode.ExtensionContext,
  { connection, log }: ModelServices,
): { readonly catalog: ModelCatalog; readonly models: ModelsView } {
  const catalog = new ModelCatalog(connection, context.globalState, log);
  const models = new ModelsView(catalog);
  context.subscriptions.push(
    catalog,
    models,
    vscode.commands.registerCommand('unifiedInference.models.refresh', () => catalog.refresh()),
    vscode.commands.registerCommand('unifiedInference.models.filter', () => models.promptFilter()),
    vscode.commands.registerCommand('unifiedInference.models.clearFilter', () => models.setFilter('')),
    vscode.commands.registerCommand(
      'unifiedInference.models.copyId',
      (node?: ModelNode) => node?.model && vscode.env.clipboard.writeText(node.model.id),
    ),
    vscode.commands.registerCommand('unifiedInference.models.setAsDefault', (node?: ModelNode) =>
      setAsDefault(node?.model),
    ),
    vscode.commands.registerCommand(
      'unifiedInference.models.changeCategory',
      (node?: ModelNode, category?: ModelCategoryName | 'auto') => changeModelCategory(catalog, node?.model, category),
    ),
    ...MODEL_CATEGORIES.map((category) =>
      vscode.commands.registerCommand(`unifiedInference.pickDefault${CATEGORY_LABELS[category]}Model`, () =>
        pickDefaultModel(catalog, category),
      ),
    ),
  );
  return { catalog, models };
}

/** "Set as Default": the model's own category (the user's override if they chose one). */
async function setAsDefault(model: Model | undefined): Promise<void> {
  if (!model) return;
  await setDefaultModel(categoryOf(model), model.id);
}
