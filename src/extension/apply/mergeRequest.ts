// A partial code block merged into its file by a chat model through the gateway: streamed, with a
// cancellable progress notification that counts the lines received. The answer is used only when
// it is complete (no cut stream, no answer cut by the token limit, not empty) and is the whole file
// (not prose, snippets or half a file: mergedFile.ts); any failure says what happened and what to
// do next, and nothing is written or proposed.
import * as vscode from 'vscode';
import { codeFromAnswer, fenceFor, mergePrompt } from '../../core/apply/mergeAnswer';
import { mergedFileFromAnswer, type AnswerShape } from '../../core/apply/mergedFile';
import { isAbortError } from '../../core/errors';
import { readSettings } from '../config';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { streamGatewayAnswer } from '../../core/answers/gatewayAnswer';
import { sentence, type ErrorAction } from '../../core/failures/describeError';
import { ACTION_COMMANDS } from '../../core/failures/errorWords';
import { actionLabel, type Failures } from '../errors/failures';
import type { Log } from '../log';
import { errorMessage } from '../../shared/errorMessage';
import { abortOnCancel } from '../lifecycle';

export interface MergeJob {
  readonly display: string;
  readonly current: string;
  readonly block: string;
  readonly model: string;
  readonly provider?: string;
}

/** Outcome: the merged file, or undefined when it failed or was cancelled (the user was told). */
export type MergeOutcome =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'cancelled' | 'failed'; readonly message?: string };

type ButtonAction = Exclude<ErrorAction, 'retry'>;

/**
 * Room for the whole file in the answer (/messages needs max_tokens): about one token per two
 * characters of file and block, at least a default answer's 4096 tokens, at most 64k.
 */
function answerTokens(job: MergeJob): number {
  return Math.min(65_536, Math.max(4096, Math.ceil((job.current.length + job.block.length) / 2)));
}

