// The checkpoints of this workspace: keeps each touched file's pre-image before a reply changes it
// (the CheckpointRecorder the writers call), says which turns have one, prepares and applies
// "Restore files to before this reply", and keeps the storage under its budget.
import * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import {
  CheckpointCorruptError,
  CheckpointStore,
  sha256,
  type PreImageSource,
  type PruneReport,
} from '../../core/checkpoints/checkpointStore';
import {
  changingItems,
  planRestore,
  type CurrentState,
  type PlanFile,
  type RestorePlan,
} from '../../core/checkpoints/restorePlan';
import {
  fileKey,
  type CheckpointFile,
  type CheckpointFileRef,
  type CheckpointManifest,
} from '../../core/checkpoints/checkpointManifest';
import { restoreDrift, type PlannedRestore, type RestoreDrift } from '../../core/checkpoints/restoreDrift';
import {
  countAbsentFolders,
  createdFolders,
  removeEmptyFolders,
  type FolderToRemove,
} from '../../core/checkpoints/createdFolders';
import type { WorkspaceFiles } from '../../core/workspaceFiles/workspaceFiles';
import { readSettings } from '../config';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { CheckpointRefusedError, type CheckpointRecorder, type ReplyRef } from './checkpointRecorder';
import { readFileNow } from './fileSnapshot';
import { RestoreGuard } from '../../core/checkpoints/restoreGuard';
import { errorMessage } from '../../shared/errorMessage';

/** A restore worked out and checked (every kept byte read and verified), ready to show and apply. */
export interface PreparedRestore extends PlannedRestore {
  readonly reply: ReplyRef;
  readonly plan: RestorePlan;
  /** Each planned file's URI, by fileKey. */
  readonly uris: ReadonlyMap<string, vscode.Uri>;
  /** The kept bytes the plan writes back, by hash. */
  readonly contents: ReadonlyMap<string, Uint8Array>;
  /** How each planned file is shown, by fileKey: its path, with its folder when several are open. */
  readonly labels: ReadonlyMap<string, string>;
  /** What changed since an earlier preview of this restore (the preview says so first). */
  readonly drift?: RestoreDrift;
  /** The folders the undone replies created, innermost first: removed after the restore when empty. */
  readonly createdFolders: readonly FolderToRemove[];
}

/** A restore that was applied: every file it changed (a moved file under both names). */
export interface AppliedRestore {
  readonly reply: ReplyRef;
  readonly files: ReadonlyArray<PlanFile & { readonly uri: vscode.Uri }>;
}

/** A checkpoint that cannot be used (damaged, missing): the message says so; nothing was changed. */
export class CheckpointUnusableError extends Error {
  override readonly name = 'CheckpointUnusableError';
}

/**
 * The files changed after the preview was worked out: nothing was written. `fresh` is the restore
 * as it stands now, to show again.
 */
export class RestoreOutdatedError extends Error {
  override readonly name = 'RestoreOutdatedError';
  constructor(readonly fresh: PreparedRestore) {
    super('Files changed while the restore preview was open; nothing was restored.');
  }
}

/** The label a planned file is shown under. */
export function restoreLabel(prepared: Pick<PreparedRestore, 'labels'>, file: PlanFile): string {
  return prepared.labels.get(fileKey(file)) ?? file.path;
}

/** Checkpoints younger than this are never pruned for their conversation being unknown (it may not be saved yet). */
const ORPHAN_GRACE_MS = 10 * 60 * 1000;

export class CheckpointService extends Disposable implements CheckpointRecorder {
  readonly store: CheckpointStore;
  private readonly recorded = this._register(new vscode.EventEmitter<ReplyRef>());
  /** Fires when a reply's checkpoint gains files (the chat shows its Restore button). */
  readonly onDidRecord = this.recorded.event;
  private readonly restored = this._register(new vscode.EventEmitter<AppliedRestore>());
  /** Fires after a restore was applied (views of the files' earlier states, such as diffs, are closed). */
  readonly onDidRestore = this.restored.event;
  /** Bytes on disk as of the last prune plus what was written since; undefined before the first prune. */
  private approxBytes: number | undefined;
  private pruning: Promise<PruneReport | undefined> | undefined;
  private lastReply: ReplyRef | undefined;
  /** One restore at a time for the window (every chat view and panel shares this service). */
  readonly restoreGuard = new RestoreGuard();
  /** The restore being written (read again, checked, applied): writers wait for it. */
  private applying: Promise<unknown> | undefined;

