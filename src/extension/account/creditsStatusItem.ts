import * as vscode from 'vscode';
import { readSettings } from '../config';
import { Disposable } from '../lifecycle';
import type { CreditsMonitor } from './creditsMonitor';
import { presentCredits, type CreditsPresentation } from '../../core/account/creditsPresentation';

const BACKGROUND: Record<CreditsPresentation['severity'], vscode.ThemeColor | undefined> = {
  normal: undefined,
  warning: new vscode.ThemeColor('statusBarItem.warningBackground'),
  error: new vscode.ThemeColor('statusBarItem.errorBackground'),
};

/** The credit balance in the status bar; every state has a text that is never blank or misleading. */
export class CreditsStatusItem extends Disposable {
  private readonly item = this._register(
    vscode.window.createStatusBarItem('unifiedInference.credits', vscode.StatusBarAlignment.Right, 100),
  );
  private shown: CreditsPresentation | undefined;

  constructor(private readonly monitor: CreditsMonitor) {
    super();
    this.item.name = vscode.l10n.t('Unified Inference Credits');
    this._register(monitor.onDidChange(() => this.render()));
    // The relative times in the tooltip ("resets in 2 h 10 min") age: refresh them every minute.
    const ticker = setInterval(() => this.render(), 60_000);
    this._register({ dispose: () => clearInterval(ticker) });
    this.render();
    this.item.show();
  }

  /** What is shown now (for tests). */
  get presentation(): CreditsPresentation | undefined {
    return this.shown;
  }

  private render(): void {
    const presentation = presentCredits(
      this.monitor.state,
      readSettings().credits,
      this.monitor.spend(),
      Date.now(),
      this.monitor.setupProblem,
      vscode.l10n,
    );
    this.shown = presentation;
    this.item.text = presentation.text;
    const tooltip = new vscode.MarkdownString(presentation.tooltip);
    tooltip.supportThemeIcons = true;
    this.item.tooltip = tooltip;
    this.item.command = presentation.command;
    this.item.backgroundColor = BACKGROUND[presentation.severity];
    this.item.accessibilityInformation = { label: presentation.label, role: 'button' };
  }
}
