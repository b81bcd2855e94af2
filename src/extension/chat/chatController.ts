// One chat (the sidebar view's, or an editor panel's): the open conversation and what the webview
// shows of it. Messages from the webview go through chatMessageRouter.ts to the room that handles
// them: the reply session (sending, stopping, regenerating), the attachments, the saver (history
// and the changes of other chat views), and the chat actions. The webview only renders; every
// request to the gateway and every file access happens here. Survives its webview being hidden
// and recreated.
import * as vscode from 'vscode';
import type { Attachment, ChatParameters, Conversation, ImageRef } from '../../shared/chatModel';
import type { ChatToHostMessage, HostToChatMessage } from '../../shared/chatProtocol';
import type { ResearchJob } from '../../core/types/account';
import { newId } from '../../shared/ids';
import { NO_CHECKPOINTS } from '../checkpoints/checkpointRecorder';
import { readSettings } from '../config';
import { Disposable } from '../lifecycle';
import { runChatAction, type ChatActionHost } from './chatActions';
import { ChatAttachments } from './chatAttachments';
import { ChatMentions } from './chatMentions';
import { ChatImages } from './chatImages';
import type { ChatDeps } from './chatDeps';
import { routeChatMessage, type ChatRoutes } from '../../core/chat/chatMessageRouter';
import { chatModelOptions, chooseChatModel, rememberChatModel } from './chatModels';
import { pickChatModel } from '../models/chatModelPick';
import { ChatNotices } from '../../core/chat/chatNotices';
import { ChatTools } from './chatTools';
import { ContextMeterReporter } from './context/contextMeter';
import { conversationCost } from '../../core/chat/spend/conversationCost';
import { ConversationSaver } from './conversationSaver';
import { ReplySession } from './replySession';
import { ReplyWriter } from './replyWriter';
import { ToolApprovals } from '../../core/chat/toolApprovals';