  constructor(
    root: string,
    private readonly workspaceFiles: WorkspaceFilesService,
    private readonly log: Log,
    /** The conversations that exist (undefined when that cannot be told: nothing is pruned for it). */
    private readonly liveConversations: () => Promise<ReadonlySet<string> | undefined>,
  ) {
    super();
    this.store = new CheckpointStore(root);
  }

  async beforeChange(reply: ReplyRef, uris: readonly vscode.Uri[]): Promise<void> {
    await this.applying;
    const files = await this.workspaceFiles.open();
    const sources: PreImageSource[] = [];
    for (const uri of uris) {
      const place = await this.place(files, uri);
      // The workspace folder the path is relative to (its folders absent now are created by the write).
      const root = nodePath.resolve(uri.fsPath, ...place.path.split('/').map(() => '..'));
      sources.push({
        ...place,
        read: () => readFileNow(uri, place.path, true),
        absentFolders: () => countAbsentFolders(place.path, (folder) => exists(nodePath.join(root, folder))),
      });
    }
    let result;
    try {
      result = await this.store.record(reply, sources);
    } catch (error) {
      if (error instanceof CheckpointRefusedError) throw error;
      const message = errorMessage(error);
      this.log.error(`Checkpoint of reply ${reply.turnId} could not be written: ${message}`);
      throw new CheckpointRefusedError(
        'storage',
        `The checkpoint could not be written (${message}), so the change was not made.`,
      );
    }
    if (result.added === 0) return;
    this.lastReply = reply;
    this.recorded.fire(reply);
    if (this.approxBytes !== undefined) {
      this.approxBytes += result.bytesWritten;
      if (this.approxBytes > this.maxBytes()) void this.prune();
    }
  }

  async afterChange(reply: ReplyRef, uris: readonly vscode.Uri[]): Promise<void> {
    const files = await this.workspaceFiles.open();
    const states = [];
    for (const uri of uris) {
      const place = await this.place(files, uri).catch(() => undefined);
      if (!place) continue;
      const bytes = await readFileNow(uri, place.path, false).catch(() => undefined);
      if (bytes === undefined) continue;
      states.push({
        ...place,
        after:
          bytes === 'absent'
            ? ({ kind: 'absent' } as const)
            : ({ kind: 'file', hash: sha256(bytes), size: bytes.byteLength } as const),
      });
    }
    await this.store.recordAfter(reply, states);
  }

  /** The turns of a conversation that have a checkpoint (a damaged one too: its restore says what is wrong). */
  async turnsWithCheckpoints(conversationId: string): Promise<string[]> {
    return (await this.store.listConversation(conversationId)).map(({ turnId }) => turnId);
  }

