// "Change Model Category...": the user corrects where a model is offered. Written to the user's
// settings (`models.categoryOverrides`), so the choice follows them across workspaces and a
// repository they open cannot move their models.
import * as vscode from 'vscode';
import { classifyModel } from '../../core/models/modelCategory';
import type { Model } from '../../core/types/account';
import { MODEL_CATEGORIES, SETTINGS_SECTION, type ModelCategoryName } from '../../shared/settings';
import { categoryOf, providerOf } from '../../core/models/catalogTree';
import { categoryLabel } from './categoryLabel';
import { categoryOverrides } from '../../core/models/categoryOverrides';
import type { ModelCatalog } from './modelCatalog';

const KEY = 'models.categoryOverrides';

interface CategoryItem extends vscode.QuickPickItem {
  /** undefined: remove the override (back to the catalog's category). */
  readonly category: ModelCategoryName | undefined;
}

/** Sets (or with undefined, removes) the user's category for one model id, in the user settings. */
async function writeCategoryOverride(modelId: string, category: ModelCategoryName | undefined): Promise<void> {
  const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const current = configuration.inspect<Record<string, unknown>>(KEY)?.globalValue;
  const next: Record<string, unknown> = {};
  // Keep the user's other entries as they wrote them (even ones this version does not know).
  if (current && typeof current === 'object' && !Array.isArray(current)) Object.assign(next, current);
  if (category) next[modelId] = category;
  else delete next[modelId];
  await configuration.update(KEY, Object.keys(next).length ? next : undefined, vscode.ConfigurationTarget.Global);
}

async function pickModel(catalog: ModelCatalog): Promise<Model | undefined> {
  const snapshot = catalog.snapshot ?? (await catalog.refresh());
  if (!snapshot || snapshot.models.length === 0) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Unified Inference: no model catalog yet. Connect to the gateway first.'),
    );
    return undefined;
  }
  const choice = await vscode.window.showQuickPick(
    [...snapshot.models]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((model) => ({
        label: model.id,
        description: `${categoryLabel(categoryOf(model))} · ${providerOf(model)}`,
        model,
      })),
    {
      title: vscode.l10n.t('Change Model Category'),
      placeHolder: vscode.l10n.t('Which model?'),
      matchOnDescription: true,
    },
  );
  return choice?.model;
}

/**
 * Asks for the category (unless given: tests and keybindings pass it) and stores it. Choosing the
 * catalog's own category removes the override, so a later catalog fix is not shadowed by a stale one.
 */
export async function changeModelCategory(
  catalog: ModelCatalog,
  model: Model | undefined,
  given?: ModelCategoryName | 'auto',
): Promise<void> {
  const target = model ?? (await pickModel(catalog));
  if (!target) return;
  const detected = classifyModel(target);
  const current = categoryOf(target);
  let chosen: ModelCategoryName | 'auto' | undefined = given;
  if (chosen === undefined) {
    const items: CategoryItem[] = MODEL_CATEGORIES.map((category) => ({
      label: `${category === current ? '$(check) ' : ''}${categoryLabel(category)}`,
      description: category === detected ? vscode.l10n.t('from the catalog') : undefined,
      category,
    }));
    if (categoryOverrides.of(target.id))
      items.push(
        { label: '', kind: vscode.QuickPickItemKind.Separator, category: undefined },
        {
          label: `$(discard) ${vscode.l10n.t("Use the catalog's category")}`,
          description: categoryLabel(detected),
          category: undefined,
        },
      );
    const choice = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Category of {0}', target.id),
      placeHolder: vscode.l10n.t(
        "Chat models are offered in VS Code's chat and the chat panel; the others in their own commands",
      ),
    });
    if (!choice) return;
    chosen = choice.category ?? 'auto';
  }
  if (chosen !== 'auto' && !MODEL_CATEGORIES.includes(chosen)) return;
  await writeCategoryOverride(target.id, chosen === 'auto' || chosen === detected ? undefined : chosen);
}
