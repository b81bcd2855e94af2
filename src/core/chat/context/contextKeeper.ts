// Fits each request of one reply into the model's context window, and measures how full it was.
// Before every round (tool rounds grow the request too) it plans with core's planCompaction:
// trims long old tool results, asks the model for a summary of the oldest exchanges when needed
// (kept in the reply, so later requests reuse it), and falls back to leaving them out, visibly,
// when the summary request fails. After the gateway still refuses a request as too long (the
// estimate was wrong), it compacts once more with what the error told. Only requests change: the
// conversation keeps every turn.
import { calibratedRatio, DEFAULT_TOKENS_PER_CHAR, messageChars } from '../../context/tokenEstimate';
import { contextBudget } from '../../context/contextBudget';
import { isAbortError } from '../../errors';
import { planCompaction, type CompactionPlan, type ContextTurn } from '../../context/compactionPlan';
import { reportedContextLength, reportedInputTokens } from '../../context/contextErrors';
import type { GatewayClient } from '../../transport/client';
import type { AssistantTurn, ChatTurn, ReplyContext, TokenUsage, WireMessage } from '../../../shared/chatModel';
import { requestedAnswerTokens } from '../../answers/answerTokens';
import type { GatewayAnswerRequest } from '../../answers/gatewayAnswer';
import { usesMessagesApi } from '../../answers/gatewayMessages';
import type { ContextFitter, FittedRequest } from '../contextFitter';
import { systemPrompt, type SystemPromptParts } from '../systemPrompt';
import {
  compactedHistory,
  compactionNote,
  contextTurns,
  summaryMessage,
  type CompactedHistory,
} from './compactedHistory';
import { summarizeTurns } from './summarizer';
import { errorMessage } from '../../../shared/errorMessage';
import type { ImageBytes } from '../conversationWire';

/** The request could not be made to fit (the system prompt and tools alone are too long). */
class ContextOverflowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContextOverflowError';
  }
}

export interface ContextKeeperOptions {
  readonly client: GatewayClient;
  readonly request: Pick<
    GatewayAnswerRequest,
    'model' | 'api' | 'provider' | 'maxTokens' | 'thinkingBudget' | 'reasoningEffort'
  >;
  /** The system prompt's parts but the compaction note, which each round adds for itself. */
  readonly system: Omit<SystemPromptParts, 'compaction'>;
  /** The conversation's turns before the reply. */
  readonly turns: readonly ChatTurn[];
  /** The bytes of the turns' images (absent: the turns are sent as text). */
  readonly images?: ImageBytes;
  readonly reply: AssistantTurn;
  /** From the catalog; undefined when it lists none (then only a gateway's error makes the keeper act). */
  readonly contextLength?: number;
  /** Characters of the tool definitions sent with each round. */
  readonly toolChars: number;
  /** The reply's context record changed (shown at once, saved with the reply). */
  changed(context: ReplyContext): void;
}

/** A summary is at most this long (and at most a quarter of the input budget). */
const SUMMARY_MAX_TOKENS = 1024;

export class ContextKeeper implements ContextFitter {
  private history: CompactedHistory;
  /** The history's turns as wire messages: made once per reply, not per round (a summary only removes turns). */
  private wireTurns: readonly ContextTurn[];
  private ratio: number;
  private lastChars = 0;

  constructor(private readonly options: ContextKeeperOptions) {
    this.history = compactedHistory(options.turns);
    this.wireTurns = contextTurns(this.history.turns, options.images);
    this.ratio = this.history.tokensPerChar ?? DEFAULT_TOKENS_PER_CHAR;
    if (options.contextLength) this.update({ contextLength: options.contextLength });
  }

  /** The messages and system prompt for the next round; `refusedWith`: the gateway's context-length error for the last try. */
  async fit(tail: readonly WireMessage[], refusedWith: unknown, signal: AbortSignal): Promise<FittedRequest> {
    const harder = refusedWith !== undefined;
    const contextLength = this.options.contextLength ?? (harder ? reportedContextLength(refusedWith) : undefined);
    if (!contextLength && !harder) {
      // Nothing to measure against: earlier compactions still apply, nothing new is planned.
      return this.sent(
        this.wireTurns.flatMap((turn) => turn.messages),
        tail,
      );
    }
    // The answer's reserve is what the request will ask for: a thinking budget counts too.
    const request = this.options.request;
    const reserve = contextBudget(
      contextLength ?? 0,
      requestedAnswerTokens(request, usesMessagesApi(request.model, request.api, request.provider)),
    );
    let budget = reserve.input;
    if (harder) {
      // The gateway counted more than estimated: learn its ratio when it said its count, else
      // aim well below the budget. Either way, keep fewer turns whole.
      const counted = reportedInputTokens(refusedWith);
      if (counted && this.lastChars) this.ratio = Math.max(this.ratio * 1.25, calibratedRatio(counted, this.lastChars));
      else budget = Math.floor(budget * 0.6);
      if (!contextLength) budget = Math.floor((counted ?? 0) * 0.5);
    }
    if (budget <= 0)
      throw new ContextOverflowError(
        "The gateway refused the request as too long for the model's context, and did not say how long that is.",
      );
    const summaryTokens = Math.min(SUMMARY_MAX_TOKENS, Math.floor(budget / 4));
    const keepTurns = harder ? 2 : 4;
    let plan = this.plan(tail, budget, summaryTokens, keepTurns, true);
    if (plan.summarize?.length) {
      await this.summarize(
        plan.summarize.map((turn) => turn.id),
        budget,
        summaryTokens,
        signal,
      );
      plan = this.plan(tail, budget, summaryTokens, keepTurns, false);
    }
    if (!plan.fits) {
      throw new ContextOverflowError(
        `The request does not fit ${this.options.request.model}'s context window of ${(contextLength ?? 0).toLocaleString('en-US')} tokens even after compaction (about ${plan.tokens.toLocaleString('en-US')} tokens of input would be needed, ${budget.toLocaleString('en-US')} can be sent): the system prompt, instruction files or tools alone are too long.`,
      );
    }
    const record = this.options.reply.context ?? {};
    this.update({
      ...(plan.trimmedResults || record.trimmedResults
        ? { trimmedResults: Math.max(plan.trimmedResults, record.trimmedResults ?? 0) }
        : {}),
      ...(plan.trimmedLatest || record.trimmedMessageChars
        ? { trimmedMessageChars: Math.max(plan.trimmedLatest, record.trimmedMessageChars ?? 0) }
        : {}),
      ...(harder || record.retried ? { retried: true } : {}),
    });
    // What the input leaves, less the margin: max_tokens above it would be refused.
    const answerRoom = contextLength
      ? Math.max(reserve.output, contextLength - plan.tokens - reserve.margin)
      : undefined;
    return {
      ...this.sent([...plan.turns.flatMap((turn) => turn.messages)], plan.tail),
      ...(answerRoom ? { answerRoom } : {}),
    };
  }

