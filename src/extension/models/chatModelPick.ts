// Picking one of the catalog's chat models, as VS Code's own model picker does: a searchable list
// (type to filter by name, provider, price or context), each with its price and context length.
// Models of other kinds (images, speech, embeddings) are not offered: a chat cannot use them.
import * as vscode from 'vscode';
import { formatCredits } from '../../core/account/creditsFormat';
import { catalogContextLength } from '../../core/context/contextLength';
import { categoryOf, providerOf } from '../../core/models/catalogTree';
import { modelPricing } from '../../core/models/modelPricing';
import type { Model } from '../../core/types/account';
import { catalogModels } from './catalogModels';
import type { ModelCatalog } from './modelCatalog';

interface ChatModelItem extends vscode.QuickPickItem {
  readonly modelId?: string;
}

/** "$0.15 / $0.60 per million tokens in / out", or that the catalog lists no price. */
function priceText(model: Model): string {
  const pricing = modelPricing(model);
  if (!pricing) return vscode.l10n.t('price not listed');
  return vscode.l10n.t(
    '{0} / {1} per million tokens in / out',
    formatCredits(pricing.input * 1e6),
    formatCredits(pricing.output * 1e6),
  );
}

function contextText(model: Model): string | undefined {
  const context = catalogContextLength(model);
  return context ? vscode.l10n.t('{0} tokens of context', context.toLocaleString()) : undefined;
}

function item(model: Model, current: string | undefined): ChatModelItem {
  return {
    label: `${model.id === current ? '$(check) ' : ''}${model.id}`,
    description: priceText(model),
    detail: contextText(model),
    modelId: model.id,
  };
}

/** The catalog's chat models, or undefined (the user was told) when there are none. */
async function chatModels(catalog: ModelCatalog): Promise<Model[] | undefined> {
  const chat = ((await catalogModels(catalog)) ?? []).filter((model) => categoryOf(model) === 'chat');
  if (chat.length > 0) return chat;
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Unified Inference: no chat model in the catalog yet. Connect to the gateway first.'),
    vscode.l10n.t('Test Connection'),
  );
  if (choice) await vscode.commands.executeCommand('unifiedInference.testConnection');
  return undefined;
}

/** The completion model: cheapest first, since every keystroke may cost a request. */
export async function pickCheapChatModel(
  catalog: ModelCatalog,
  current: string | undefined,
  options: { title: string; placeHolder: string },
): Promise<string | undefined> {
  const models = await chatModels(catalog);
  if (!models) return undefined;
  const price = (model: Model): number => modelPricing(model)?.input ?? Infinity;
  const items = models
    .sort((a, b) => price(a) - price(b) || a.id.localeCompare(b.id))
    .map((model) => item(model, current));
  return (await vscode.window.showQuickPick(items, { ...options, matchOnDescription: true, matchOnDetail: true }))
    ?.modelId;
}

/** The chat's model: grouped by provider, as VS Code's picker groups by vendor. */
export async function pickChatModel(catalog: ModelCatalog, current: string | undefined): Promise<string | undefined> {
  const models = await chatModels(catalog);
  if (!models) return undefined;
  const items: ChatModelItem[] = [];
  let provider: string | undefined;
  for (const model of models.sort((a, b) => providerOf(a).localeCompare(providerOf(b)) || a.id.localeCompare(b.id))) {
    if (providerOf(model) !== provider) {
      provider = providerOf(model);
      items.push({ label: provider, kind: vscode.QuickPickItemKind.Separator });
    }
    items.push(item(model, current));
  }
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Chat Model'),
    placeHolder: vscode.l10n.t('Type to filter by name, provider, price or context'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return choice?.modelId;
}
