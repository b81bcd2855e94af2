// The two questions inline edit asks before it acts: sending a sensitive file to the model, and
// writing to a file that can run code or instruct the model (once per edit, as Apply does).
import * as vscode from 'vscode';
import { guardedNotice } from '../apply/applyReviews';
import type { InlineEditSession } from './inlineEditSession';

export class InlineEditConfirmations {
  /** Sessions of guarded files whose writing the user confirmed. */
  private readonly confirmed = new Set<string>();

  /** A file that can run code or instruct the model: written only after a deliberate yes (once per edit). */
  async guarded(session: InlineEditSession): Promise<boolean> {
    if (session.init.guarded.length === 0 || this.confirmed.has(session.id)) return true;
    const write = vscode.l10n.t('Write the Change');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Write the change to {0}?', session.init.display),
      { modal: true, detail: guardedNotice(session.init.guarded) },
      write,
    );
    if (choice !== write) return false;
    this.confirmed.add(session.id);
    return true;
  }

  async sensitiveSend(display: string, sensitive: readonly string[], model: string): Promise<boolean> {
    const send = vscode.l10n.t('Send and Edit');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} is a sensitive file ({1}).', display, sensitive.join(', ')),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Inline edit sends the selection and the code around it to {0} through the gateway. Nothing is written before you accept the change.',
          model,
        ),
      },
      send,
    );
    return choice === send;
  }

  /** The session ended: its yes ends with it. */
  forget(session: InlineEditSession): void {
    this.confirmed.delete(session.id);
  }
}
