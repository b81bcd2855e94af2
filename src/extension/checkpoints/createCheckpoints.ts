// The checkpoints' wiring: one CheckpointService per window (its storage is this workspace's), the
// read-only documents "Show Diff" opens, the first prune, and "Restore files to before this reply"
// from end to end (prepare, preview, apply, report). The writers (Apply on a code block, the
// model's edit tools) get `service` as their CheckpointRecorder.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { Log } from '../log';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { CHECKPOINT_SCHEME, CheckpointContentProvider } from './checkpointContent';
import type { CheckpointRecorder, ReplyRef } from './checkpointRecorder';
import {
  CheckpointService,
  CheckpointUnusableError,
  RestoreOutdatedError,
  type PreparedRestore,
} from './checkpointService';
import { confirmRestore } from './restorePreview';
import { closeRestoreDiffs } from './staleDiffs';
import { changingItems } from '../../core/checkpoints/restorePlan';
import { errorMessage } from '../../shared/errorMessage';

/** `busy`: another restore is under way in this window, or a reply is writing (the user was told). */
export type RestoreOutcome = 'restored' | 'cancelled' | 'nothingToDo' | 'failed' | 'busy';

/** What the chat needs of checkpoints. */
export interface ChatCheckpoints {
  /** For the writers (Apply on a code block, the model's edit tools): call beforeChange first. */
  readonly recorder: CheckpointRecorder;
  readonly onDidRecord: vscode.Event<ReplyRef>;
  turnsWithCheckpoints(conversationId: string): Promise<string[]>;
  /** One restore at a time for the whole window, never while a reply of any chat is writing. */
  restore(reply: ReplyRef): Promise<RestoreOutcome>;
  /** A chat reply is running until `done` settles (restores wait for every chat's replies). */
  trackReply(done: Promise<unknown>): void;
}

export interface Checkpoints extends ChatCheckpoints {
  readonly service: CheckpointService;
  /** `confirm` instead of the preview (tests). */
  restore(
    reply: ReplyRef,
    confirm?: (prepared: PreparedRestore, laterReplies: number) => Promise<boolean>,
  ): Promise<RestoreOutcome>;
  readonly disposables: vscode.Disposable[];
}

/** Where this workspace's checkpoints live: its own storage, or (no workspace storage) a folder per set of folders. */
function checkpointRoot(context: Pick<vscode.ExtensionContext, 'storageUri' | 'globalStorageUri'>): string {
  if (context.storageUri) return vscode.Uri.joinPath(context.storageUri, 'checkpoints').fsPath;
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString()).join('\n');
  return vscode.Uri.joinPath(
    context.globalStorageUri,
    'checkpoints',
    createHash('sha256').update(folders).digest('hex').slice(0, 16),
  ).fsPath;
}

/**
 * `confirm` shows the preview (tests answer it instead). Errors are shown to the user and logged;
 * a damaged checkpoint changes nothing. One restore runs at a time in the window (the service's
 * claim), and when files change while the preview is open, nothing is written: the preview shows
 * again, saying what changed.
 */
export async function restoreToBefore(
  service: CheckpointService,
  reply: ReplyRef,
  log: Log,
  confirm: (prepared: PreparedRestore, laterReplies: number) => Promise<boolean> = confirmRestore,
): Promise<RestoreOutcome> {
  const release = service.restoreGuard.claim(vscode.l10n);
  if (typeof release === 'string') {
    void vscode.window.showInformationMessage(release);
    return 'busy';
  }
  try {
    return await restoreClaimed(service, reply, log, confirm);
  } finally {
    release();
  }
}

async function restoreClaimed(
  service: CheckpointService,
  reply: ReplyRef,
  log: Log,
  confirm: (prepared: PreparedRestore, laterReplies: number) => Promise<boolean>,
): Promise<RestoreOutcome> {
  let prepared: PreparedRestore;
  try {
    prepared = await service.prepareRestore(reply);
  } catch (error) {
    const message = errorMessage(error);
    log.warn(`Checkpoints: restore of reply ${reply.turnId} refused: ${message}`);
    void vscode.window
      .showErrorMessage(
        vscode.l10n.t('Cannot restore the files: {0}', message),
        ...(error instanceof CheckpointUnusableError ? [] : [vscode.l10n.t('Show Log')]),
      )
      .then((choice) => choice && log.show());
    return 'failed';
  }
  for (;;) {
    if (changingItems(prepared.plan).length === 0) {
      const skipped = prepared.plan.skipped.map((s) => `${s.path} (${s.reason})`).join(', ');
      void vscode.window.showInformationMessage(
        skipped
          ? vscode.l10n.t(
              'Nothing to restore: the other files are already as before this reply. Not restorable: {0}.',
              skipped,
            )
          : vscode.l10n.t('The files are already as they were before this reply.'),
      );
      return 'nothingToDo';
    }
    if (!(await confirm(prepared, prepared.plan.checkpoints - 1))) return 'cancelled';
    try {
      const count = await service.applyRestore(prepared);
      void vscode.window.showInformationMessage(
        count === 1
          ? vscode.l10n.t('Restored 1 file to before the reply.')
          : vscode.l10n.t('Restored {0} files to before the reply.', count),
      );
      return 'restored';
    } catch (error) {
      // Files changed while the preview was open: nothing was written; the preview shows the restore as it stands now.
      if (error instanceof RestoreOutdatedError) {
        prepared = error.fresh;
        continue;
      }
      const message = errorMessage(error);
      log.error(`Checkpoints: restore failed: ${message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('The restore failed: {0}', message));
      return 'failed';
    }
  }
}

/** Builds the checkpoints of this window. `conversationIds`: the chat history's conversations (for pruning). */
export function createCheckpoints(options: {
  readonly context: Pick<vscode.ExtensionContext, 'storageUri' | 'globalStorageUri'>;
  readonly workspaceFiles: WorkspaceFilesService;
  readonly log: Log;
  readonly conversationIds: () => Promise<ReadonlySet<string>>;
}): Checkpoints {
  const service = new CheckpointService(
    checkpointRoot(options.context),
    options.workspaceFiles,
    options.log,
    options.conversationIds,
  );
  const disposables: vscode.Disposable[] = [
    service,
    vscode.workspace.registerTextDocumentContentProvider(
      CHECKPOINT_SCHEME,
      new CheckpointContentProvider(service.store),
    ),
    service.onDidRestore((applied) => void closeRestoreDiffs(applied)),
  ];
  void service.prune();
  return {
    service,
    recorder: service,
    disposables,
    onDidRecord: service.onDidRecord,
    turnsWithCheckpoints: (conversationId) => service.turnsWithCheckpoints(conversationId),
    restore: (reply, confirm) => restoreToBefore(service, reply, options.log, confirm),
    trackReply: (done) => service.restoreGuard.trackReply(done),
  };
}
