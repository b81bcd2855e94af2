// Writes one reply of a chat, from the request to the saved turn: checks the setup, builds the
// request (model, parameters, the workspace tools when the workspace is trusted, the system
// prompt's parts), streams the answer into the turn and the webview, keeps a journal while it
// streams, ends the turn (done, stopped, or an error card with its fix) and tells its cost.
import * as vscode from 'vscode';
import type { AssistantTurn, ChatErrorInfo, ChatParameters, Conversation, WireMessage } from '../../shared/chatModel';
import type { HostToChatMessage } from '../../shared/chatProtocol';
import type { Settings } from '../../shared/settings';
import { isAbortError } from '../../core/errors';
import { modelPricing } from '../../core/models/modelPricing';
import type { GatewayClient } from '../../core/transport/client';
import type { GatewayAnswerRequest } from '../../core/answers/gatewayAnswer';
import { openSettings, readSettings } from '../config';
import { describeChatError } from '../../core/failures/describeError';
import { missingSetup, SetupRequiredError } from '../../core/failures/setupError';
import { diagnosisContext } from '../gateway/gatewayConnection';
import { lastReading, type ChatDeps } from './chatDeps';
import { workspaceToolsGate, type ChatTools } from './chatTools';
import { prepareReplyContext } from './context/replyContext';
import { DeltaBatcher } from '../../core/chat/deltaBatcher';
import type { SaveOutcome } from '../../core/chat/history/conversationStore';
import type { ReplyJournal } from '../../core/chat/history/replyJournal';
import { balanceReader, type CostMeasurement } from '../../core/chat/replyCost';
import { runReply, SPEND_CAP_FINISH } from '../../core/chat/replyRunner';
import { spendCapPlan, type SpendCapPassed } from '../../core/chat/spend/spendCap';
import type { NoticeAction } from '../../core/chat/chatNotices';
import { MAX_SPEND_PER_REPLY_KEY } from '../../shared/settings';
import { usdText } from '../../shared/usdText';

type ReplyStatus = 'done' | 'stopped' | 'error';

export interface ReplyWriterHost {
  post(message: HostToChatMessage): void;
  save(conversation: Conversation): Promise<SaveOutcome | undefined>;
  postHistory(): Promise<void>;
  /** The reply ended (its usage is the context meter's measure now). */
  ended(): void;
  /** A reply of `conversation` told its cost: the header's total follows (when it is the one shown). */
  costChanged(conversation: Conversation): void;
  /** Says something in the chat (a ChatNotices notice), with at most one button. */
  notice(text: string, severity: 'info' | 'warning', action?: NoticeAction): void;
}

function isQuotaExhausted(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'RateLimitError' &&
    (error as { quotaExhausted?: unknown }).quotaExhausted === true
  );
}

/** Everything of a reply's request but the messages, the system prompt and the tools. */
function replyRequest(
  model: string,
  parameters: ChatParameters,
  settings: Settings,
  provider: string | undefined,
): Omit<GatewayAnswerRequest, 'messages' | 'tools' | 'system'> {
  return {
    model,
    api: settings.chatApi,
    ...(provider ? { provider } : {}),
    ...(parameters.maxTokens ? { maxTokens: parameters.maxTokens } : {}),
    ...(parameters.temperature !== undefined ? { temperature: parameters.temperature } : {}),
    ...(parameters.reasoningEffort ? { reasoningEffort: parameters.reasoningEffort } : {}),
    ...(parameters.thinkingBudget ? { thinkingBudget: parameters.thinkingBudget } : {}),
    ...(settings.chat.mcpServers.length ? { mcpServers: settings.chat.mcpServers } : {}),
  };
}

/** The line a reply stopped by the spend cap ends with (status 'stopped', not a failure). */
function spendCapStop(passed: SpendCapPassed): ChatErrorInfo {
  return {
    kind: 'spendCap',
    message: passed.estimated
      ? vscode.l10n.t(
          "Stopped: this reply's estimated cost {0} passed your cap of {1} per reply (the gateway reported no token counts, so they were estimated from the text's length). The tools it asked for next were not run; everything it received is kept.",
          usdText(passed.spent),
          usdText(passed.cap),
        )
      : vscode.l10n.t(
          "Stopped: this reply's cost {0} passed your cap of {1} per reply. The tools it asked for next were not run; everything it received is kept.",
          usdText(passed.spent),
          usdText(passed.cap),
        ),
    actions: ['openSpendCap'],
  };
}

export class ReplyWriter {
  /** Models already told to have no prices for the spend cap (said once per model, per chat). */
  private readonly toldUncapped = new Set<string>();
  /** Told once that a reply's tool rounds came without token counts, so the cap counts an estimate. */
  private toldEstimated = false;

