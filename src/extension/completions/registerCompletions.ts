// Inline completions, wired: the controller, the provider for files the user edits, the status
// item, the commands and the pause notice. Returns what activate() keeps.
import * as vscode from 'vscode';
import type { CreditsMonitor } from '../account/creditsMonitor';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import type { ModelCatalog } from '../models/modelCatalog';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { CompletionContext } from './completionContext';
import {
  pickCompletionModel,
  showCompletionsMenu,
  snoozeCompletions,
  toggleCompletions,
  toggleLanguage,
} from './completionMenu';
import { ACCEPTED_COMMAND, COMPLETION_SELECTOR, CompletionProvider } from './completionProvider';
import { CompletionsController } from './completionsController';
import { COMPLETIONS_MENU_COMMAND, CompletionStatusItem } from './completionStatusItem';
import { RecentEdits } from './recentEdits';

export interface CompletionDeps {
  readonly connection: GatewayConnection;
  readonly catalog: ModelCatalog;
  readonly credits: CreditsMonitor;
  readonly workspaceFiles: WorkspaceFilesService;
  readonly log: Log;
}

export interface Completions {
  readonly disposables: vscode.Disposable[];
  readonly controller: CompletionsController;
  readonly provider: CompletionProvider;
  readonly statusItem: CompletionStatusItem;
}

export function registerCompletions(deps: CompletionDeps): Completions {
  const recent = new RecentEdits();
  const controller = new CompletionsController(
    deps.connection,
    deps.catalog,
    deps.credits,
    new CompletionContext(deps.workspaceFiles, recent),
    deps.log,
  );
  const provider = new CompletionProvider(controller);
  const statusItem = new CompletionStatusItem(controller);
  const disposables: vscode.Disposable[] = [
    recent,
    controller,
    statusItem,
    vscode.languages.registerInlineCompletionItemProvider(COMPLETION_SELECTOR, provider),
    vscode.commands.registerCommand(COMPLETIONS_MENU_COMMAND, () => showCompletionsMenu(controller, deps.catalog)),
    vscode.commands.registerCommand('unifiedInference.completions.toggle', (on?: unknown) =>
      toggleCompletions(deps.catalog, typeof on === 'boolean' ? on : undefined),
    ),
    vscode.commands.registerCommand(
      'unifiedInference.completions.toggleLanguage',
      (languageId?: unknown, on?: unknown) =>
        toggleLanguage(
          typeof languageId === 'string' ? languageId : undefined,
          typeof on === 'boolean' ? on : undefined,
        ),
    ),
    vscode.commands.registerCommand('unifiedInference.completions.snooze', (minutes?: unknown) =>
      snoozeCompletions(controller, typeof minutes === 'number' ? minutes : undefined),
    ),
    vscode.commands.registerCommand('unifiedInference.completions.pickModel', (modelId?: unknown) =>
      pickCompletionModel(deps.catalog, typeof modelId === 'string' ? modelId : undefined),
    ),
    vscode.commands.registerCommand(ACCEPTED_COMMAND, (chars?: unknown) =>
      controller.noteAccepted(typeof chars === 'number' && chars > 0 ? chars : 0),
    ),
    controller.onDidPause((pause) => {
      // One notice per pause, only when the user must act (a refused key); the rest say it in the status item.
      if (pause.reason !== 'badKey' || pause.failures !== 1) return;
      const setKey = vscode.l10n.t('Set API Key');
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t('Unified Inference: inline completions are paused: the gateway refused the API key.'),
          setKey,
        )
        .then((choice) => {
          if (choice === setKey) void vscode.commands.executeCommand('unifiedInference.setApiKey');
        });
    }),
  ];
  return { disposables, controller, provider, statusItem };
}
