// The commands of inline completions and the status item's menu. Each command takes its choice as
// an argument too (keybindings, tests); without one it asks.
import * as vscode from 'vscode';
import { formatCredits } from '../../core/account/creditsFormat';
import { modelPricing } from '../../core/models/modelPricing';
import { catalogContextLength } from '../../core/context/contextLength';
import type { Model } from '../../core/types/account';
import { completionsEnabledFor } from '../../core/completions/languageEnablement';
import { SETTINGS_SECTION } from '../../shared/settings';
import { readSettings } from '../config';
import { catalogModels } from '../models/catalogModels';
import { categoryOf } from '../../core/models/catalogTree';
import type { ModelCatalog } from '../models/modelCatalog';
import type { CompletionsController } from './completionsController';

const SNOOZE_MINUTES = [5, 15, 60] as const;

async function update(key: string, value: unknown): Promise<void> {
  await vscode.workspace
    .getConfiguration(SETTINGS_SECTION)
    .update(`completions.${key}`, value, vscode.ConfigurationTarget.Global);
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

/** Picks the completion model from the catalog's chat models, cheapest first, each with its price. */
export async function pickCompletionModel(catalog: ModelCatalog, modelId?: string): Promise<string | undefined> {
  if (typeof modelId === 'string' && modelId.trim()) {
    await update('model', modelId.trim());
    return modelId.trim();
  }
  const models = await catalogModels(catalog);
  const chat = (models ?? []).filter((model) => categoryOf(model) === 'chat');
  if (chat.length === 0) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Unified Inference: no chat model in the catalog yet. Connect to the gateway first.'),
    );
    return undefined;
  }
  const price = (model: Model): number => modelPricing(model)?.input ?? Infinity;
  const current = readSettings().completions.model;
  const items = [...chat]
    .sort((a, b) => price(a) - price(b) || a.id.localeCompare(b.id))
    .map((model) => {
      const context = catalogContextLength(model);
      return {
        label: `${model.id === current ? '$(check) ' : ''}${model.id}`,
        description: priceText(model),
        detail: context ? vscode.l10n.t('{0} tokens of context', context.toLocaleString()) : undefined,
        modelId: model.id,
      };
    });
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Inline Completions Model'),
    placeHolder: vscode.l10n.t(
      'Every completion is a request that costs credits: a small, fast, cheap model suits best.',
    ),
    matchOnDescription: true,
  });
  if (!choice) return undefined;
  await update('model', choice.modelId);
  return choice.modelId;
}

/** Turns completions on (asking for a model first when none is picked) or off; `on` forces one. */
export async function toggleCompletions(catalog: ModelCatalog, on?: boolean): Promise<boolean> {
  const settings = readSettings().completions;
  const turnOn = typeof on === 'boolean' ? on : !settings.enabled;
  if (turnOn && !settings.model && !(await pickCompletionModel(catalog))) return false;
  await update('enabled', turnOn);
  if (turnOn && on === undefined)
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Inline completions are on. Each one is a request that costs credits; what they spent is in the credits tooltip.',
      ),
    );
  return turnOn;
}

/** Turns completions on or off for one language (the active editor's when none is given). */
export async function toggleLanguage(languageId?: string, on?: boolean): Promise<boolean | undefined> {
  const language =
    typeof languageId === 'string' && languageId ? languageId : vscode.window.activeTextEditor?.document.languageId;
  if (!language) return undefined;
  const languages = readSettings().completions.languages;
  const next = typeof on === 'boolean' ? on : !completionsEnabledFor(languages, language);
  await update('languages', { ...languages, [language]: next });
  return next;
}

/** Snoozes for `minutes` (asks when not given); 0 resumes. */
export async function snoozeCompletions(controller: CompletionsController, minutes?: number): Promise<void> {
  let chosen = typeof minutes === 'number' && Number.isFinite(minutes) && minutes >= 0 ? minutes : undefined;
  if (chosen === undefined) {
    const items = SNOOZE_MINUTES.map((value) => ({ label: vscode.l10n.t('{0} minutes', value), value }));
    chosen = (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Snooze Inline Completions') }))?.value;
  }
  if (chosen === undefined) return;
  if (chosen === 0) controller.unsnooze();
  else controller.snooze(Math.min(chosen, 24 * 60));
}

interface MenuItem extends vscode.QuickPickItem {
  readonly run?: () => PromiseLike<unknown>;
}

/** The status item's click: every action of completions, and what they cost. */
export async function showCompletionsMenu(controller: CompletionsController, catalog: ModelCatalog): Promise<void> {
  const settings = readSettings().completions;
  const state = controller.state;
  const language = vscode.window.activeTextEditor?.document.languageId;
  const items: MenuItem[] = [
    settings.enabled
      ? {
          label: `$(circle-slash) ${vscode.l10n.t('Turn Off Inline Completions')}`,
          run: () => toggleCompletions(catalog, false),
        }
      : {
          label: `$(sparkle) ${vscode.l10n.t('Turn On Inline Completions')}`,
          description: vscode.l10n.t('costs credits'),
          run: () => toggleCompletions(catalog, true),
        },
  ];
  if (language) {
    const on = completionsEnabledFor(settings.languages, language);
    items.push({
      label: on ? vscode.l10n.t('Turn Off for {0}', language) : vscode.l10n.t('Turn On for {0}', language),
      run: () => toggleLanguage(language, !on),
    });
  }
  if (state.kind === 'snoozed')
    items.push({ label: `$(play) ${vscode.l10n.t('Resume Now')}`, run: () => snoozeCompletions(controller, 0) });
  else if (settings.enabled)
    for (const minutes of SNOOZE_MINUTES)
      items.push({
        label: `$(clock) ${vscode.l10n.t('Snooze for {0} Minutes', minutes)}`,
        run: () => snoozeCompletions(controller, minutes),
      });
  if (state.kind === 'paused')
    items.push({
      label: `$(debug-continue) ${vscode.l10n.t('Try Again Now')}`,
      run: async () => controller.scheduler.resume(),
    });
  items.push(
    {
      label: `$(list-selection) ${vscode.l10n.t('Pick Model...')}`,
      description: settings.model || vscode.l10n.t('none picked'),
      run: () => pickCompletionModel(catalog),
    },
    {
      label: `$(settings-gear) ${vscode.l10n.t('Open Settings')}`,
      run: () => vscode.commands.executeCommand('workbench.action.openSettings', `${SETTINGS_SECTION}.completions`),
    },
  );
  const figures = controller.figures();
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Inline Completions'),
    placeHolder: vscode.l10n.t(
      'Completions cost credits: {0} requests this session, {1}.',
      figures.requests,
      formatCredits(figures.spentUsd),
    ),
  });
  await choice?.run?.();
}
