// The tokens a request asks for its answer: `max_tokens` (which /messages requires) and the
// thinking budget (which must stay below it). Providers refuse a request whose input plus
// `max_tokens` is longer than the model's context, so when the context keeper has measured the
// room the input leaves (`answerRoom`), both shrink to fit it: `max_tokens` to the room, and
// thinking to half of it, or off when the room is below twice the providers' minimum budget.
import { EFFORT_THINKING_BUDGET, THINKING_MIN_BUDGET } from '../../shared/chatModel';
import type { GatewayAnswerRequest } from './gatewayMessages';

/** /messages requires max_tokens; this leaves room for a long answer without a known limit. */
export const DEFAULT_MESSAGES_MAX_TOKENS = 4096;

export type AnswerTokenRequest = Pick<
  GatewayAnswerRequest,
  'maxTokens' | 'thinkingBudget' | 'reasoningEffort' | 'answerRoom'
>;

export interface AnswerTokens {
  /** `max_tokens` to send; undefined: none (chat completions without a set limit). */
  readonly maxTokens?: number;
  /** `thinking.budget_tokens` to send; undefined: thinking off. */
  readonly thinkingBudget?: number;
}

export function answerTokens(request: AnswerTokenRequest, messagesApi: boolean): AnswerTokens {
  // Chat completions carry an effort as `reasoning_effort`; only /messages turns it into a budget.
  let thinking =
    request.thinkingBudget ??
    (messagesApi && request.reasoningEffort ? EFFORT_THINKING_BUDGET[request.reasoningEffort] : undefined);
  let max = messagesApi
    ? thinking
      ? Math.max(request.maxTokens ?? 0, thinking + DEFAULT_MESSAGES_MAX_TOKENS)
      : (request.maxTokens ?? DEFAULT_MESSAGES_MAX_TOKENS)
    : request.maxTokens;
  const room = request.answerRoom !== undefined && request.answerRoom >= 1 ? Math.floor(request.answerRoom) : undefined;
  if (room !== undefined) {
    if (max !== undefined && max > room) max = room;
    const ceiling = max ?? room;
    if (thinking !== undefined && thinking >= ceiling)
      thinking = ceiling >= 2 * THINKING_MIN_BUDGET ? Math.floor(ceiling / 2) : undefined;
  }
  return {
    ...(max !== undefined ? { maxTokens: max } : {}),
    ...(thinking !== undefined ? { thinkingBudget: thinking } : {}),
  };
}

/**
 * The room the answer will ask for before any cap, for the keeper's reserve: `max_tokens` when
 * one is sent, else the thinking budget plus a long answer when thinking is on; undefined leaves
 * the keeper's default.
 */
export function requestedAnswerTokens(request: AnswerTokenRequest, messagesApi: boolean): number | undefined {
  const { answerRoom: _room, ...uncapped } = request;
  const { maxTokens, thinkingBudget } = answerTokens(uncapped, messagesApi);
  return maxTokens ?? (thinkingBudget ? thinkingBudget + DEFAULT_MESSAGES_MAX_TOKENS : undefined);
}