  constructor(
    private readonly deps: ChatDeps,
    private readonly tools: ChatTools,
    private readonly host: ReplyWriterHost,
  ) {}

  /** Writes `reply` (the conversation's last turn) to the turns before it; never throws. */
  async write(
    conversation: Conversation,
    reply: AssistantTurn,
    history: readonly WireMessage[],
    signal: AbortSignal,
  ): Promise<void> {
    const setup = this.deps.connection.setup;
    // No address or key: the shared description, as every feature says it.
    const missing = missingSetup(setup);
    const client = setup.client;
    if (missing || !client) {
      await this.end(
        conversation,
        reply,
        'error',
        describeChatError(new SetupRequiredError(missing ?? 'baseUrl'), { baseUrl: setup.baseUrl }),
      );
      return;
    }
    if (!reply.model) {
      await this.end(conversation, reply, 'error', {
        kind: 'noModel',
        message: vscode.l10n.t('No chat model is selected and the model catalog could not be read.'),
        actions: ['retry', 'openSettings'],
      });
      return;
    }

    // The user's message is on disk before the request goes out; the reply then goes to an
    // append-only journal as it streams (O(new text) per write, a few times a second), and the
    // whole conversation is written once, when the reply ends.
    await this.host.save(conversation);
    const journal = this.deps.store.startJournal(conversation.id, reply);
    const cost = this.deps.costs.start(balanceReader(client));
    let saved = false;
    try {
      saved = await this.stream(conversation, reply, history, client, journal, signal);
    } finally {
      // The end's save wrote the whole conversation: the journal is folded in. Kept if that save failed.
      await journal.close(saved);
      this.reportCost(conversation, reply, cost);
    }
  }

  /** Streams the answer and ends the reply; true when the final save landed. */
  private async stream(
    conversation: Conversation,
    reply: AssistantTurn,
    history: readonly WireMessage[],
    client: GatewayClient,
    journal: ReplyJournal,
    signal: AbortSignal,
  ): Promise<boolean> {
    const settings = readSettings();
    const batcher = new DeltaBatcher((content, reasoning) =>
      this.host.post({
        type: 'replyDelta',
        id: reply.id,
        ...(content ? { content } : {}),
        ...(reasoning ? { reasoning } : {}),
      }),
    );
    const parameters = conversation.parameters;
    const gate = workspaceToolsGate(settings, vscode.workspace.isTrusted);
    const tools = gate.offered
      ? this.tools.forReply({ conversationId: conversation.id, turnId: reply.id }, settings)
      : undefined;
    const turnsBefore = conversation.turns.slice(0, conversation.turns.indexOf(reply));
    const request = replyRequest(reply.model, parameters, settings, this.providerOf(reply.model));
    let capPassed: SpendCapPassed | undefined;
    const cap = spendCapPlan(settings.chat.maxSpendPerReply, modelPricing(this.deps.catalog.model(reply.model)));
    if (cap.kind === 'unenforceable') this.tellUncapped(reply.model, cap.cap);
    try {
      // Instruction files in the system prompt; the keeper fits each round into the context window.
      const { system, keeper } = await prepareReplyContext({
        deps: this.deps,
        client,
        system: {
          ...(parameters.systemPrompt ? { conversationPrompt: parameters.systemPrompt } : {}),
          toolsWithheld: gate.withheld,
        },
        turns: turnsBefore,
        ...(this.deps.store.images
          ? { images: await this.deps.store.images.readAll(conversation.id, turnsBefore) }
          : {}),
        reply,
        post: (message) => this.host.post(message),
        request,
        ...(tools ? { tools: tools.definitions } : {}),
      });
      await runReply({
        context: keeper,
        client,
        request: { ...request, ...(system ? { system } : {}) },
        history,
        reply,
        ...(tools ? { tools } : {}),
        ...(cap.kind === 'enforced' ? { spendCheck: cap.check } : {}),
        events: {
          delta: (content, reasoning) => {
            batcher.add(content, reasoning);
            journal.append(content, reasoning);
          },
          toolStep: (index, step) => {
            batcher.flush();
            this.host.post({ type: 'toolStep', id: reply.id, index, step });
          },
          // The steps reach the disk once per round (the journal carries text only): one answer
          // can carry thousands of steps, and a save serializes the whole conversation.
          roundEnded: () => void journal.flush().then(() => this.host.save(conversation)),
          spendEstimated: () => this.tellEstimated(settings.chat.maxSpendPerReply),
          spendCapPassed: (passed) => (capPassed = passed),
        },
        signal,
      });
      batcher.flush();
      if (reply.finishReason === SPEND_CAP_FINISH && capPassed)
        return await this.end(conversation, reply, 'stopped', spendCapStop(capPassed));
      return await this.end(conversation, reply, 'done');
    } catch (error) {
      batcher.flush();
      if (isAbortError(error) && signal.aborted) return await this.end(conversation, reply, 'stopped');
      return await this.end(conversation, reply, 'error', await this.describeFailure(error, reply));
    }
  }

