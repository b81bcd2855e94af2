// The status bar's completions toggle: on, off, snoozed, paused (with why, and when it tries again)
// or waiting for a model; a click opens the menu. One visible state for every failure: no dialog
// per failed keystroke.
import * as vscode from 'vscode';
import { formatCredits } from '../../core/account/creditsFormat';
import type { PauseReason } from '../../core/completions/completionBackoff';
import { Disposable } from '../lifecycle';
import type { CompletionsController, CompletionsState } from './completionsController';

export const COMPLETIONS_MENU_COMMAND = 'unifiedInference.completions.showMenu';

export interface CompletionStatusView {
  readonly text: string;
  readonly tooltip: string;
  readonly label: string;
  readonly warning: boolean;
}

function pauseWords(reason: PauseReason): string {
  switch (reason) {
    case 'offline':
      return vscode.l10n.t('the gateway cannot be reached');
    case 'badKey':
      return vscode.l10n.t('the gateway refused the API key');
    case 'rateLimited':
      return vscode.l10n.t('the gateway is limiting the request rate');
    case 'noCredits':
      return vscode.l10n.t('the credits are used up');
    case 'serverError':
      return vscode.l10n.t('the gateway or the model failed');
  }
}

function completionStatusView(state: CompletionsState, spentUsd: number, now: number): CompletionStatusView {
  const cost = vscode.l10n.t('Each completion costs credits; this session: {0}.', formatCredits(spentUsd));
  switch (state.kind) {
    case 'off':
      return {
        text: '$(circle-slash)',
        label: vscode.l10n.t('Inline completions: off'),
        tooltip: vscode.l10n.t('Inline completions are off. Click to turn them on (they cost credits).'),
        warning: false,
      };
    case 'noModel':
      return {
        text: '$(circle-slash)',
        label: vscode.l10n.t('Inline completions: no model picked'),
        tooltip: vscode.l10n.t('Inline completions are on but no model is picked. Click to pick one.'),
        warning: true,
      };
    case 'snoozed': {
      const minutes = Math.max(1, Math.ceil((state.until - now) / 60_000));
      return {
        text: '$(clock)',
        label: vscode.l10n.t('Inline completions: snoozed for {0} min', minutes),
        tooltip: vscode.l10n.t('Inline completions are snoozed for {0} more minutes. Click to resume.', minutes),
        warning: false,
      };
    }
    case 'paused': {
      const seconds = Math.max(0, Math.ceil((state.pause.until - now) / 1000));
      const when =
        seconds > 0
          ? vscode.l10n.t('They try again in {0} s, or at once when the key changes.', seconds)
          : vscode.l10n.t('They try again with your next keystroke.');
      return {
        text: '$(debug-pause)',
        label: vscode.l10n.t('Inline completions: paused, {0}', pauseWords(state.pause.reason)),
        tooltip: `${vscode.l10n.t('Inline completions are paused: {0}.', pauseWords(state.pause.reason))} ${when}`,
        warning: true,
      };
    }
    case 'on':
      return {
        text: '$(sparkle)',
        label: vscode.l10n.t('Inline completions: on ({0})', state.model),
        tooltip: `${vscode.l10n.t('Inline completions are on with {0}.', state.model)} ${cost}`,
        warning: false,
      };
  }
}

export class CompletionStatusItem extends Disposable {
  private readonly item = this._register(
    vscode.window.createStatusBarItem('unifiedInference.completions', vscode.StatusBarAlignment.Right, 101),
  );
  private shown: CompletionStatusView | undefined;

  constructor(private readonly controller: CompletionsController) {
    super();
    this.item.name = vscode.l10n.t('Unified Inference Completions');
    this.item.command = COMPLETIONS_MENU_COMMAND;
    this._register(controller.onDidChange(() => this.render()));
    this.render();
    this.item.show();
  }

  /** What is shown now (for tests). */
  get view(): CompletionStatusView | undefined {
    return this.shown;
  }

  render(): void {
    const view = completionStatusView(this.controller.state, this.controller.figures().spentUsd, Date.now());
    this.shown = view;
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: view.label, role: 'button' };
  }
}
