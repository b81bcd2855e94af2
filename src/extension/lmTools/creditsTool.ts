// #credits: the balance and when it resets, read now, so an agent can check before an expensive
// step. Free (the quota read is not charged), so no confirmation.
import type * as vscode from 'vscode';
import type { LmToolDeps } from './lmToolDeps';
import { creditsText } from './toolTexts';
import { textResult } from './toolSupport';

export function creditsTool(deps: LmToolDeps): vscode.LanguageModelTool<Record<string, never>> {
  return {
    prepareInvocation: () => ({ invocationMessage: 'Reading the Unified Inference credit balance' }),
    async invoke() {
      const state = await deps.credits.refresh();
      return textResult(deps.connection.redact(creditsText(state, deps.credits.spend(), Date.now())));
    },
  };
}