  /** A cap is set but the model has no prices: said once per model, never ignored silently. */
  private tellUncapped(model: string, cap: number): void {
    if (this.toldUncapped.has(model)) return;
    this.toldUncapped.add(model);
    this.host.notice(
      vscode.l10n.t(
        'Your spend cap of {0} per reply cannot be enforced for {1}: the model catalog lists no prices for it. Its replies run without the cap.',
        usdText(cap),
        model,
      ),
      'warning',
      {
        label: vscode.l10n.t('Open Setting'),
        run: () => openSettings(MAX_SPEND_PER_REPLY_KEY),
      },
    );
  }

  /** A round came without token counts: the cap counts an estimate (said as it happens, before the next round). */
  private tellEstimated(cap: number): void {
    if (this.toldEstimated) return;
    this.toldEstimated = true;
    this.host.notice(
      vscode.l10n.t(
        'The gateway reported no token counts for this reply, so your spend cap of {0} per reply is checked against an estimate from the length of what was sent and received.',
        usdText(cap),
      ),
      'warning',
    );
  }

  /** The error card of a failed reply (out of credits: when they return, read from /quota if no reading is at hand). */
  private async describeFailure(error: unknown, reply: AssistantTurn): Promise<ChatErrorInfo> {
    this.deps.connection.reportFailure(error, true); // the reply's error card shows it, with its fix
    this.deps.log.warn(
      `Chat reply with ${reply.model} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
    const reset =
      lastReading(this.deps.credits.state)?.reset ??
      (isQuotaExhausted(error) ? await this.deps.credits.resetTime() : undefined);
    const setup = this.deps.connection.setup;
    return describeChatError(error, {
      baseUrl: setup.baseUrl,
      connection: diagnosisContext(setup),
      ...(reset ? { reset } : {}),
    });
  }

  /** Marks the reply ended, tells the webview, saves the conversation; true when the save landed. */
  private async end(
    conversation: Conversation,
    reply: AssistantTurn,
    status: ReplyStatus,
    error?: ChatErrorInfo,
  ): Promise<boolean> {
    reply.status = status;
    if (error) reply.error = error;
    this.host.post({
      type: 'replyEnded',
      id: reply.id,
      status,
      ...(reply.finishReason ? { finishReason: reply.finishReason } : {}),
      ...(error ? { error } : {}),
      ...(reply.usage ? { usage: reply.usage } : {}),
      ...(reply.sources?.length ? { sources: reply.sources } : {}),
    });
    this.host.ended();
    const saved = (await this.host.save(conversation)) !== undefined;
    await this.host.postHistory();
    return saved;
  }

  /** Tells the reply's cost once it is known (a balance difference can take seconds), and saves it with the reply. */
  private reportCost(conversation: Conversation, reply: AssistantTurn, cost: CostMeasurement): void {
    // finish() first: it decides at once whether other requests overlapped this one.
    let toldPending = false;
    const pricing = modelPricing(this.deps.catalog.model(reply.model));
    const measured = cost.finish({
      ...(reply.usage ? { usage: reply.usage } : {}),
      ...(pricing ? { pricing } : {}),
      pending: () => {
        // A failed request rarely costs anything: no "pending" on its error box.
        if (reply.status === 'error') return;
        toldPending = true;
        this.host.post({ type: 'replyCost', id: reply.id, cost: { credits: 0, estimate: false, state: 'pending' } });
      },
    });
    this.deps.connection.reportModelUse();
    void measured.then(async (spent) => {
      if (!spent) {
        // "cost pending" must not stay on screen when no cost could be told after all.
        if (toldPending)
          this.host.post({ type: 'replyCost', id: reply.id, cost: { credits: 0, estimate: false, state: 'unknown' } });
        return;
      }
      reply.cost = spent;
      this.host.post({ type: 'replyCost', id: reply.id, cost: spent });
      this.host.costChanged(conversation);
      await this.host.save(conversation);
      await this.host.postHistory(); // the History row's total
    });
  }

  private providerOf(model: string): string | undefined {
    const found = this.deps.catalog.model(model);
    return typeof found?.provider === 'string' ? found.provider : undefined;
  }
}