export async function mergeThroughGateway(
  connection: GatewayConnection,
  failures: Failures,
  log: Log,
  job: MergeJob,
  retry: () => Promise<void>,
): Promise<MergeOutcome> {
  const setup = connection.setup;
  if (!setup.client || !setup.baseUrl)
    return fail(vscode.l10n.t('The gateway address is not set, so the block cannot be merged.'), ['setBaseUrl']);
  if (!setup.hasKey)
    return fail(vscode.l10n.t('No API key is set for the gateway, so the block cannot be merged.'), ['setApiKey']);
  const client = setup.client;
  const prompt = mergePrompt(job.display, job.current, job.block);
  const settings = readSettings();
  const result = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Merging the code block into {0} with {1}', job.display, job.model),
      cancellable: true,
    },
    async (progress, token) => {
      const controller = new AbortController();
      const cancel = abortOnCancel(controller, token);
      let text = '';
      let lines = 0;
      try {
        const answer = await streamGatewayAnswer(
          client,
          {
            model: job.model,
            api: settings.chatApi,
            ...(job.provider ? { provider: job.provider } : {}),
            system: prompt.system,
            messages: [{ role: 'user', parts: [{ kind: 'text', text: prompt.user }] }],
            maxTokens: answerTokens(job),
            temperature: 0,
          },
          {
            text: (delta) => {
              text += delta;
              const now = text.split('\n').length - 1;
              if (now !== lines) {
                lines = now;
                progress.report({
                  message:
                    lines === 1
                      ? vscode.l10n.t('{0} line received', lines)
                      : vscode.l10n.t('{0} lines received', lines),
                });
              }
            },
          },
          controller.signal,
        );
        return { kind: 'done' as const, text, finishReason: answer.finishReason };
      } catch (error) {
        return { kind: 'error' as const, error, cancelled: token.isCancellationRequested && isAbortError(error) };
      } finally {
        cancel.dispose();
        connection.reportModelUse();
      }
    },
  );
  if (result.kind === 'error') {
    if (result.cancelled) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Merging into {0} was cancelled; nothing was written.', job.display),
      );
      return { ok: false, reason: 'cancelled' };
    }
    // The shared description (reset time, gateway address, key redacted); reported to the connection once.
    failures.report(result.error, true); // fail() below shows it, with its fix
    const info = await failures.describe(result.error);
    log.warn(`Apply: merging into ${job.display} with ${job.model} failed: ${info.detail}`);
    return fail(info.message, info.actions, retry);
  }
  if (result.finishReason === 'length' || result.finishReason === 'max_tokens') {
    return fail(
      vscode.l10n.t(
        "The model's answer was cut off by its output limit before the file ended. Choose a model with a longer output in {0}, or apply a smaller block.",
        'unifiedInference.apply.model',
      ),
      ['openSettings'],
      retry,
    );
  }
  const fence = fenceFor(job.current, job.block);
  if (!codeFromAnswer(result.text, fence).trim())
    return fail(vscode.l10n.t('{0} answered with no file.', job.model), ['retry', 'showLog'], retry);
  const merged = mergedFileFromAnswer(result.text, job.current, job.block, fence);
  if (!merged.ok) {
    const what = answerShapeWords(merged.shape);
    log.warn(
      `Apply: the answer of ${job.model} for ${job.display} was not the whole file (${what}; ${result.text.length} characters): nothing was proposed.`,
    );
    return fail(
      vscode.l10n.t(
        "The model's answer was not the whole file ({0}). Try Apply again, or choose a stronger model in {1}.",
        what,
        'unifiedInference.apply.model',
      ),
      ['retry', 'openSettings'],
      retry,
    );
  }
  return { ok: true, text: merged.text };

  function fail(message: string, actions: readonly ErrorAction[], again?: () => Promise<void>): MergeOutcome {
    const shown = actions.filter((a): a is ButtonAction => a !== 'retry');
    const tryAgain = vscode.l10n.t('Try Again');
    // In the actions' order, Try Again where 'retry' is (else last): the first button, VS Code's
    // primary one, is the fix (Set API Key for a refused key, not Try Again).
    const labels = shown.map(actionLabel);
    const retryAt = actions.includes('retry') ? actions.indexOf('retry') : labels.length;
    const buttons = again ? [...labels.slice(0, retryAt), tryAgain, ...labels.slice(retryAt)] : labels;
    const full = vscode.l10n.t(
      'Could not merge the code block into {0}: {1} Nothing was written.',
      job.display,
      message,
    );
    // Nobody awaits the button: what it runs must not fail unseen (an unhandled rejection).
    void vscode.window.showErrorMessage(full, ...buttons).then(async (choice) => {
      const action = shown.find((a) => actionLabel(a) === choice);
      try {
        if (choice === tryAgain) await again?.();
        else if (action) await vscode.commands.executeCommand(ACTION_COMMANDS[action].command);
      } catch (error) {
        const why = connection.redactError(error);
        const text = errorMessage(why);
        const what =
          choice === tryAgain
            ? vscode.l10n.t('Trying the merge into {0} again failed', job.display)
            : vscode.l10n.t('{0} failed', choice ?? vscode.l10n.t('The action'));
        log.warn(`Apply: ${what}: ${text}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('{0}: {1} Nothing was written.', what, sentence(text)));
      }
    });
    return { ok: false, reason: 'failed', message: full };
  }
}

/** What an answer that is not the file was, in the words of the message that refuses it. */
function answerShapeWords(shape: AnswerShape): string {
  switch (shape.reason) {
    case 'prose':
      return vscode.l10n.t('prose with no code');
    case 'snippets': {
      const snippets =
        shape.snippets === 1
          ? vscode.l10n.t('a code snippet of {0} lines for a file of {1}', shape.lines, shape.fileLines)
          : vscode.l10n.t('{0} code snippets', shape.snippets);
      return shape.prose ? vscode.l10n.t('prose and {0}', snippets) : snippets;
    }
    case 'elided':
      return vscode.l10n.t('parts of the file left out as "... existing code ..."');
    case 'ended-early':
      return vscode.l10n.t('it stopped {0} lines into a file of {1}', shape.lines, shape.fileLines);
  }
}