  /**
   * Works out the restore of `reply` and every later checkpoint of its conversation, reads every
   * file's current state and every kept byte. Throws CheckpointUnusableError (having changed
   * nothing) when a checkpoint involved is damaged or its kept content is missing.
   */
  async prepareRestore(reply: ReplyRef): Promise<PreparedRestore> {
    const all = await this.store.listConversation(reply.conversationId);
    const target = all.find(({ turnId }) => turnId === reply.turnId);
    if (!target)
      throw new CheckpointUnusableError(
        'This reply has no checkpoint (it may have been removed to keep the storage budget).',
      );
    if (!target.parse.ok)
      throw new CheckpointUnusableError(
        `The checkpoint of this reply is damaged (manifest.json: ${target.parse.problem}). Nothing was changed.`,
      );
    const seq = target.parse.manifest.seq;
    const manifests: CheckpointManifest[] = [];
    for (const { turnId, parse } of all) {
      if (!parse.ok)
        throw new CheckpointUnusableError(
          `The checkpoint of a reply of this conversation (${turnId}) is damaged (manifest.json: ${parse.problem}), so the conversation cannot be restored to a point in time. Nothing was changed.`,
        );
      if (parse.manifest.seq >= seq) manifests.push(parse.manifest);
    }
    const files = await this.workspaceFiles.open();
    const uris = new Map<string, vscode.Uri>();
    const states = new Map<string, CurrentState | string>();
    const labels = new Map<string, string>();
    const folders = vscode.workspace.workspaceFolders ?? [];
    // Each kept file is resolved to the open folder its identity names, and keyed by that folder:
    // two same-named folders' files are two files.
    const resolved = new Map<string, CheckpointFileRef>();
    for (const manifest of manifests) {
      for (const file of manifest.files) {
        const kept = fileKey(file);
        if (resolved.has(kept)) continue;
        const placed = await files.placed({ name: file.folder, id: file.folderId }, file.path);
        if (!placed.ok) {
          resolved.set(kept, file);
          states.set(kept, placed.message);
          continue;
        }
        const ref: CheckpointFileRef = { folder: placed.folder.name, folderId: placed.folderId, path: file.path };
        const key = fileKey(ref);
        resolved.set(kept, ref);
        if (states.has(key)) continue;
        const uri = vscode.Uri.file(placed.absolute);
        uris.set(key, uri);
        labels.set(key, label(folders, placed.folder.name, placed.folder.path, file.path));
        try {
          const bytes = await readFileNow(uri, file.path, false);
          states.set(key, bytes === 'absent' ? { kind: 'absent' } : { kind: 'file', hash: sha256(bytes) });
        } catch (error) {
          states.set(key, errorMessage(error));
        }
      }
    }
    const canonical = manifests.map((manifest) => ({
      ...manifest,
      files: manifest.files.map((file): CheckpointFile => ({ ...file, ...resolved.get(fileKey(file)) })),
    }));
    const plan = planRestore(canonical, (file: PlanFile) => states.get(fileKey(file)) ?? 'not found');
    const contents = new Map<string, Uint8Array>();
    for (const item of changingItems(plan)) {
      if (item.action === 'moveBack' || item.before.kind !== 'file' || contents.has(item.before.hash)) continue;
      try {
        contents.set(item.before.hash, await this.store.readBlob(item.before.hash));
      } catch (error) {
        if (error instanceof CheckpointCorruptError)
          throw new CheckpointUnusableError(
            vscode.l10n.t('{0} cannot be restored: {1} Nothing was changed.', item.path, error.message),
          );
        throw error;
      }
    }
    const created: FolderToRemove[] = [];
    for (const folder of createdFolders(canonical)) {
      const placed = await files.placed({ name: folder.folder, id: folder.folderId }, folder.path);
      if (placed.ok)
        created.push({
          path: folder.path,
          absolute: placed.absolute,
          real: nodePath.join(placed.folder.real, ...folder.path.split('/')),
        });
    }
    return { reply, plan, uris, contents, current: states, labels, createdFolders: created };
  }

  /**
   * Saves the unsaved text of the files it restores, then applies the restore as one workspace edit.
   * Returns the files changed. First every planned file is read again: when any is not as the
   * preview showed it (edited meanwhile, in an editor or on disk, or a reply recorded another
   * checkpoint), nothing is written and RestoreOutdatedError carries the restore as it stands now.
   */
  applyRestore(prepared: PreparedRestore): Promise<number> {
    const applying = this.applyChecked(prepared);
    // A writer that starts meanwhile keeps its pre-image after the restore, not before it.
    this.applying = applying.catch(() => undefined);
    return applying;
  }

