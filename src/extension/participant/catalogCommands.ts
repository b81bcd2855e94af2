import type * as vscode from 'vscode';
import type { CreditsState } from '../../core/account/creditsPresentation';
import type { CreditsMonitor } from '../account/creditsMonitor';
import { readSettings } from '../config';
import { modelsMarkdown } from '../../core/participant/modelsMarkdown';
import { actionButtons, requireClient } from './participantErrors';
import { quotaMarkdown } from '../../core/participant/quotaMarkdown';
import { result, type CommandContext } from './participantContext';
import { escapeMarkdown } from '../../shared/markdownText';

/** /models: the catalog grouped by category, the defaults marked. */
export async function listModels(ctx: CommandContext): Promise<vscode.ChatResult> {
  if (!requireClient(ctx)) return result('models', 'setup');
  const { catalog } = ctx.deps;
  ctx.stream.progress('Reading the model catalog...');
  const snapshot = catalog.snapshot ?? (await catalog.refresh());
  if (!snapshot) {
    const status = catalog.status;
    ctx.stream.markdown(
      `The model catalog could not be read${status.kind === 'error' ? `: ${escapeMarkdown(status.message)}` : '.'}`,
    );
    ctx.stream.button({ command: 'unifiedInference.models.refresh', title: 'Refresh Models' });
    return result('models', 'error');
  }
  ctx.stream.markdown(modelsMarkdown(snapshot.models, readSettings().defaultModels, snapshot.fetchedAt));
  ctx.stream.button({ command: 'unifiedInference.models.focus', title: 'Open the Models View' });
  return result('models', 'done');
}

/** /quota: a fresh balance reading, the reset time and what this session spent. */
export async function showQuota(ctx: CommandContext): Promise<vscode.ChatResult> {
  const { credits } = ctx.deps;
  ctx.stream.progress('Reading the balance...');
  const state = await settled(credits, await credits.refresh(), ctx.token);
  const answer = quotaMarkdown(state, credits.spend(), Date.now());
  ctx.stream.markdown(answer.markdown);
  actionButtons(ctx.stream, answer.actions);
  const outcome =
    state.kind === 'ok'
      ? 'done'
      : state.kind === 'noBaseUrl' || state.kind === 'noKey' || state.kind === 'badKey'
        ? 'setup'
        : state.kind === 'outOfCredits'
          ? 'outOfCredits'
          : 'error';
  return result('quota', outcome);
}

const SETTLE_TIMEOUT_MS = 20_000;

/**
 * A refresh superseded by another one (the monitor refreshes on its own too) answers `loading`:
 * wait for the reading in flight rather than show a stale number.
 */
function settled(credits: CreditsMonitor, state: CreditsState, token: vscode.CancellationToken): Promise<CreditsState> {
  if (state.kind !== 'loading') return Promise.resolve(state);
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      listener.dispose();
      cancel.dispose();
      resolve(credits.state);
    };
    const timer = setTimeout(done, SETTLE_TIMEOUT_MS);
    const listener = credits.onDidChange((next) => next.kind !== 'loading' && done());
    const cancel = token.onCancellationRequested(done);
  });
}
