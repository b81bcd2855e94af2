// Writes one assistant reply: streams a round from the gateway, and while the model asks for
// function tools the extension provides, asks the user, runs them, sends the results back and
// streams the next round. Mutates the reply as it goes, so whatever arrived stays when a round
// throws (stop, network error).
import { isAbortError } from '../errors';
import { isContextLengthError } from '../context/contextErrors';
import { MAX_SERVER_TOOL_STEPS_PER_ANSWER, MAX_TOOL_CALLS_PER_ANSWER } from '../limits';
import type { GatewayClient } from '../transport/client';
import type { ToolExecuted } from '../types/chat';
import type { AssistantTurn, TokenUsage, ToolStep, WireMessage, WirePart } from '../../shared/chatModel';
import { streamGatewayAnswer, type GatewayAnswerRequest } from '../answers/gatewayAnswer';
import { toolInputRefusal } from '../answers/gatewayMessages';
import { NOTHING_SENSITIVE, type ToolCallRequest, type ToolHost, type ToolOutcome } from '../answers/toolHost';
import { wholeHistory, type ContextFitter, type FittedRequest } from './contextFitter';
import { errorMessage } from '../../shared/errorMessage';
import type { SpendCapPassed, SpendCheck } from './spend/spendCap';
import { capCharge } from './spend/capCharge';
import { SourceList, type ReplySource } from '../../shared/replySources';

interface ReplyEvents {
  delta(content: string | undefined, reasoning: string | undefined): void;
  /** A step was added or changed: show it (cheap; never a save of the whole conversation). */
  toolStep(index: number, step: ToolStep): void;
  /**
   * A tool round ended (its results are on the wire, the next round is about to start): the one
   * point per round to save the whole conversation. Steps arrive by the thousand in a hostile
   * answer; rounds are few (maxToolRounds).
   */
  roundEnded?(): void;
  /**
   * The gateway sent no token counts (or only part) for a round while a spend cap is set: from now
   * on the cap counts an estimate for what it left out. Told once per reply, before the round's
   * tools run, so it is said while the reply runs, not after it.
   */
  spendEstimated?(): void;
  /** The reply passed the spend cap (its loop ends now); `estimated`: part of `spent` is an estimate. */
  spendCapPassed?(passed: SpendCapPassed): void;
}

export interface ReplyRun {
  readonly client: GatewayClient;
  /** Everything of the request but the messages. */
  readonly request: Omit<GatewayAnswerRequest, 'messages' | 'tools'>;
  /** The conversation before this reply, sent whole every round when there is no `context`. */
  readonly history?: readonly WireMessage[];
  readonly reply: AssistantTurn;
  readonly tools?: ToolHost;
  readonly events: ReplyEvents;
  readonly signal: AbortSignal;
  readonly maxToolRounds?: number;
  /** Assembles each round's request (the context keeper); without one, wholeHistory(history). */
  readonly context?: ContextFitter;
  /**
   * The per-reply spend cap (spendCap.ts), asked after each round with the reply's usage so far
   * (the gateway's counts, plus an estimate for what it did not count: capCharge.ts).
   * When it passed, the loop ends before the round's tools run and before the next request.
   */
  readonly spendCheck?: SpendCheck;
}

/** The finish reason of a reply whose tool loop the spend cap ended. */
export const SPEND_CAP_FINISH = 'spend_cap';

const DEFAULT_MAX_TOOL_ROUNDS = 8;
/** What the chat shows of a tool result (the model gets all of it). */
const SHOWN_RESULT_CHARS = 2_000;

function shorten(text: string, max = SHOWN_RESULT_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return '(not shown: nested too deep to write down)'; // a stack overflow, from a hostile answer
  }
}

/** Told to the model (as text after the tool results) about the calls past the cap. */
function refusedCallsNote(count: number): string {
  return `${count} more tool call${count === 1 ? ' was' : 's were'} in your answer and ${count === 1 ? 'was' : 'were'} not run: an answer may ask for at most ${MAX_TOOL_CALLS_PER_ANSWER} tool calls. Ask again for the ones still needed.`;
}

function addUsage(a: TokenUsage | undefined, b: TokenUsage): TokenUsage {
  return {
    promptTokens: (a?.promptTokens ?? 0) + b.promptTokens,
    completionTokens: (a?.completionTokens ?? 0) + b.completionTokens,
  };
}