  private async applyChecked(prepared: PreparedRestore): Promise<number> {
    const fresh = await this.prepareRestore(prepared.reply);
    const drift = restoreDrift(prepared, fresh);
    if (drift) {
      this.log.info(
        `Checkpoints: restore of reply ${prepared.reply.turnId} not applied: ${drift.files.length} file(s) changed while its preview was open${drift.checkpoints ? ', and the checkpoints to undo changed' : ''}; shown again.`,
      );
      throw new RestoreOutdatedError({ ...fresh, drift });
    }
    const edit = new vscode.WorkspaceEdit();
    const touched: vscode.Uri[] = [];
    const items = changingItems(prepared.plan);
    for (const item of items) {
      const uri = prepared.uris.get(fileKey(item));
      if (!uri) continue;
      // A deleted file's editor is not saved afterwards (that would bring the file back).
      if (item.action !== 'delete') touched.push(uri);
      if (item.action === 'delete') edit.deleteFile(uri, { ignoreIfNotExists: true });
      else if (item.action === 'moveBack' && item.from) {
        const from = prepared.uris.get(fileKey(item.from));
        if (from) edit.renameFile(from, uri, { overwrite: true });
      } else if (item.before.kind === 'file') {
        const contents = prepared.contents.get(item.before.hash);
        if (contents) edit.createFile(uri, { overwrite: true, contents });
      }
    }
    if (items.length === 0) return 0;
    // Unsaved text of a file about to be restored is saved first (it is in the preview's "current"
    // state, so nothing the user typed is lost if the edit fails), so the edit overwrites a clean
    // editor, which follows the file. With the editor still dirty, the unsaved text reached the
    // disk after the restore on a busy machine.
    const keys = new Set(touched.map((uri) => uri.toString()));
    for (const document of vscode.workspace.textDocuments)
      if (document.isDirty && keys.has(document.uri.toString())) await document.save();
    if (!(await vscode.workspace.applyEdit(edit, { isRefactoring: false })))
      throw new Error(
        vscode.l10n.t('VS Code did not apply the restore (a file may be read-only or locked). Nothing was changed.'),
      );
    // An editor of a restored file that is still dirty shows the restored file: reverted to disk.
    for (const document of vscode.workspace.textDocuments)
      if (document.isDirty && keys.has(document.uri.toString()))
        await vscode.commands.executeCommand('workbench.action.files.revert', document.uri);
    // Folders the replies created and the restore emptied go too (never one that holds anything).
    const removed = await removeEmptyFolders(prepared.createdFolders);
    this.log.info(
      `Checkpoints: restored ${items.length} file(s) to before reply ${prepared.reply.turnId} of conversation ${prepared.reply.conversationId} (${prepared.plan.checkpoints} checkpoint(s) undone${removed.length ? `; empty folders the replies created removed: ${removed.join(', ')}` : ''}${prepared.plan.skipped.length ? `; skipped: ${prepared.plan.skipped.map((s) => `${s.path} (${s.reason})`).join(', ')}` : ''}).`,
    );
    const changed = items.flatMap((item) => (item.from ? [item, item.from] : [item]));
    this.restored.fire({
      reply: prepared.reply,
      files: changed.flatMap((file) => {
        const uri = prepared.uris.get(fileKey(file));
        return uri ? [{ folder: file.folder, folderId: file.folderId, path: file.path, uri }] : [];
      }),
    });
    return items.length;
  }

  /** Drops checkpoints of deleted conversations and the oldest past the budget; logs what went. */
  prune(): Promise<PruneReport | undefined> {
    this.pruning ??= (async () => {
      try {
        const live = await this.liveConversations().catch(() => undefined);
        const last = this.lastReply;
        const report = await this.store.prune({
          maxBytes: this.maxBytes(),
          graceMs: ORPHAN_GRACE_MS,
          ...(live ? { liveConversations: live } : {}),
          keep: (reply) =>
            last !== undefined && reply.conversationId === last.conversationId && reply.turnId === last.turnId,
        });
        this.approxBytes = report.bytesAfter;
        if (report.remove.length || report.blobsSwept) {
          const deleted = report.remove.filter((r) => r.reason === 'deletedConversation').length;
          this.log.info(
            `Checkpoints: removed ${deleted} of deleted conversations and ${report.remove.length - deleted} over the ${readSettings().checkpoints.maxStorageMB} MB budget (oldest first), ${report.blobsSwept} unreferenced content file(s); ${mb(report.bytesBefore)} → ${mb(report.bytesAfter)}.`,
          );
        }
        return report;
      } catch (error) {
        this.log.warn(`Checkpoints: pruning failed: ${errorMessage(error)}`);
        return undefined;
      } finally {
        this.pruning = undefined;
      }
    })();
    return this.pruning;
  }

  private maxBytes(): number {
    return readSettings().checkpoints.maxStorageMB * 1024 * 1024;
  }

  private async place(files: WorkspaceFiles, uri: vscode.Uri): Promise<CheckpointFileRef & { folderId: string }> {
    if (uri.scheme !== 'file')
      throw new CheckpointRefusedError(
        'notAFile',
        `${uri.toString()} is not a file on disk: checkpoints keep files of the workspace folders only, so the change was not made.`,
      );
    const placed = await files.place(uri.fsPath);
    if (!placed.ok)
      throw new CheckpointRefusedError(
        'outside',
        `${placed.message} Checkpoints keep files of the workspace folders only, so the change was not made.`,
      );
    return { folder: placed.folder.name, folderId: placed.folderId, path: placed.path };
  }
}

/** A planned file as the preview shows it: with its folder when several are open, and that folder's place when its name is shared. */
function label(folders: readonly vscode.WorkspaceFolder[], name: string, folderPath: string, path: string): string {
  if (folders.length < 2) return path;
  const shared = folders.filter((folder) => folder.name === name).length > 1;
  return shared ? `${name}/${path} (in ${nodePath.dirname(folderPath)})` : `${name}/${path}`;
}

/** Whether anything is at `path` (a link too); true too when that cannot be told: only a sure absence counts. */
async function exists(path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code !== 'ENOENT';
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
