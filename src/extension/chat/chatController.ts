// One chat (the sidebar view's, or an editor panel's): the open conversation, the reply being
// written, and everything the webview asks for. The webview only renders; every request to the
// gateway and every file access happens here. Survives its webview being hidden and recreated.
import * as vscode from 'vscode';
import type { Attachment, AssistantTurn, ChatErrorInfo, ChatParameters, Conversation, UserTurn } from '../../shared/chatModel';
import type { ChatToHostMessage, HostToChatMessage } from '../../shared/chatProtocol';
import { readSettings } from '../config';
import { lastReading, type ChatDeps } from './chatDeps';
import { Disposable } from '../lifecycle';
import { runChatAction } from './chatActions';

import { describeChatError } from '../errors/describeError';
import { missingSetup, SetupRequiredError } from '../errors/setupError';
import { isAbortError } from '../../core/errors';
import { modelPricing, type TokenPricing } from '../../core/models/modelPricing';
import { newId } from '../../shared/ids';
import { chatModelKey, chatModelOptions, chooseChatModel } from './chatModels';
import { turnsToWire } from './conversationWire';
import { DeltaBatcher } from './deltaBatcher';
import { documentAttachment, fileAttachment, selectionAttachment } from './editorContext';
import type { SaveOutcome } from './history/conversationStore';
import { titleFromText } from './history/conversationTitle';
import { balanceReader } from './replyCost';
import type { ToolHost } from '../answers/toolHost';
import { runReply } from './replyRunner';
import { ToolApprovals } from './toolApprovals';
import { ChatTools } from './chatTools';
import { NO_CHECKPOINTS } from '../checkpoints/checkpointRecorder';
import { ContextMeterReporter } from './context/contextMeter';
import { prepareReplyContext } from './context/replyContext';

/**
 * Told to the model when the workspace tools are on but the workspace is not trusted: the files
 * of an untrusted repository are where a prompt injection would hide, so the model gets no tools,
 * and can say why instead of guessing.
 */
const UNTRUSTED_NOTE = 'The workspace tools (reading, listing, searching and editing the user\'s files) are off because this workspace is not trusted in VS Code (Restricted Mode). If the user asks about their files, say so: they can trust the workspace, or attach files to their message.';


interface Running {
  readonly controller: AbortController;
  readonly reply: AssistantTurn;
  readonly done: Promise<void>;
}

function isQuotaExhausted(error: unknown): boolean {
  return error instanceof Error && error.name === 'RateLimitError' && (error as { quotaExhausted?: unknown }).quotaExhausted === true;
}

export class ChatController extends Disposable {
  private conversation: Conversation;
  private attachments: Attachment[] = [];
  private running: Running | undefined;
  private sendQueue: Promise<void> = Promise.resolve();
  private readonly approvals = new ToolApprovals();
  private readonly tools: ChatTools;
  private historyQuery = '';
  /** Conversations deleted here: a late save (a reply's cost arriving) must not bring one back. */
  private readonly deleted = new Set<string>();
  /** Replies whose final save landed (their journal can go). */
  private readonly savedReplies = new Set<string>();
  private post: (message: HostToChatMessage) => void = () => undefined;
  private readonly meter: ContextMeterReporter;