  /** One round's usage: how full the context was, and what the gateway's count teaches the estimate. */
  measured(usage: TokenUsage): void {
    if (this.lastChars) this.ratio = calibratedRatio(usage.promptTokens, this.lastChars);
    this.update({
      usedTokens: usage.promptTokens + usage.completionTokens,
      ...(this.ratio > DEFAULT_TOKENS_PER_CHAR ? { tokensPerChar: Math.round(this.ratio * 1e4) / 1e4 } : {}),
    });
  }

  private plan(
    tail: readonly WireMessage[],
    budget: number,
    summaryTokens: number,
    keepTurns: number,
    allowSummary: boolean,
  ): CompactionPlan {
    // The summary's message is sent with every request, like the system prompt: counted with it,
    // never a turn the plan could trim or summarize again.
    const lead = this.lead();
    const leadText = lead ? lead.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('') : '';
    return planCompaction({
      system: [this.system(), leadText].filter(Boolean).join('\n\n'),
      turns: this.wireTurns,
      tail,
      toolChars: this.options.toolChars,
      budget,
      tokensPerChar: this.ratio,
      keepTurns,
      allowSummary,
      summaryTokens,
    });
  }

  private async summarize(
    ids: readonly string[],
    budget: number,
    maxTokens: number,
    signal: AbortSignal,
  ): Promise<void> {
    const through = ids[ids.length - 1] as string;
    const covered = this.options.turns.findIndex((turn) => turn.id === through) + 1;
    const old = this.wireTurns.filter((turn) => ids.includes(turn.id));
    const rest = this.history.turns.filter((turn) => !ids.includes(turn.id));
    // Either way (summarized or left out) the old turns are no longer sent.
    this.wireTurns = this.wireTurns.filter((turn) => !ids.includes(turn.id));
    try {
      const result = await summarizeTurns({
        client: this.options.client,
        request: {
          model: this.options.request.model,
          api: this.options.request.api,
          ...(this.options.request.provider ? { provider: this.options.request.provider } : {}),
        },
        ...(this.history.summary ? { previous: this.history.summary.text } : {}),
        turns: old,
        inputBudget: budget,
        maxTokens,
        tokensPerChar: this.ratio,
        signal,
      });
      const reply = this.options.reply;
      const before = reply.usage ?? { promptTokens: 0, completionTokens: 0 };
      // What the summary cost is part of what the reply cost.
      reply.usage = {
        promptTokens: before.promptTokens + result.usage.promptTokens,
        completionTokens: before.completionTokens + result.usage.completionTokens,
      };
      const summary = { text: result.text, throughTurnId: through, turns: covered };
      this.history = { turns: rest, summary };
      this.update({ summary, dropped: undefined });
    } catch (error) {
      if (isAbortError(error) && signal.aborted) throw error;
      // The reply matters more than the summary: leave the old turns out, and say so.
      const reason = `the summary request failed: ${errorMessage(error)}`.slice(0, 300);
      const dropped = { throughTurnId: through, turns: covered, reason };
      this.history = { turns: rest, ...(this.history.summary ? { summary: this.history.summary } : {}), dropped };
      this.update({ dropped });
    }
  }

  private system(): string {
    const compaction = compactionNote(this.history.summary, this.history.dropped);
    return systemPrompt({ ...this.options.system, ...(compaction ? { compaction } : {}) });
  }

  /** The summary of the oldest turns, as the request's first (user-role) message. */
  private lead(): WireMessage | undefined {
    return this.history.summary ? summaryMessage(this.history.summary) : undefined;
  }

  private sent(history: readonly WireMessage[], tail: readonly WireMessage[]): FittedRequest {
    const lead = this.lead();
    const messages = [...(lead ? [lead] : []), ...history, ...tail];
    const system = this.system();
    this.lastChars =
      system.length + this.options.toolChars + messages.reduce((sum, message) => sum + messageChars(message), 0);
    return { messages, ...(system ? { system } : {}), tokensPerChar: this.ratio };
  }

  private update(change: { [K in keyof ReplyContext]?: ReplyContext[K] | undefined }): void {
    const next: Record<string, unknown> = { ...(this.options.reply.context ?? {}), ...change };
    for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
    this.options.reply.context = next;
    this.options.changed(this.options.reply.context);
  }
}
