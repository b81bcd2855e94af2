// The commands of inline completions and the status item's menu. Each command takes its choice as
// an argument too (keybindings, tests); without one it asks.
import * as vscode from 'vscode';
import { formatCredits } from '../../core/account/creditsFormat';
import { completionsEnabledFor } from '../../core/completions/languageEnablement';
import { SETTINGS_SECTION } from '../../shared/settings';
import { readSettings } from '../config';
import { pickCheapChatModel } from '../models/chatModelPick';
import type { ModelCatalog } from '../models/modelCatalog';
import type { CompletionsController } from './completionsController';

const SNOOZE_MINUTES = [5, 15, 60] as const;

async function update(key: string, value: unknown): Promise<void> {
  await vscode.workspace
    .getConfiguration(SETTINGS_SECTION)
    .update(`completions.${key}`, value, vscode.ConfigurationTarget.Global);
}

/** Picks the completion model from the catalog's chat models, cheapest first, each with its price. */
export async function pickCompletionModel(catalog: ModelCatalog, modelId?: string): Promise<string | undefined> {
  if (typeof modelId === 'string' && modelId.trim()) {
    await update('model', modelId.trim());
    return modelId.trim();
  }
  const chosen = await pickCheapChatModel(catalog, readSettings().completions.model, {
    title: vscode.l10n.t('Inline Completions Model'),
    placeHolder: vscode.l10n.t(
      'Every completion is a request that costs credits: a small, fast, cheap model suits best.',
    ),
  });
  if (chosen) await update('model', chosen);
  return chosen;
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