  /**
   * `restoreLast` (the sidebar): the first page load reopens the workspace's last conversation, and
   * the conversation it has open is remembered as that. A panel does neither, so it never hands its
   * conversation to the sidebar (two controllers saving one conversation overwrite each other).
   */
  constructor(
    private readonly deps: ChatDeps,
    private readonly restoreLast = true,
  ) {
    super();
    this.conversation = this.blankConversation();
    this.tools = new ChatTools(deps.workspaceFiles, this.approvals, deps.checkpoints?.recorder ?? NO_CHECKPOINTS);
    this.meter = this._register(new ContextMeterReporter(deps, { conversation: () => this.conversation, attachments: () => this.attachments, post: (message) => this.post(message) }));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.approvals.forgetGrants()));
    this._register(deps.catalog.onDidChange(() => this.postModels()));
    this._register(deps.connection.onDidChange(() => void this.postConnection()));
    this._register({ dispose: () => this.running?.controller.abort() });
    if (deps.checkpoints) this._register(deps.checkpoints.onDidRecord((reply) => reply.conversationId === this.conversation.id && void this.postCheckpoints()));
  }

  /** Where messages go (a new webview after the view was hidden and shown again). */
  attach(post: (message: HostToChatMessage) => void): void {
    // The last step before the webview: nothing the gateway echoed of the key reaches it.
    this.post = (message) => {
      post(this.deps.apiKeys.redact(message));
      this.meter.after(message);
    };
  }

  get current(): Conversation {
    return this.conversation;
  }

  /** Context added for the next message (shown as chips). */
  get pendingAttachments(): readonly Attachment[] {
    return this.attachments;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** The reply in flight, for tests and for "stop" from outside the webview. */
  get runningReply(): Promise<void> | undefined {
    return this.running?.done;
  }

  /** Everything a freshly loaded webview needs. Loads the last conversation the first time. */
  async sendInitialState(openLast: boolean): Promise<void> {
    if (openLast && this.conversation.turns.length === 0 && !this.running) {
      const lastId = await this.deps.lastConversation.get();
      const last = lastId ? await this.deps.store.load(lastId).catch(() => undefined) : undefined;
      if (last && !this.running && this.conversation.turns.length === 0) this.conversation = last;
    }
    await this.postConnection();
    this.postModels();
    if (!this.deps.catalog.snapshot) void this.deps.catalog.refresh();
    this.post({ type: 'parameters', parameters: this.conversation.parameters });
    this.post({ type: 'conversation', conversation: this.conversation, busy: this.busy });
    this.post({ type: 'attachments', attachments: this.attachments });
    await this.postCheckpoints();
    await this.postHistory();
  }

  async handle(message: ChatToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.sendInitialState(this.restoreLast);
      case 'send':
        return this.send(message.text);
      case 'stop':
        return this.stop();
      case 'regenerate':
      case 'retry':
        return this.regenerate();
      case 'editAndResend':
        return this.editAndResend(message.turnId, message.text);
      case 'selectModel':
        return this.selectModel(message.model);
      case 'setParameters':
        this.conversation.parameters = message.parameters;
        await this.save();
        return;
      case 'approveTool':
        this.approvals.decide(message.callId, message.decision);
        return;
      case 'openToolDiff':
        if (!(await this.tools.openDiff(message.callId))) void vscode.window.showInformationMessage(vscode.l10n.t('The diff of that edit is no longer kept in this window; the card shows it.'));
        return;
      case 'addContext':
        return this.addContext(message.source);
      case 'attachFile': {
        const attachment = await fileAttachment(this.deps.workspaceFiles, message.path);
        if (typeof attachment !== 'string') this.addAttachment(attachment);
        else void vscode.window.showWarningMessage(vscode.l10n.t('Could not add {0}: {1}', message.path, attachment));
        return;
      }
      case 'removeAttachment':
        this.attachments = this.attachments.filter((attachment) => attachment.id !== message.id);
        this.post({ type: 'attachments', attachments: this.attachments });
        return;
      case 'suggestFiles':
        this.post({ type: 'fileSuggestions', requestId: message.requestId, paths: await this.deps.files.suggest(message.query) });
        return;
      case 'newConversation':
        return this.newConversation();
      case 'openConversation': {
        const conversation = await this.deps.store.load(message.id);
        if (conversation) await this.open(conversation);
        else void vscode.window.showWarningMessage(vscode.l10n.t('That conversation could not be read (see the log).'));
        return;
      }
      case 'restoreCheckpoint':
        // The checkpoints refuse a restore while a reply of any chat is writing, or another restore is under way.
        await this.deps.checkpoints?.restore({ conversationId: this.conversation.id, turnId: message.turnId });
        return;
      case 'searchHistory':
        this.historyQuery = message.query;
        return this.postHistory();
      case 'applyCode':
        await this.deps.codeApplier.applyFromReply(this.conversation, message.turnId, message.blockIndex);
        return;
      case 'renameConversation':
      case 'deleteConversation':
      case 'exportConversation':
      case 'copyText':
      case 'insertCode':
      case 'newFile':
      case 'openLink':
      case 'runCommand':
      case 'errorAction':
        if (message.type === 'errorAction' && message.action === 'retry') return this.regenerate();
        return runChatAction(message, this.chatActionHost());
      case 'openInstructionFile':
        return this.meter.openFile(message.path);
    }
  }

  /** Starts a new, empty conversation (stopping a reply in flight; what arrived is kept). */
  newConversation(): Promise<void> {
    return this.open(this.blankConversation());
  }

  /** Adds the editor selection (from "Ask about Selection"); true when there was one. */
  addSelection(editor?: vscode.TextEditor): boolean {
    const attachment = selectionAttachment(editor);
    if (attachment) this.addAttachment(attachment);
    return attachment !== undefined;
  }

  prefill(text: string): void {
    this.post({ type: 'prefill', text });
  }

  /**
   * The webview offers Send again when `replyEnded` is posted, while the reply is still saving: a
   * message sent then waits for that reply to finish instead of being dropped (the composer has
   * already given it up). Sends are taken one after another.
   */
  send(text: string): Promise<void> {
    const sent = this.sendQueue.then(() => this.sendAfterReply(text));
    this.sendQueue = sent.catch(() => undefined);
    return sent;
  }

  private async sendAfterReply(text: string): Promise<void> {
    while (this.running) await this.running.done;
    if (!text.trim() && this.attachments.length === 0) return;
    const turn: UserTurn = { role: 'user', id: newId('u'), text, attachments: this.attachments, createdAt: Date.now() };
    this.attachments = [];
    this.post({ type: 'attachments', attachments: [] });
    if (this.conversation.turns.length === 0) {
      this.conversation.title = titleFromText(text || turn.attachments[0]?.path || '');
      this.post({ type: 'title', title: this.conversation.title });
    }
    this.conversation.turns.push(turn);
    this.post({ type: 'userTurn', turn });
    await this.reply();
  }

  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.controller.abort();
    await running.done;
  }

  private async regenerate(): Promise<void> {
    if (this.running) return;
    const turns = this.conversation.turns;
    const last = turns[turns.length - 1];
    if (!last) return;
    if (last.role === 'assistant') this.removeFrom(last.id);
    await this.reply();
  }

  private async editAndResend(turnId: string, text: string): Promise<void> {
    if (this.running) await this.stop();
    const original = this.conversation.turns.find((turn): turn is UserTurn => turn.id === turnId && turn.role === 'user');
    if (!original || (!text.trim() && original.attachments.length === 0)) return;
    this.removeFrom(turnId);
    const turn: UserTurn = { ...original, id: newId('u'), text, createdAt: Date.now() };
    this.conversation.turns.push(turn);
    this.post({ type: 'userTurn', turn });
    await this.reply();
  }

  private removeFrom(turnId: string): void {
    const index = this.conversation.turns.findIndex((turn) => turn.id === turnId);
    if (index < 0) return;
    this.conversation.turns.splice(index);
    this.post({ type: 'turnsRemoved', fromId: turnId });
  }

  private async selectModel(model: string): Promise<void> {
    this.conversation.model = model;
    await this.deps.workspaceState.update(chatModelKey, model);
    this.postModels();
    if (this.conversation.turns.length > 0) await this.save();
  }

  private async addContext(source: 'selection' | 'activeFile' | 'pickFile'): Promise<void> {
    if (source === 'selection') {
      if (!this.addSelection()) void vscode.window.showInformationMessage(vscode.l10n.t('Select some text in an editor first, then add it to the chat.'));
      return;
    }
    if (source === 'activeFile') {
      const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
      if (editor) this.addAttachment(documentAttachment(editor.document));
      else void vscode.window.showInformationMessage(vscode.l10n.t('Open a file in an editor first, then add it to the chat.'));
      return;
    }
    const path = await this.deps.files.pick();
    const attachment = path ? await fileAttachment(this.deps.workspaceFiles, path) : undefined;
    if (typeof attachment === 'string') void vscode.window.showWarningMessage(vscode.l10n.t('Could not add {0}: {1}', path ?? '', attachment));
    else if (attachment) this.addAttachment(attachment);
  }

  private addAttachment(attachment: Attachment): void {
    // The same range of the same file twice adds nothing.
    const same = this.attachments.find((a) => a.path === attachment.path && a.kind === attachment.kind && a.startLine === attachment.startLine && a.endLine === attachment.endLine);
    if (!same) this.attachments.push(attachment);
    this.post({ type: 'attachments', attachments: this.attachments });
  }

  private async open(conversation: Conversation): Promise<void> {
    if (this.running) await this.stop();
    this.conversation = conversation;
    if (this.restoreLast) await this.deps.lastConversation.set(conversation.turns.length ? conversation.id : undefined);
    this.post({ type: 'conversation', conversation, busy: false });
    this.post({ type: 'parameters', parameters: conversation.parameters });
    this.postModels();
    await this.postCheckpoints();
  }

  private blankConversation(): Conversation {
    const now = Date.now();
    return { id: newId('c'), title: vscode.l10n.t('New conversation'), model: '', parameters: {}, turns: [], createdAt: now, updatedAt: now };
  }

  /** Writes the reply to the last user turn, start to end; never throws. */
  private async reply(): Promise<void> {
    const conversation = this.conversation;
    const model = conversation.model || chooseChatModel(this.deps);
    const reply: AssistantTurn = { role: 'assistant', id: newId('a'), model: model ?? '', content: '', reasoning: '', toolSteps: [], status: 'streaming', wire: [], createdAt: Date.now() };
    const history = turnsToWire(conversation.turns);
    conversation.turns.push(reply);
    if (model && !conversation.model) conversation.model = model;
    this.post({ type: 'replyStarted', turn: reply });
    const controller = new AbortController();
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.running = { controller, reply, done };
    // Every chat's replies count: a restore from another view or panel must wait for this one too.
    this.deps.checkpoints?.trackReply(done);
    try {
      await this.write(conversation, reply, history, controller.signal);
    } finally {
      this.running = undefined;
      finish();
    }
  }

  private async write(conversation: Conversation, reply: AssistantTurn, history: ReturnType<typeof turnsToWire>, signal: AbortSignal): Promise<void> {
    const { connection, log } = this.deps;
    const setup = connection.setup;
    const failEarly = (error: ChatErrorInfo): Promise<void> => this.end(conversation, reply, 'error', error);
    // No address or key: the shared description, as every feature says it.
    const missing = missingSetup(setup);
    const client = setup.client;
    if (missing || !client) return failEarly(describeChatError(new SetupRequiredError(missing ?? 'baseUrl'), { baseUrl: setup.baseUrl }));
    if (!reply.model) return failEarly({ kind: 'noModel', message: vscode.l10n.t('No chat model is selected and the model catalog could not be read.'), actions: ['retry', 'openSettings'] });

    // The user's message is on disk before the request goes out; the reply then goes to an
    // append-only journal as it streams (O(new text) per write, a few times a second), and the
    // whole conversation is written once, when the reply ends.
    await this.save();
    const journal = this.deps.store.startJournal(conversation.id, reply);
    const settings = readSettings();
    const batcher = new DeltaBatcher((content, reasoning) => this.post({ type: 'replyDelta', id: reply.id, ...(content ? { content } : {}), ...(reasoning ? { reasoning } : {}) }));
    const cost = this.deps.costs.start(balanceReader(client));
    const parameters: ChatParameters = conversation.parameters;
    // Checked per reply: trust can be granted (or the setting changed) between two messages.
    const trusted = vscode.workspace.isTrusted;
    const tools: ToolHost | undefined = settings.chat.workspaceTools && trusted ? this.tools.forReply({ conversationId: conversation.id, turnId: reply.id }, settings) : undefined;
    const baseSystem = [parameters.systemPrompt, settings.chat.workspaceTools && !trusted ? UNTRUSTED_NOTE : undefined].filter(Boolean).join('\n\n');
    const turnsBefore = conversation.turns.slice(0, conversation.turns.indexOf(reply));
    const provider = this.providerOf(reply.model);
    try {
      // Instruction files in the system prompt; the keeper fits each round into the context window.
      const request = {
        model: reply.model,
        api: settings.chatApi,
        ...(provider ? { provider } : {}),
        ...(parameters.maxTokens ? { maxTokens: parameters.maxTokens } : {}),
        ...(parameters.temperature !== undefined ? { temperature: parameters.temperature } : {}),
        ...(parameters.reasoningEffort ? { reasoningEffort: parameters.reasoningEffort } : {}),
        ...(parameters.thinkingBudget ? { thinkingBudget: parameters.thinkingBudget } : {}),
        ...(settings.chat.mcpServers.length ? { mcpServers: settings.chat.mcpServers } : {}),
      };
      const { system, keeper } = await prepareReplyContext({
        deps: this.deps, client, system: baseSystem, turns: turnsBefore, reply, post: (message) => this.post(message), request,
        ...(tools ? { tools: tools.definitions } : {}),
      });
      await runReply({
        context: keeper,
        client,
        request: { ...request, ...(system ? { system } : {}) },
        history,
        reply,
        ...(tools ? { tools } : {}),
        events: {
          delta: (content, reasoning) => {
            batcher.add(content, reasoning);
            journal.append(content, reasoning);
          },
          toolStep: (index, step) => {
            batcher.flush();
            this.post({ type: 'toolStep', id: reply.id, index, step });
          },
          // The steps reach the disk once per round (the journal carries text only): one answer
          // can carry thousands of steps, and a save serializes the whole conversation.
          roundEnded: () => void journal.flush().then(() => this.save(conversation)),
        },
        signal,
      });
      batcher.flush();
      await this.end(conversation, reply, 'done');
    } catch (error) {
      batcher.flush();
      if (isAbortError(error) && signal.aborted) {
        await this.end(conversation, reply, 'stopped');
      } else {
        connection.reportFailure(error, true); // the reply's error card shows it, with its fix
        log.warn(`Chat reply with ${reply.model} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
        // Out of credits: the chat says when they return, read from /quota if no reading is at hand.
        const reset = lastReading(this.deps.credits.state)?.reset ?? (isQuotaExhausted(error) ? await this.deps.credits.resetTime() : undefined);
        await this.end(conversation, reply, 'error', describeChatError(error, { baseUrl: setup.baseUrl, ...(reset ? { reset } : {}) }));
      }
    } finally {
      // end() saved the whole conversation: the journal is folded in. Kept if that save failed.
      await journal.close(this.savedReplies.delete(reply.id));
      // finish() first: it decides at once whether other requests overlapped this one.
      let toldPending = false;
      const pricing = this.pricingOf(reply.model);
      const measured = cost.finish({
        ...(reply.usage ? { usage: reply.usage } : {}),
        ...(pricing ? { pricing } : {}),
        pending: () => {
          // A failed request rarely costs anything: no "pending" on its error box.
          if (reply.status === 'error') return;
          toldPending = true;
          this.post({ type: 'replyCost', id: reply.id, cost: { credits: 0, estimate: false, state: 'pending' } });
        },
      });
      connection.reportModelUse();
      void measured.then(async (spent) => {
        if (!spent) {
          // "cost pending" must not stay on screen when no cost could be told after all.
          if (toldPending) this.post({ type: 'replyCost', id: reply.id, cost: { credits: 0, estimate: false, state: 'unknown' } });
          return;
        }
        reply.cost = spent;
        this.post({ type: 'replyCost', id: reply.id, cost: spent });
        await this.save(conversation);
      });
    }
  }

  private async end(conversation: Conversation, reply: AssistantTurn, status: 'done' | 'stopped' | 'error', error?: ChatErrorInfo): Promise<void> {
    reply.status = status;
    if (error) reply.error = error;
    this.post({
      type: 'replyEnded',
      id: reply.id,
      status,
      ...(reply.finishReason ? { finishReason: reply.finishReason } : {}),
      ...(error ? { error } : {}),
      ...(reply.usage ? { usage: reply.usage } : {}),
    });
    if ((await this.save(conversation)) !== undefined) this.savedReplies.add(reply.id);
    await this.postHistory();
  }

  /** The model's token prices, when the catalog lists them (see core/models/modelPricing.ts for the shapes read). */
  private pricingOf(model: string): TokenPricing | undefined {
    return modelPricing(this.deps.catalog.snapshot?.models.find((m) => m.id === model));
  }

  private providerOf(model: string): string | undefined {
    const found = this.deps.catalog.snapshot?.models.find((m) => m.id === model);
    return typeof found?.provider === 'string' ? found.provider : undefined;
  }

  /** Saves asked of the store, per conversation id (tests check that a reply saves per round, not per event). */
  readonly saveCounts = new Map<string, number>();

  /** Saves a conversation that has messages (an empty new one is not history yet); undefined when nothing was written. */
  private async save(conversation = this.conversation): Promise<SaveOutcome | undefined> {
    if (conversation.turns.length === 0 || this.deleted.has(conversation.id)) return undefined;
    this.saveCounts.set(conversation.id, (this.saveCounts.get(conversation.id) ?? 0) + 1);
    conversation.updatedAt = Date.now();
    try {
      const outcome = await this.deps.store.save(conversation);
      this.reportSave(conversation, outcome);
      if (outcome.kind === 'deleted') return undefined;
      if (conversation === this.conversation && this.restoreLast) await this.deps.lastConversation.set(conversation.id);
      return outcome;
    } catch (error) {
      this.deps.log.error(`Could not save the conversation: ${error instanceof Error ? error.message : String(error)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Unified Inference could not save the conversation (see the log). It stays open here.'));
      return undefined;
    }
  }

  /** Tells the user when another chat view or window changed the same conversation. */
  private reportSave(conversation: Conversation, outcome: SaveOutcome): void {
    const shown = conversation === this.conversation;
    // end() saves after the reply's status is final: busy only while a reply really streams.
    const busy = this.running?.reply.status === 'streaming';
    if (outcome.kind === 'merged') {
      if (shown) this.post({ type: 'conversation', conversation, busy });
      void vscode.window.showInformationMessage(vscode.l10n.t('"{0}" was also changed in another chat view or window; the messages of both are kept.', conversation.title));
    } else if (outcome.kind === 'copied') {
      if (shown) this.post({ type: 'conversation', conversation, busy });
      void vscode.window.showWarningMessage(vscode.l10n.t('"{0}" was rewritten in another chat view or window too, so this version was saved as a copy: "{1}".', conversation.title, outcome.title));
    } else if (outcome.kind === 'deleted' && !this.deleted.has(conversation.id)) {
      // Not brought back by this later save: the user decides.
      this.deleted.add(conversation.id);
      const saveCopy = vscode.l10n.t('Save a Copy');
      void vscode.window.showWarningMessage(vscode.l10n.t('"{0}" was deleted in another chat view or window. This chat still shows it, unsaved.', conversation.title), saveCopy).then(async (choice) => {
        if (choice !== saveCopy) return;
        const copy: Conversation = { ...conversation, id: newId('c') };
        if (this.conversation === conversation) this.conversation = copy;
        await this.save(copy);
        await this.postHistory();
      });
    }
  }

  private postModels(): void {
    const { options, loading, error } = chatModelOptions(this.deps);
    const selected = this.conversation.model || chooseChatModel(this.deps) || '';
    this.post({ type: 'models', models: options, selected, loading, ...(error ? { error } : {}) });
  }

  private async postConnection(): Promise<void> {
    this.post({ type: 'connectionState', state: { baseUrl: readSettings().baseUrl, keySource: await this.deps.apiKeys.source() } });
  }

  /** Switches the webview to the history list. */
  async showHistory(): Promise<void> {
    await this.postHistory();
    this.post({ type: 'showView', view: 'history' });
  }

  /** Which turns of the open conversation have a checkpoint (they show "Restore files to before this reply"). */
  private async postCheckpoints(): Promise<void> {
    const id = this.conversation.id;
    const turnIds = (await this.deps.checkpoints?.turnsWithCheckpoints(id).catch(() => undefined)) ?? [];
    if (id === this.conversation.id) this.post({ type: 'checkpoints', turnIds });
  }

  async postHistory(): Promise<void> {
    const conversations = await this.deps.store.list(this.historyQuery).catch(() => []);
    this.post({ type: 'history', conversations, query: this.historyQuery });
  }

  private chatActionHost(): Parameters<typeof runChatAction>[1] {
    return {
      store: this.deps.store,
      log: this.deps.log,
      redact: (value) => this.deps.apiKeys.redact(value),
      current: () => this.conversation,
      onRenamed: (id, title) => {
        if (id === this.conversation.id) {
          this.conversation.title = title;
          this.post({ type: 'title', title });
        }
        return this.postHistory();
      },
      willDelete: async (id) => {
        this.deleted.add(id);
        if (id === this.conversation.id) await this.open(this.blankConversation());
      },
      onDeleted: () => this.postHistory(),
      onRestored: (id) => this.deleted.delete(id),
    };
  }
}
