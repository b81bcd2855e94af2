import * as vscode from 'vscode';
import { formatCredits, formatResetIn } from '../../core/account/creditsFormat';
import type { CreditsReading } from '../../core/account/creditsState';
import { readSettings } from '../config';

/**
 * The two credit notices, each told once: the balance fell under the low threshold (again after it
 * rose above it), and a request was refused for lack of credits (again after credits returned;
 * never when the feature that made the request showed the failure with its fix: that was the once).
 */
export class CreditsNotices {
  private lowArmed = true;
  private outOfCreditsArmed = true;

  constructor(private readonly now: () => number) {}

  /** Another account: its notices are its own. */
  rearm(): void {
    this.lowArmed = true;
    this.outOfCreditsArmed = true;
  }

  /** A balance read (and not held at "out of credits"): re-arms and tells a low balance. */
  onBalance(reading: CreditsReading): void {
    if (reading.credits > 0) this.outOfCreditsArmed = true;
    const { warningThreshold } = readSettings().credits;
    if (reading.credits >= warningThreshold) {
      this.lowArmed = true;
      return;
    }
    if (!this.lowArmed) return;
    this.lowArmed = false;
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          'Unified Inference: credits are low: {0} left (warning under {1}).',
          formatCredits(reading.credits),
          formatCredits(warningThreshold),
        ) + this.resetText(reading),
        vscode.l10n.t('Open Settings'),
      )
      .then(
        (choice) =>
          choice && vscode.commands.executeCommand('workbench.action.openSettings', 'unifiedInference.credits'),
      );
  }

  /** A request was refused for lack of credits: whether the out-of-credits notice is to show now. */
  takeOutOfCredits(shown: boolean): boolean {
    if (!this.outOfCreditsArmed) return false;
    this.outOfCreditsArmed = false;
    return !shown;
  }

  /** `reading`: what says when credits return, if known. */
  async showOutOfCredits(reading: CreditsReading | undefined, refresh: () => void): Promise<void> {
    const reset = reading ? this.resetText(reading) : '';
    const refreshCredits = vscode.l10n.t('Refresh Credits');
    const showLog = vscode.l10n.t('Show Log');
    const choice = await vscode.window.showErrorMessage(
      vscode.l10n.t('Unified Inference: out of credits: the gateway refused the request.') + reset,
      refreshCredits,
      showLog,
    );
    if (choice === refreshCredits) refresh();
    else if (choice === showLog) void vscode.commands.executeCommand('unifiedInference.showLog');
  }

  private resetText(reading: CreditsReading): string {
    const reset = new Date(reading.reset);
    return Number.isNaN(reset.getTime())
      ? ''
      : ` ${vscode.l10n.t('New credits when the window resets ({0}, {1}).', formatResetIn(reset, new Date(this.now())), reset.toLocaleString())}`;
  }
}
