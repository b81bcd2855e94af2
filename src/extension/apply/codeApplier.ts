// Apply on a chat code block: find the block in the host's own copy of the reply, decide the file
// (the path the block names, else the active editor, else one the user picks; every path through
// the workspace files gate), decide whole file or partial, merge a partial block through the
// gateway, and open the review. Nothing is written here: the review writes on Accept.
import * as vscode from 'vscode';
import { blockTargetPath } from '../../core/apply/codeTarget';
import { classifyBlock } from '../../core/apply/wholeFile';
import { matchFileConventions } from '../../core/apply/mergeAnswer';
import { MAX_APPLY_MERGE_CHARS } from '../../core/limits';
import type { GuardedPath } from '../../core/workspaceFiles/guardedWrites';
import type { WorkspaceFile } from '../../core/workspaceFiles/workspaceFile';
import type { AssistantTurn, Conversation } from '../../shared/chatModel';
import type { CheckpointRecorder, ReplyRef } from '../checkpoints/checkpointRecorder';
import { newId } from '../../shared/ids';
import type { WorkspaceFileIndex } from '../workspaceFiles/workspaceFileIndex';
import { readSettings } from '../config';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import type { ModelCatalog } from '../models/modelCatalog';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import type { ApplyReview } from './applyReview';
import { ApplyReviews, guardedNotice } from './applyReviews';
import { mergeThroughGateway } from './mergeRequest';
import { replyCodeBlocks, type ReplyCodeBlock } from '../../core/apply/replyCodeBlocks';
import { errorMessage } from '../../shared/errorMessage';

export interface CodeApplierDeps {
  readonly connection: GatewayConnection;
  /** Describes a failed merge request the shared way (and reports it once). */
  readonly failures: Failures;
  readonly catalog: ModelCatalog;
  readonly workspaceFiles: WorkspaceFilesService;
  readonly files: WorkspaceFileIndex;
  readonly log: Log;
}

interface Target {
  readonly uri: vscode.Uri;
  readonly display: string;
  readonly exists: boolean;
  readonly sensitive: readonly string[];
  /** Its paths whose content can run code or instruct the model (the same list the edit tools ask for). */
  readonly guarded: readonly GuardedPath[];
}

/** What happened to one Apply (tests read it; the user was told along the way). */
export type ApplyOutcome =
  | { readonly kind: 'review'; readonly review: ApplyReview }
  | { readonly kind: 'unchanged' | 'cancelled' | 'refused' | 'failed'; readonly message?: string };

export class CodeApplier extends Disposable {
  readonly reviews: ApplyReviews;

  /** `checkpoints`: called before the first write of a reply (see checkpointRecorder.ts). */
  constructor(
    private readonly deps: CodeApplierDeps,
    checkpoints: CheckpointRecorder,
  ) {
    super();
    this.reviews = this._register(new ApplyReviews(checkpoints, deps.log));
  }

  /** The chat webview's Apply: block number `blockIndex` of reply `turnId` of `conversation`. */
  async applyFromReply(conversation: Conversation, turnId: string, blockIndex: number): Promise<ApplyOutcome> {
    const turn = conversation.turns.find((t): t is AssistantTurn => t.role === 'assistant' && t.id === turnId);
    const block = turn ? replyCodeBlocks(turn.content)[blockIndex] : undefined;
    if (!turn || !block) return this.refuse(vscode.l10n.t('That code block is no longer in the conversation.'));
    if (!block.closed && turn.status === 'streaming')
      return this.refuse(
        vscode.l10n.t('That code block is still being written: apply it once it is complete.'),
        'info',
      );
    const model = readSettings().apply.model || conversation.model || turn.model;
    return this.applyBlock(block, { conversationId: conversation.id, turnId }, model);
  }