/** One step for the tools the gateway ran past the cap (they ran; they are only not shown one by one). */
function hiddenServerToolsStep(count: number): ToolStep {
  return {
    kind: 'server',
    name: `${count} more`,
    result: `The gateway ran ${count} more tool${count === 1 ? '' : 's'} in this answer; at most ${MAX_SERVER_TOOL_STEPS_PER_ANSWER} are shown per answer.`,
  };
}

/** A tools_executed element (a name, or an object with what the server told) as a step. */
export function serverToolStep(tool: ToolExecuted): ToolStep {
  if (typeof tool === 'string') return { kind: 'server', name: tool };
  const args = asText(tool.arguments);
  const result = asText(tool.result);
  return {
    kind: 'server',
    name: typeof tool.name === 'string' && tool.name ? tool.name : 'tool',
    ...(typeof tool.server === 'string' ? { server: tool.server } : {}),
    ...(args !== undefined ? { arguments: shorten(args) } : {}),
    ...(result !== undefined ? { result: shorten(result) } : {}),
    ...(tool.is_error === true ? { failed: true } : {}),
  };
}

/**
 * One reply as a pipeline of stages, each passed once per round: the context is assembled
 * (context.fit), the answer streamed, its usage reported (context.measured), the tools run, and
 * the next round starts. The only second pass is a second fit after the gateway refused the
 * round as too long, before any of it arrived.
 */
