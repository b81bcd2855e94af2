// The reply a chat is writing, at most one at a time: sending a message, stopping, regenerating,
// editing a message and sending it again. What the reply itself does is replyWriter.ts's.
import * as vscode from 'vscode';
import type { AssistantTurn, Conversation, ImageRef, UserTurn } from '../../shared/chatModel';
import type { HostToChatMessage } from '../../shared/chatProtocol';
import { newId } from '../../shared/ids';
import { SerialQueue } from '../../shared/serialQueue';
import type { ChatAttachments } from './chatAttachments';
import type { ChatImages } from './chatImages';
import type { ChatDeps } from './chatDeps';
import { chooseChatModel } from './chatModels';
import { turnsToWire } from '../../core/chat/conversationWire';
import { titleFromText } from '../../core/chat/history/conversationTitle';
import type { ReplyWriter } from './replyWriter';

interface Running {
  readonly controller: AbortController;
  readonly reply: AssistantTurn;
  readonly done: Promise<void>;
}

export interface ReplySessionHost {
  /** The conversation the chat shows (the one a message goes to). */
  conversation(): Conversation;
  post(message: HostToChatMessage): void;
  /** Turns were added or removed: the context meter estimates again. */
  turnsChanged(): void;
  /** Says something in the chat (a message that cannot go as it is). */
  notice(text: string): void;
}

export class ReplySession {
  private running: Running | undefined;
  private readonly sendQueue = new SerialQueue();

  constructor(
    private readonly deps: Pick<ChatDeps, 'catalog' | 'workspaceState' | 'checkpoints'>,
    private readonly attachments: ChatAttachments,
    private readonly images: ChatImages,
    private readonly writer: ReplyWriter,
    private readonly host: ReplySessionHost,
  ) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** A reply's text is still arriving (its end saves after the status is final: not busy then). */
  get streaming(): boolean {
    return this.running?.reply.status === 'streaming';
  }

  /**
   * The webview offers Send again when `replyEnded` is posted, while the reply is still saving: a
   * message sent then waits for that reply to finish instead of being dropped (the composer has
   * already given it up). Sends are taken one after another.
   */
  send(text: string): Promise<void> {
    return this.sendQueue.run(() => this.sendAfterReply(text));
  }

  private async sendAfterReply(text: string): Promise<void> {
    while (this.running) await this.running.done;
    const pendingImages = this.images.pending.length;
    if (!text.trim() && this.attachments.pending.length === 0 && pendingImages === 0) return;
    // The model was switched after the images were added: they are not sent to one that cannot read them.
    if (pendingImages > 0 && !this.images.modelTakesImages()) {
      this.host.notice(
        vscode.l10n.t(
          'The selected model does not take images: remove the images or pick a model that takes them. The message was not sent.',
        ),
      );
      this.host.post({ type: 'prefill', text });
      return;
    }
    const conversation = this.host.conversation();
    const images = this.images.take();
    const turn: UserTurn = {
      role: 'user',
      id: newId('u'),
      text,
      attachments: this.attachments.take(),
      ...(images.length ? { images } : {}),
      createdAt: Date.now(),
    };
    if (conversation.turns.length === 0) {
      conversation.title = titleFromText(text || turn.attachments[0]?.path || turn.images?.[0]?.name || 'Image');
      this.host.post({ type: 'title', title: conversation.title });
    }
    this.addTurn(conversation, turn);
    await this.reply();
  }

  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.controller.abort();
    await running.done;
  }

  async regenerate(): Promise<void> {
    if (this.running) return;
    const last = this.host.conversation().turns.at(-1);
    if (!last) return;
    if (last.role === 'assistant') this.removeFrom(last.id);
    await this.reply();
  }

  async editAndResend(turnId: string, text: string): Promise<void> {
    if (this.running) await this.stop();
    const conversation = this.host.conversation();
    const original = conversation.turns.find((turn): turn is UserTurn => turn.id === turnId && turn.role === 'user');
    if (!original || (!text.trim() && original.attachments.length === 0 && !original.images?.length)) return;
    const removed = imagesFrom(conversation, turnId);
    this.removeFrom(turnId);
    this.addTurn(conversation, { ...original, id: newId('u'), text, createdAt: Date.now() });
    await this.images.dropUnused(conversation, removed);
    await this.reply();
  }

  dispose(): void {
    this.running?.controller.abort();
  }

  private addTurn(conversation: Conversation, turn: UserTurn): void {
    conversation.turns.push(turn);
    this.host.post({ type: 'userTurn', turn });
    this.host.turnsChanged();
  }

  private removeFrom(turnId: string): void {
    const turns = this.host.conversation().turns;
    const index = turns.findIndex((turn) => turn.id === turnId);
    if (index < 0) return;
    turns.splice(index);
    this.host.post({ type: 'turnsRemoved', fromId: turnId });
    this.host.turnsChanged();
  }

  /** Writes the reply to the last user turn, start to end; never throws. */
  private async reply(): Promise<void> {
    const conversation = this.host.conversation();
    const model = conversation.model || chooseChatModel(this.deps);
    const reply: AssistantTurn = {
      role: 'assistant',
      id: newId('a'),
      model: model ?? '',
      content: '',
      reasoning: '',
      toolSteps: [],
      status: 'streaming',
      wire: [],
      createdAt: Date.now(),
    };
    const history = turnsToWire(conversation.turns);
    conversation.turns.push(reply);
    if (model && !conversation.model) conversation.model = model;
    this.host.post({ type: 'replyStarted', turn: reply });
    const controller = new AbortController();
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.running = { controller, reply, done };
    // Every chat's replies count: a restore from another view or panel must wait for this one too.
    this.deps.checkpoints?.trackReply(done);
    try {
      await this.writer.write(conversation, reply, history, controller.signal);
    } finally {
      this.running = undefined;
      finish();
    }
  }
}

/** The images of the user turns from `turnId` on (the turns an edit-and-resend removes). */
function imagesFrom(conversation: Conversation, turnId: string): ImageRef[] {
  const index = conversation.turns.findIndex((turn) => turn.id === turnId);
  if (index < 0) return [];
  return conversation.turns.slice(index).flatMap((turn) => (turn.role === 'user' ? (turn.images ?? []) : []));
}
