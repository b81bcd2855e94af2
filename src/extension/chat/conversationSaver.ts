// Writes a chat's conversations to the history, and tells the user when another chat view or
// window changed the same conversation meanwhile (the store merges, copies, or finds it deleted).
// Remembers what was deleted here, so that a late save (a reply's cost arriving) never brings a
// conversation back.
import * as vscode from 'vscode';
import type { Conversation } from '../../shared/chatModel';
import { errorMessage } from '../../shared/errorMessage';
import { newId } from '../../shared/ids';
import type { ChatDeps } from './chatDeps';
import type { SaveOutcome } from '../../core/chat/history/conversationStore';

export interface SaverHost {
  /** The conversation the chat shows. */
  current(): Conversation;
  /** The chat shows this conversation instead (a copy saved under a new id). */
  replace(conversation: Conversation): void;
  /** The shown conversation took others' changes (a merge, or a copy's id and title): the webview shows it again. */
  shownChanged(): void;
  postHistory(): Promise<void>;
}

export class ConversationSaver {
  /** Saves asked of the store, per conversation id (tests check that a reply saves per round, not per event). */
  readonly saveCounts = new Map<string, number>();
  private readonly deleted = new Set<string>();

  /**
   * `remember`: the saved conversation, when shown, becomes the workspace's last conversation
   * (the sidebar's; a panel never hands its conversation to the sidebar).
   */
  constructor(
    private readonly deps: Pick<ChatDeps, 'store' | 'log' | 'lastConversation'>,
    private readonly host: SaverHost,
    private readonly remember: boolean,
  ) {}

  /** Saves a conversation that has messages (an empty new one is not history yet); undefined when nothing was written. */
  async save(conversation = this.host.current()): Promise<SaveOutcome | undefined> {
    if (conversation.turns.length === 0 || this.deleted.has(conversation.id)) return undefined;
    this.saveCounts.set(conversation.id, (this.saveCounts.get(conversation.id) ?? 0) + 1);
    conversation.updatedAt = Date.now();
    try {
      const outcome = await this.deps.store.save(conversation);
      this.report(conversation, outcome);
      if (outcome.kind === 'deleted') return undefined;
      if (conversation === this.host.current() && this.remember) await this.deps.lastConversation.set(conversation.id);
      return outcome;
    } catch (error) {
      this.deps.log.error(`Could not save the conversation: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Unified Inference could not save the conversation (see the log). It stays open here.'),
      );
      return undefined;
    }
  }

  /** Before a delete from this chat: no later save of it may write it again. */
  willDelete(id: string): void {
    this.deleted.add(id);
  }

  /** The delete was undone. */
  restored(id: string): void {
    this.deleted.delete(id);
  }

  /** Tells the user when another chat view or window changed the same conversation. */
  private report(conversation: Conversation, outcome: SaveOutcome): void {
    const shown = conversation === this.host.current();
    if (outcome.kind === 'merged') {
      if (shown) this.host.shownChanged();
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          '"{0}" was also changed in another chat view or window; the messages of both are kept.',
          conversation.title,
        ),
      );
    } else if (outcome.kind === 'copied') {
      if (shown) this.host.shownChanged();
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          '"{0}" was rewritten in another chat view or window too, so this version was saved as a copy: "{1}".',
          conversation.title,
          outcome.title,
        ),
      );
    } else if (outcome.kind === 'deleted' && !this.deleted.has(conversation.id)) {
      // Not brought back by this later save: the user decides.
      this.deleted.add(conversation.id);
      const saveCopy = vscode.l10n.t('Save a Copy');
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t(
            '"{0}" was deleted in another chat view or window. This chat still shows it, unsaved.',
            conversation.title,
          ),
          saveCopy,
        )
        .then(async (choice) => {
          if (choice !== saveCopy) return;
          const copy: Conversation = { ...conversation, id: newId('c') };
          if (this.host.current() === conversation) this.host.replace(copy);
          await this.save(copy);
          await this.host.postHistory();
        });
    }
  }
}
