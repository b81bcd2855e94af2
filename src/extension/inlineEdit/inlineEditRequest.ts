// One inline edit request through the one path to the chat models (streamGatewayAnswer: both APIs,
// redaction included). The caller gets the replacement as it streams (whole lines only) and at the
// end; the answer is bounded (a runaway model is stopped, not followed) and an answer cut by the
// output limit is refused rather than shown as a half-written change.
import * as vscode from 'vscode';
import { isAbortError } from '../../core/errors';
import type { GatewayClient } from '../../core/transport/client';
import {
  inlineEditPrompt,
  MAX_INLINE_EDIT_ANSWER_CHARS,
  surroundingCode,
  replacementFromAnswer,
  type InlineEditRequestText,
} from '../../core/inlineEdit/inlineEditPrompt';
import { StreamedReplacement } from '../../core/inlineEdit/streamedReplacement';
import { lineEndingOf } from '../../core/edits/lineEndings';
import { streamGatewayAnswer } from '../../core/answers/gatewayAnswer';
import type { ChatApi } from '../../shared/settings';
import type { LineScope } from '../../core/inlineEdit/lineScope';
import type { InlineEditSession } from './inlineEditSession';

export interface InlineEditJob {
  readonly client: GatewayClient;
  readonly model: string;
  readonly api: ChatApi;
  readonly text: InlineEditRequestText;
}

export type InlineEditAnswer =
  | { readonly kind: 'done'; readonly replacement: string }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'refused'; readonly message: string };

class AnswerTooLongError extends Error {
  override readonly name = 'AnswerTooLongError';
}

/**
 * The request for a session's scope in the document now: the code around it (bounded), the
 * original code of the scope (what the model was first shown) and, on a refinement, the earlier
 * instructions and the last proposal.
 */
export function inlineEditJob(from: {
  client: GatewayClient;
  session: InlineEditSession;
  document: vscode.TextDocument;
  scope: LineScope;
  instruction: string;
  refining: boolean;
  api: ChatApi;
}): InlineEditJob {
  const { session, document, scope } = from;
  const text = document.getText();
  const start = document.offsetAt(new vscode.Position(scope.start, 0));
  const end = scope.end >= document.lineCount ? text.length : document.offsetAt(new vscode.Position(scope.end, 0));
  const { before, after } = surroundingCode(text, start, end);
  const previous = from.refining
    ? { instructions: session.instructions.slice(0, -1), proposal: session.previousProposal }
    : undefined;
  return {
    client: from.client,
    model: session.model,
    api: from.api,
    text: {
      path: session.init.display,
      language: session.init.language,
      before,
      selection: session.original,
      after,
      instruction: from.instruction,
      ...(previous ? { previous } : {}),
    },
  };
}

/** Room for the replacement (/messages needs max_tokens): about one token per two characters of selection, at least 2,048. */
function answerTokens(text: InlineEditRequestText): number {
  return Math.min(
    32_768,
    Math.max(2048, Math.ceil(((text.previous?.proposal.length ?? 0) + text.selection.length) / 2) + 1024),
  );
}

export async function requestInlineEdit(
  job: InlineEditJob,
  onLines: (replacementSoFar: string) => void,
  signal: AbortSignal,
): Promise<InlineEditAnswer> {
  const prompt = inlineEditPrompt(job.text);
  // A signal aborted before the call never fires 'abort' again: AbortSignal.any sees it at once.
  if (signal.aborted) return { kind: 'cancelled' };
  const controller = new AbortController();
  const combined = AbortSignal.any([signal, controller.signal]);
  const streamed = new StreamedReplacement(lineEndingOf(job.text.selection), prompt.fence);
  let answer = '';
  try {
    const result = await streamGatewayAnswer(
      job.client,
      {
        model: job.model,
        api: job.api,
        system: prompt.system,
        messages: [{ role: 'user', parts: [{ kind: 'text', text: prompt.user }] }],
        maxTokens: answerTokens(job.text),
        temperature: 0,
      },
      {
        text: (delta) => {
          answer += delta;
          if (answer.length > MAX_INLINE_EDIT_ANSWER_CHARS) {
            controller.abort(new AnswerTooLongError());
            return;
          }
          // Incremental: only a piece with a line break can change what is shown.
          if (streamed.push(delta) && streamed.current !== undefined) onLines(streamed.current);
        },
      },
      combined,
    );
    if (result.finishReason === 'length' || result.finishReason === 'max_tokens') {
      return {
        kind: 'refused',
        message: vscode.l10n.t(
          "The model's answer was cut off by its output limit before the code ended. Select less code, or choose a model with a longer output in {0}.",
          'unifiedInference.inlineEdit.model',
        ),
      };
    }
    return { kind: 'done', replacement: replacementFromAnswer(answer, job.text.selection, prompt.fence) };
  } catch (error) {
    if (controller.signal.reason instanceof AnswerTooLongError) {
      return {
        kind: 'refused',
        message: vscode.l10n.t(
          "The model's answer passed {0} characters, so it was stopped: an inline edit is for a selection, not a whole file.",
          MAX_INLINE_EDIT_ANSWER_CHARS.toLocaleString('en-US'),
        ),
      };
    }
    // Stopped by the user: whatever the stream threw on the way out (an abort, a cut body) is the stop.
    if (signal.aborted || (isAbortError(error) && controller.signal.aborted)) return { kind: 'cancelled' };
    return { kind: 'failed', error };
  }
}
