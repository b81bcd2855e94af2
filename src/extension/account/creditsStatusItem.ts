import * as vscode from 'vscode';
import { readSettings } from '../config';
import { Disposable } from '../lifecycle';
import type { CreditsMonitor } from './creditsMonitor';
import { presentCredits, type CreditsPresentation } from '../../core/account/creditsPresentation';
import {
  presentConnectionTest,
  type ConnectionTestOutcome,
  type ConnectionTestPresentation,
} from '../../core/account/connectionTestPresentation';
import { escapeMarkdown } from '../../shared/markdownText';

/** How long the item says what Test Connection found. */
const TEST_SHOWN_MS = 10_000;

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

  /** The last Test Connection: said in the item for a moment, then kept in its tooltip. */
  private test: { readonly shown: ConnectionTestPresentation; readonly until: number } | undefined;
  private testTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly monitor: CreditsMonitor,
    onDidTest: vscode.Event<ConnectionTestOutcome>,
  ) {
    super();
    this.item.name = vscode.l10n.t('Unified Inference Credits');
    this._register(monitor.onDidChange(() => this.render()));
    this._register(onDidTest((outcome) => this.showTest(outcome)));
    this._register({ dispose: () => clearTimeout(this.testTimer) });
    // The relative times in the tooltip ("resets in 2 h 10 min") age: refresh them every minute.
    const ticker = setInterval(() => this.render(), 60_000);
    this._register({ dispose: () => clearInterval(ticker) });
    this.render();
    this.item.show();
  }

  private showTest(outcome: ConnectionTestOutcome): void {
    this.test = { shown: presentConnectionTest(outcome, vscode.l10n), until: Date.now() + TEST_SHOWN_MS };
    clearTimeout(this.testTimer);
    this.testTimer = setTimeout(() => this.render(), TEST_SHOWN_MS);
    this.render();
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
    const test = this.test;
    const fresh = test !== undefined && Date.now() < test.until;
    this.shown = fresh ? { ...presentation, text: test.shown.text, label: test.shown.label } : presentation;
    this.item.text = this.shown.text;
    const tooltip = new vscode.MarkdownString(
      test ? `${presentation.tooltip}\n\n${escapeMarkdown(test.shown.tooltipLine)}` : presentation.tooltip,
    );
    tooltip.supportThemeIcons = true;
    this.item.tooltip = tooltip;
    this.item.command = presentation.command;
    this.item.backgroundColor = BACKGROUND[presentation.severity];
    this.item.accessibilityInformation = { label: this.shown.label, role: 'button' };
  }
}