  async applyBlock(block: ReplyCodeBlock, reply: ReplyRef, model: string): Promise<ApplyOutcome> {
    const target = await this.target(block);
    if (!target) return { kind: 'cancelled' };
    if ('refused' in target) return { kind: 'refused', message: target.refused };
    let current: string | undefined;
    if (target.exists) {
      try {
        current = (await vscode.workspace.openTextDocument(target.uri)).getText();
      } catch (error) {
        return this.refuse(`${target.display} cannot be opened as text (${errorMessage(error)}).`);
      }
    }
    const code = block.code;
    const kind = classifyBlock(code, current);
    let proposal: string;
    if (kind === 'whole' || current === undefined) {
      proposal = code;
    } else {
      if (!model)
        return this.refuse(
          vscode.l10n.t(
            'No chat model is selected to merge the block with: pick one in the chat, or set {0}.',
            'unifiedInference.apply.model',
          ),
        );
      if (current.length > MAX_APPLY_MERGE_CHARS) {
        return this.refuse(
          `${target.display} is too large to merge a partial block into through a model (${current.length.toLocaleString('en-US')} characters, at most ${MAX_APPLY_MERGE_CHARS.toLocaleString('en-US')}). Ask for the whole changed part with its surroundings, or make the change by hand.`,
        );
      }
      if (target.sensitive.length && !(await this.confirmSensitiveSend(target, model))) return { kind: 'cancelled' };
      const provider = this.deps.catalog.model(model)?.provider;
      const merged = await mergeThroughGateway(
        this.deps.connection,
        this.deps.failures,
        this.deps.log,
        { display: target.display, current, block: code, model, ...(typeof provider === 'string' ? { provider } : {}) },
        async () => {
          await this.applyBlock(block, reply, model);
        },
      );
      if (!merged.ok) return { kind: merged.reason, ...(merged.message ? { message: merged.message } : {}) };
      proposal = merged.text;
    }
    proposal =
      current === undefined
        ? proposal.endsWith('\n') || proposal === ''
          ? proposal
          : `${proposal}\n`
        : matchFileConventions(proposal, current);
    // The document may have changed during the merge: the review starts from its text now.
    const base = target.exists ? (await vscode.workspace.openTextDocument(target.uri)).getText() : '';
    if (current !== undefined && base !== current) {
      return this.refuse(
        vscode.l10n.t(
          '{0} changed while the block was being merged. Apply the block again to merge it with the new text.',
          target.display,
        ),
      );
    }
    if (target.exists && proposal === base) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The code block changes nothing in {0}.', target.display),
      );
      return { kind: 'unchanged' };
    }
    if (target.sensitive.length) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          '{0} is a sensitive file ({1}): review the proposed change carefully before you accept it.',
          target.display,
          target.sensitive.join(', '),
        ),
      );
    }
    // The same words as the edit tools' approval card; Accept then asks once more (applyReviews.ts).
    if (target.guarded.length) void vscode.window.showWarningMessage(guardedNotice(target.guarded));
    const guarded = target.guarded.length ? { guarded: target.guarded } : {};
    const review = await this.reviews.open({
      id: newId('r'),
      target: target.uri,
      display: target.display,
      exists: target.exists,
      sensitive: target.sensitive,
      ...guarded,
      base,
      proposal,
      reply,
    });
    return { kind: 'review', review };
  }

  /** The file for a block; undefined when the user cancelled a choice. */
  private async target(block: ReplyCodeBlock): Promise<Target | { refused: string } | undefined> {
    const files = await this.deps.workspaceFiles.open();
    if (files.folderCount === 0) {
      const message = vscode.l10n.t('Open a folder first: Apply writes only to files inside the workspace folders.');
      void vscode.window.showInformationMessage(message);
      return { refused: message };
    }
    const named = blockTargetPath(block.info, block.lineAbove, block.code);
    if (named) {
      const resolved = await files.resolveForWrite(named);
      if (resolved.ok) return this.asTarget(files.absolutePath(resolved.file), resolved.file, resolved.exists);
      const message = vscode.l10n.t(
        'The code block names {0}, which Apply will not write: {1}',
        named,
        resolved.message,
      );
      this.deps.log.warn(`Apply: ${message}`);
      const chooseFile = vscode.l10n.t('Choose a File…');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('{0} Nothing was written.', message),
        chooseFile,
      );
      if (choice !== chooseFile) return { refused: message };
      return this.pick(files);
    }
    // With the chat in an editor panel there is no active text editor: a visible one is meant.
    const editor =
      vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'file');
    if (editor && editor.document.uri.scheme === 'file') {
      // 'write': Apply writes there, so links the other way and hard links are looked for too.
      const resolved = await this.deps.workspaceFiles.resolveUri(files, editor.document.uri, 'write');
      if (resolved.ok) return this.asTarget(files.absolutePath(resolved.file), resolved.file, true);
    }
    return this.pick(files);
  }

  private async pick(files: Awaited<ReturnType<WorkspaceFilesService['open']>>): Promise<Target | undefined> {
    const paths = await this.deps.files.paths();
    const picked = await vscode.window.showQuickPick(paths, {
      title: vscode.l10n.t('Apply the Code Block to…'),
      placeHolder: vscode.l10n.t('The block names no file and no editor is open: pick the file to change'),
    });
    if (!picked) return undefined;
    const resolved = await files.resolveForWrite(picked);
    if (!resolved.ok) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Apply will not write {0}: {1}', picked, resolved.message));
      return undefined;
    }
    return this.asTarget(files.absolutePath(resolved.file), resolved.file, resolved.exists);
  }

  private asTarget(absolute: string, file: WorkspaceFile, exists: boolean): Target {
    return {
      uri: vscode.Uri.file(absolute),
      display: file.display,
      exists,
      sensitive: file.sensitive,
      guarded: file.guarded,
    };
  }

  private async confirmSensitiveSend(target: Target, model: string): Promise<boolean> {
    const sendAndMerge = vscode.l10n.t('Send and Merge');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} is a sensitive file ({1}).', target.display, target.sensitive.join(', ')),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Merging the code block sends the whole file to {0} through the gateway. Nothing is written before you accept the change.',
          model,
        ),
      },
      sendAndMerge,
    );
    return choice === sendAndMerge;
  }

  private refuse(message: string, level: 'info' | 'warning' = 'warning'): ApplyOutcome {
    if (level === 'info') void vscode.window.showInformationMessage(message);
    else void vscode.window.showWarningMessage(message);
    return { kind: 'refused', message };
  }
}