export async function runReply(run: ReplyRun): Promise<void> {
  const { reply, events, signal } = run;
  const context = run.context ?? wholeHistory(run.history ?? []);
  const maxRounds = run.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const addStep = (step: ToolStep): number => {
    reply.toolSteps.push(step);
    events.toolStep(reply.toolSteps.length - 1, step);
    return reply.toolSteps.length - 1;
  };
  const updateStep = (index: number, step: ToolStep): void => {
    reply.toolSteps[index] = step;
    events.toolStep(index, step);
  };
  // Every round's sources in one list: a page cited in two rounds is listed once, the cap is per reply.
  const sources = new SourceList(reply.sources);
  const addSources = (found: readonly ReplySource[]): void => {
    let changed = false;
    for (const source of found) changed = sources.add(source.url, source.title) || changed;
    if (changed) reply.sources = sources.list();
  };

  // What the gateway did not count, estimated for the spend cap (never part of reply.usage, which holds its counts).
  let uncounted = { promptTokens: 0, completionTokens: 0 };
  let estimated = false;

  for (let round = 0; ; round++) {
    // Rounds after a tool call start a new paragraph, so texts of two rounds do not run together.
    let separator = round > 0 && reply.content && !reply.content.endsWith('\n') ? '\n\n' : '';
    let roundText = '';
    let roundReasoningChars = 0;
    let sent: FittedRequest = { messages: [] };
    const tools = run.tools && round < maxRounds ? run.tools.definitions : undefined;
    const stream = async (refusedWith?: unknown): Promise<Awaited<ReturnType<typeof streamGatewayAnswer>>> => {
      const fitted = await context.fit(reply.wire, refusedWith, signal);
      sent = fitted;
      const request = {
        ...run.request,
        ...(fitted.system !== undefined ? { system: fitted.system } : {}),
        messages: fitted.messages,
        ...(fitted.answerRoom ? { answerRoom: fitted.answerRoom } : {}),
        ...(tools?.length ? { tools } : {}),
      };
      return streamGatewayAnswer(
        run.client,
        request,
        {
          text: (delta) => {
            const text = separator + delta;
            separator = '';
            roundText += delta;
            reply.content += text;
            events.delta(text, undefined);
          },
          reasoning: (delta) => {
            reply.reasoning += delta;
            roundReasoningChars += delta.length;
            events.delta(undefined, delta);
          },
          toolsExecuted: (executed) => executed.forEach((tool) => addStep(serverToolStep(tool))),
          sources: addSources,
        },
        signal,
      );
    };
    const result = await stream()
      .catch((error: unknown) => {
        // Too long after all (the estimate was wrong): compacted harder, sent once more. Only
        // before anything of the round arrived: a refusal comes before the first byte.
        if (
          run.context &&
          !roundText &&
          isContextLengthError(error) &&
          (error as Error).name !== 'ContextOverflowError'
        )
          return stream(error);
        throw error;
      })
      .catch((error: unknown) => {
        // A later turn replays this reply: keep the text of the broken round on the wire too.
        if (roundText) reply.wire.push({ role: 'assistant', parts: [{ kind: 'text', text: roundText }] });
        throw error;
      });
    if (result.usage) {
      context.measured(result.usage);
      reply.usage = addUsage(reply.usage, result.usage);
    }
    if (result.finishReason) reply.finishReason = result.finishReason;
    reply.wire.push({ role: 'assistant', parts: [...result.parts] });
    if (result.hiddenServerTools) addStep(hiddenServerToolsStep(result.hiddenServerTools));

    const calls = result.parts.filter(
      (part): part is Extract<WirePart, { kind: 'toolCall' }> => part.kind === 'toolCall',
    );
    if (calls.length === 0 || !run.tools) return;
    // Past the cap: the calls are not run (their results would only feed a request that is not
    // sent); a later turn's replay drops calls without results (conversationWire.ts).
    if (run.spendCheck) {
      const charge = capCharge(
        result.usage,
        { ...sent, toolChars: tools?.length ? JSON.stringify(tools).length : 0 },
        { parts: result.parts, reasoningChars: roundReasoningChars },
      );
      if (charge.estimated && !estimated) events.spendEstimated?.();
      estimated ||= charge.estimated;
      uncounted = addUsage(uncounted, charge.estimatedExtra);
      const passed = run.spendCheck(addUsage(reply.usage, uncounted));
      if (passed) {
        reply.finishReason = SPEND_CAP_FINISH;
        events.spendCapPassed?.({ ...passed, estimated });
        return;
      }
    }
    if (round >= maxRounds) {
      reply.finishReason = 'tool_rounds';
      return;
    }
    const results: WirePart[] = [];
    for (const call of calls) {
      const input = (call.input ?? {}) as Record<string, unknown>;
      const request: ToolCallRequest = { id: call.id, name: call.name, input, arguments: JSON.stringify(input) };
      // Arguments nested too deep or too large never reach a tool (nor its review).
      const refused = toolInputRefusal(input);
      const review =
        refused !== undefined
          ? { ...NOTHING_SENSITIVE, refusal: refused }
          : run.tools.review
            ? await run.tools.review(request, signal)
            : NOTHING_SENSITIVE;
      const base = {
        kind: 'function' as const,
        id: call.id,
        name: call.name,
        arguments: request.arguments,
        ...(review.sensitivePaths.length ? { sensitive: review.sensitivePaths } : {}),
        ...(review.guarded?.length ? { guarded: review.guarded } : {}),
        ...(review.change ? { change: review.change } : {}),
        ...(review.command ? { command: review.command } : {}),
        ...(review.notice ? { notice: review.notice } : {}),
      };
      if (review.refusal !== undefined) {
        // Nothing to decide: the model gets the reason as a tool error it can correct.
        addStep({ ...base, status: 'failed', result: shorten(review.refusal) });
        results.push({ kind: 'toolResult', callId: call.id, content: review.refusal, isError: true });
        continue;
      }
      const ask = run.tools.needsApproval(request, review);
      const index = addStep({ ...base, status: ask ? 'awaitingApproval' : 'running' });
      const allowed =
        !ask ||
        (await run.tools.approve(request, signal, review).catch((error: unknown) => {
          // Stopped while asking: the step must not keep live Allow/Deny buttons, nor be saved with them.
          updateStep(index, { ...base, status: 'denied' });
          throw error;
        }));
      if (!allowed) {
        updateStep(index, { ...base, status: 'denied' });
        results.push({
          kind: 'toolResult',
          callId: call.id,
          content: review.deniedResult ?? 'The user did not allow this tool call.',
          isError: true,
        });
        continue;
      }
      if (ask) updateStep(index, { ...base, status: 'running' });
      const outcome = await run.tools.run(request, signal, review).catch((error: unknown): ToolOutcome => {
        if (isAbortError(error)) throw error;
        return { content: `The tool failed: ${errorMessage(error)}`, isError: true };
      });
      updateStep(index, {
        ...base,
        status: outcome.isError ? 'failed' : 'done',
        result: shorten(outcome.content),
        ...(outcome.researchJobId ? { researchJobId: outcome.researchJobId } : {}),
      });
      results.push({
        kind: 'toolResult',
        callId: call.id,
        content: outcome.content,
        ...(outcome.isError ? { isError: true } : {}),
      });
    }
    // The calls past the cap are not on the wire (the assistant message holds the first ones
    // only): the model hears why, in the last result (a user message after it would read as the user's).
    const last = results.at(-1);
    if (result.refusedToolCalls && last?.kind === 'toolResult')
      results[results.length - 1] = {
        ...last,
        content: `${last.content}\n\n${refusedCallsNote(result.refusedToolCalls)}`,
      };
    reply.wire.push({ role: 'user', parts: results });
    events.roundEnded?.();
  }
}