export class ChatController extends Disposable {
  private conversation: Conversation;
  private historyQuery = '';
  private post: (message: HostToChatMessage) => void = () => undefined;
  private readonly approvals = new ToolApprovals();
  private readonly notices = new ChatNotices((message) => this.post(message));
  /** Replies whose files were restored to before them in this window (each shows it). */
  private readonly restoredTurns = new Set<string>();
  private readonly tools: ChatTools;
  private readonly meter: ContextMeterReporter;
  private readonly attachments: ChatAttachments;
  private readonly mentions: ChatMentions;
  private readonly images: ChatImages;
  /** The webview URI of the images folder (chatProtocol's `imageRoot`). */
  private imageRoot = '';
  private readonly saver: ConversationSaver;
  private readonly session: ReplySession;
  private readonly routes: ChatRoutes;

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
    const post = (message: HostToChatMessage): void => this.post(message);
    this.tools = new ChatTools(
      deps.workspaceFiles,
      this.approvals,
      deps.checkpoints?.recorder ?? NO_CHECKPOINTS,
      deps.gatewayTools,
    );
    this.attachments = new ChatAttachments(deps, { post, changed: () => this.meter.invalidate() });
    this.mentions = new ChatMentions(deps.gatewayTools, {
      attachments: this.attachments,
      conversation: () => this.conversation,
      notice: (text, severity, action) => this.notices.show(text, severity, action),
      restore: (text) => this.prefill(text),
    });
    this.images = new ChatImages(deps, {
      post,
      conversation: () => this.conversation,
      notice: (text) => this.notices.show(text, 'warning'),
      changed: () => this.meter.invalidate(),
    });
    this.meter = this._register(
      new ContextMeterReporter(deps, {
        conversation: () => this.conversation,
        attachments: () => this.attachments.pending,
        pendingImages: () => this.images.pending.length,
        post,
      }),
    );
    this.saver = new ConversationSaver(
      deps,
      {
        current: () => this.conversation,
        replace: (copy) => (this.conversation = copy),
        shownChanged: () => this.postConversation(this.session.streaming),
        postHistory: () => this.postHistory(),
      },
      restoreLast,
    );
    const writer = new ReplyWriter(deps, this.tools, {
      post,
      save: (conversation) => this.saver.save(conversation),
      postHistory: () => this.postHistory(),
      ended: () => this.meter.invalidate(),
      costChanged: (conversation) => conversation.id === this.conversation.id && this.postConversationCost(),
      notice: (text, severity, action) => this.notices.show(text, severity, action),
    });
    this.session = this._register(
      new ReplySession(deps, this.attachments, this.images, writer, {
        conversation: () => this.conversation,
        post,
        turnsChanged: () => this.meter.invalidate(),
        notice: (text) => this.notices.show(text, 'warning'),
      }),
    );
    this.routes = this.routesTable();
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.approvals.forgetGrants()));
    this._register(deps.catalog.onDidChange(() => this.postModels()));
    this._register(deps.connection.onDidChange(() => void this.postConnection()));
    if (deps.checkpoints)
      this._register(
        deps.checkpoints.onDidRecord(
          (reply) => reply.conversationId === this.conversation.id && void this.postCheckpoints(),
        ),
      );
  }

  /**
   * Where messages go (a new webview after the view was hidden and shown again); `imageRoot`: that
   * webview's URI of the images folder.
   */
  attach(post: (message: HostToChatMessage) => void, imageRoot = ''): void {
    this.imageRoot = imageRoot;
    // The last step before the webview: nothing the gateway echoed of the key reaches it.
    this.post = (message) => post(this.deps.apiKeys.redact(message));
  }

  /** The folder of the conversations' images, for the webview's resource roots. */
  get imageFolder(): vscode.Uri | undefined {
    return this.deps.imageFolder;
  }

  get current(): Conversation {
    return this.conversation;
  }

  /** Context added for the next message (shown as chips). */
  get pendingAttachments(): readonly Attachment[] {
    return this.attachments.pending;
  }

  /** Images added for the next message. */
  get pendingImages(): readonly ImageRef[] {
    return this.images.pending;
  }

  /** Saves asked of the store, per conversation id (tests check that a reply saves per round, not per event). */
  get saveCounts(): ReadonlyMap<string, number> {
    return this.saver.saveCounts;
  }

  handle(message: ChatToHostMessage): Promise<void> {
    return routeChatMessage(message, this.routes);
  }

  /** Everything a freshly loaded webview needs. Loads the last conversation the first time. */
  private async sendInitialState(openLast: boolean): Promise<void> {
    if (openLast && this.conversation.turns.length === 0 && !this.session.busy) {
      const lastId = await this.deps.lastConversation.get();
      const last = lastId ? await this.deps.store.load(lastId).catch(() => undefined) : undefined;
      if (last && !this.session.busy && this.conversation.turns.length === 0) this.conversation = last;
    }
    await this.postConnection();
    if (this.imageRoot) this.post({ type: 'imageRoot', root: this.imageRoot });
    this.postModels();
    if (!this.deps.catalog.snapshot) void this.deps.catalog.refresh();
    this.post({ type: 'parameters', parameters: this.conversation.parameters });
    this.postConversation(this.session.busy);
    this.attachments.post();
    this.images.post();
    await this.postCheckpoints();
    await this.postHistory();
  }

  /** Starts a new, empty conversation (stopping a reply in flight; what arrived is kept). */
  newConversation(): Promise<void> {
    return this.open(this.blankConversation());
  }

  /** Adds the editor selection (from "Ask about Selection"); true when there was one. */
  addSelection(editor?: vscode.TextEditor): boolean {
    return this.attachments.addSelection(editor);
  }

  /** The Research view's "Attach Report to Chat": a finished job's report as a chip for the next message. */
  async attachResearchReport(job: ResearchJob): Promise<void> {
    if (this.deps.gatewayTools) await this.mentions.attachReport(this.deps.gatewayTools, job);
  }

  prefill(text: string): void {
    this.post({ type: 'prefill', text });
  }

  stop(): Promise<void> {
    return this.session.stop();
  }

  /** Switches the webview to the history list. */
  async showHistory(): Promise<void> {
    await this.postHistory();
    this.post({ type: 'showView', view: 'history' });
  }

  private async postHistory(): Promise<void> {
    const conversations = await this.deps.store.list(this.historyQuery).catch(() => []);
    this.post({ type: 'history', conversations, query: this.historyQuery });
  }

  /** What each webview message does (chatMessageRouter.ts calls one member per message type). */
  private routesTable(): ChatRoutes {
    const { deps, session, attachments } = this;
    return {
      ready: () => this.sendInitialState(this.restoreLast),
      // @codebase and @research add their context first (or hold the message back, saying why).
      send: async (text) => {
        if (await this.mentions.resolve(text)) await session.send(text);
      },
      stop: () => session.stop(),
      regenerate: () => session.regenerate(),
      editAndResend: (turnId, text) => session.editAndResend(turnId, text),
      selectModel: (model) => this.selectModel(model),
      pickModel: async () => {
        const model = await pickChatModel(this.deps.catalog, this.conversation.model || chooseChatModel(this.deps));
        if (model) await this.selectModel(model);
      },
      setParameters: (parameters) => this.setParameters(parameters),
      approveTool: (callId, decision) => this.approvals.decide(callId, decision),
      openToolDiff: async (callId) => {
        if (!(await this.tools.openDiff(callId)))
          this.notices.show(
            vscode.l10n.t('The diff of that edit is no longer kept in this window; the card shows it.'),
          );
      },
      openResearchJob: async (jobId) => {
        await vscode.commands.executeCommand('unifiedInference.research.reveal', jobId);
      },
      addContext: (source) => attachments.addContext(source),
      attachFile: (path) => attachments.attachFile(path),
      removeAttachment: (id) => attachments.remove(id),
      addImage: (name, data) => this.images.addData(name, data),
      pickImage: () => this.images.pick(),
      removeImage: (id) => this.images.remove(id),
      suggestFiles: async (requestId, query) =>
        this.post({ type: 'fileSuggestions', requestId, paths: await deps.files.suggest(query) }),
      newConversation: () => this.newConversation(),
      openConversation: (id) => this.openConversation(id),
      // The checkpoints refuse a restore while a reply of any chat is writing, or another restore is under way.
      restoreCheckpoint: async (turnId) => {
        const conversation = this.conversation;
        if ((await deps.checkpoints?.restore({ conversationId: conversation.id, turnId })) !== 'restored') return;
        // The reply's files and every later reply's are back to before it: each is marked restored.
        const from = conversation.turns.findIndex((turn) => turn.id === turnId);
        for (const turn of conversation.turns.slice(Math.max(0, from))) this.restoredTurns.add(turn.id);
        await this.postCheckpoints();
      },
      searchHistory: (query) => {
        this.historyQuery = query;
        return this.postHistory();
      },
      applyCode: async (turnId, blockIndex) =>
        void (await deps.codeApplier.applyFromReply(this.conversation, turnId, blockIndex)),
      openInstructionFile: (path) => this.meter.openFile(path),
      draftSize: (chars) => this.meter.draftChanged(chars),
      action: (message) => runChatAction(message, this.chatActionHost()),
    };
  }

  private async selectModel(model: string): Promise<void> {
    this.conversation.model = model;
    await rememberChatModel(this.deps, model);
    this.postModels();
    if (this.conversation.turns.length > 0) await this.saver.save();
  }

  private async setParameters(parameters: ChatParameters): Promise<void> {
    this.conversation.parameters = parameters;
    this.meter.invalidate();
    await this.saver.save();
  }

  private async openConversation(id: string): Promise<void> {
    const conversation = await this.deps.store.load(id);
    if (conversation) await this.open(conversation);
    else void vscode.window.showWarningMessage(vscode.l10n.t('That conversation could not be read (see the log).'));
  }

  private async open(conversation: Conversation): Promise<void> {
    await this.session.stop();
    this.conversation = conversation;
    if (this.restoreLast) await this.deps.lastConversation.set(conversation.turns.length ? conversation.id : undefined);
    this.postConversation(false);
    this.images.post(); // the pending images were the previous conversation's
    this.post({ type: 'parameters', parameters: conversation.parameters });
    this.postModels();
    await this.postCheckpoints();
  }

  private blankConversation(): Conversation {
    const now = Date.now();
    return {
      id: newId('c'),
      title: vscode.l10n.t('New conversation'),
      model: '',
      parameters: {},
      turns: [],
      createdAt: now,
      updatedAt: now,
    };
  }

  /** The whole conversation to the webview (opened, loaded, or merged with another chat's changes). */
  private postConversation(busy: boolean): void {
    this.post({ type: 'conversation', conversation: this.conversation, busy });
    this.postConversationCost();
    this.meter.invalidate();
  }

  /** The open conversation's total cost, for the header. */
  private postConversationCost(): void {
    const cost = conversationCost(this.conversation.turns);
    this.post({ type: 'conversationCost', ...(cost ? { cost } : {}) });
  }

  /** The model list and the selected model (the catalog or the choice changed; the meter's context length with it). */
  private postModels(): void {
    const { options, loading, error } = chatModelOptions(this.deps);
    const selected = this.conversation.model || chooseChatModel(this.deps) || '';
    this.post({ type: 'models', models: options, selected, loading, ...(error ? { error } : {}) });
    this.meter.invalidate();
  }

  private async postConnection(): Promise<void> {
    this.post({
      type: 'connectionState',
      state: { baseUrl: readSettings().baseUrl, keySource: await this.deps.apiKeys.source() },
    });
  }

  /** Which turns of the open conversation have a checkpoint (they show "Restore files to before this reply"). */
  private async postCheckpoints(): Promise<void> {
    const id = this.conversation.id;
    const turnIds = (await this.deps.checkpoints?.turnsWithCheckpoints(id).catch(() => undefined)) ?? [];
    if (id === this.conversation.id)
      this.post({ type: 'checkpoints', turnIds, restored: turnIds.filter((turn) => this.restoredTurns.has(turn)) });
  }

  private chatActionHost(): ChatActionHost {
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
        this.saver.willDelete(id);
        if (id !== this.conversation.id) return;
        await this.open(this.blankConversation());
        // Deleted from the history: the history stays in view (opening a conversation shows the chat).
        this.post({ type: 'showView', view: 'history' });
      },
      onDeleted: () => this.postHistory(),
      onRestored: (id) => this.saver.restored(id),
      notice: (text, severity, action) => this.notices.show(text, severity, action),
      noticeAction: (id) => this.notices.act(id),
    };
  }
}
