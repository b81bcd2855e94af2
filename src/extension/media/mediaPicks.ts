import * as vscode from 'vscode';
import type { ModelCategoryName } from '../../shared/settings';
import { catalogModels, modelFor } from '../models/catalogModels';
import { categoryLabel } from '../models/categoryLabel';
import { categoryOf } from '../../core/models/catalogTree';
import type { ModelCatalog } from '../models/modelCatalog';

interface ModelItem extends vscode.QuickPickItem { readonly id: string }

/**
 * The model for a media command: the catalog's models of that category, the default one first
 * (a configured default the catalog does not list is still offered: the gateway may know it).
 */
export async function pickModel(catalog: ModelCatalog, category: ModelCategoryName, title: string): Promise<string | undefined> {
  const preferred = await modelFor(catalog, category);
  const listed = ((await catalogModels(catalog)) ?? []).filter((model) => categoryOf(model) === category).map((model) => model.id);
  const ids = [...new Set([...(preferred ? [preferred.id] : []), ...listed])];
  if (ids.length === 0) {
    void vscode.window.showErrorMessage(vscode.l10n.t('No {0} model is available: the catalog lists none (or could not be read) and no default is set in unifiedInference.defaultModels.{1}.', categoryLabel(category).toLowerCase(), category));
    return undefined;
  }
  if (ids.length === 1) return ids[0];
  const items: ModelItem[] = ids.map((id) => ({ id, label: id, ...(id === preferred?.id ? { description: vscode.l10n.t('default') } : {}) }));
  return (await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Model'), ignoreFocusOut: true }))?.id;
}

/** A quick pick of plain values; the first is the default. */
export async function pickValue<T extends string>(values: readonly T[], title: string, describe: (value: T) => string | undefined = () => undefined): Promise<T | undefined> {
  const items = values.map((value) => ({ label: value, value, ...(describe(value) ? { description: describe(value) } : {}) }));
  return (await vscode.window.showQuickPick(items, { title, ignoreFocusOut: true }))?.value;
}
