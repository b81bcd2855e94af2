import * as vscode from 'vscode';
import type { Model } from '../../core/types/account';
import { SETTINGS_SECTION, type ModelCategoryName } from '../../shared/settings';
import { readSettings } from '../config';
import { categoryOf, providerOf } from '../../core/models/catalogTree';
import { categoryLabel } from './categoryLabel';
import type { ModelCatalog } from './modelCatalog';

interface ModelItem extends vscode.QuickPickItem {
  readonly modelId?: string;
  readonly action?: 'showAll' | 'clear';
}

/** Stores `modelId` as the default for `category` in the user settings. */
export async function setDefaultModel(category: ModelCategoryName, modelId: string): Promise<void> {
  await vscode.workspace
    .getConfiguration(SETTINGS_SECTION)
    .update(`defaultModels.${category}`, modelId, vscode.ConfigurationTarget.Global);
}

function items(models: readonly Model[], current: string, category: ModelCategoryName, all: boolean): ModelItem[] {
  const list = all ? models : models.filter((model) => categoryOf(model) === category);
  const result: ModelItem[] = [...list]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((model) => ({
      label: `${model.id === current ? '$(check) ' : ''}${model.id}`,
      description: [
        providerOf(model),
        all ? categoryLabel(categoryOf(model)) : undefined,
        typeof model.provider_info?.status === 'string' ? model.provider_info.status : undefined,
      ]
        .filter(Boolean)
        .join(' · '),
      modelId: model.id,
    }));
  const extras: ModelItem[] = [{ label: '', kind: vscode.QuickPickItemKind.Separator }];
  if (!all)
    extras.push({
      label: `$(list-flat) ${vscode.l10n.t('Show all models...')}`,
      description: vscode.l10n.t('any model can serve any purpose'),
      action: 'showAll',
    });
  if (current)
    extras.push({ label: `$(clear-all) ${vscode.l10n.t('Clear the default')}`, description: current, action: 'clear' });
  return extras.length > 1 ? [...result, ...extras] : result;
}

/**
 * "Pick Default <Category> Model...": the catalog filtered to the category (all models on request),
 * from the cache at once, refreshed in the background when there is none.
 */
export async function pickDefaultModel(
  catalog: ModelCatalog,
  category: ModelCategoryName,
): Promise<string | undefined> {
  const snapshot = catalog.snapshot ?? (await catalog.refresh());
  if (!snapshot || snapshot.models.length === 0) {
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Unified Inference: no model catalog yet. Connect to the gateway first.'),
      vscode.l10n.t('Test Connection'),
    );
    if (choice) await vscode.commands.executeCommand('unifiedInference.testConnection');
    return undefined;
  }
  const current = readSettings().defaultModels[category];
  let all = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    const choice = await vscode.window.showQuickPick(items(snapshot.models, current, category, all), {
      title: vscode.l10n.t('Default {0} Model', categoryLabel(category)),
      placeHolder: all
        ? vscode.l10n.t('All models of the gateway')
        : vscode.l10n.t('{0} models of the gateway', categoryLabel(category)),
      matchOnDescription: true,
    });
    if (!choice) return undefined;
    if (choice.action === 'showAll') {
      all = true;
      continue;
    }
    if (choice.action === 'clear') {
      await setDefaultModel(category, '');
      return '';
    }
    if (choice.modelId) {
      await setDefaultModel(category, choice.modelId);
      return choice.modelId;
    }
  }
  return undefined;
}
