// #credits: the balance and when it resets, read now, so an agent can check before an expensive
// step. Free (the quota read is not charged), so no confirmation.
import * as vscode from 'vscode';
import type { LmToolDeps } from './lmToolDeps';
import { creditsText } from '../../core/lmTools/toolTexts';
import { textResult } from './toolSupport';

/** Reads again when another read (the status bar's) superseded ours: a few times at most. */
const MAX_READS = 3;

export function creditsTool(deps: LmToolDeps): vscode.LanguageModelTool<Record<string, never>> {
  return {
    prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Reading the Unified Inference credit balance') }),
    async invoke(_options, token) {
      let state = await deps.credits.refresh();
      for (let read = 1; state.kind === 'loading' && read < MAX_READS && !token.isCancellationRequested; read++)
        state = await deps.credits.refresh();
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      return textResult(deps.connection.redact(creditsText(state, deps.credits.spend(), Date.now())));
    },
  };
}
