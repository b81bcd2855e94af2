// Writes a reviewed edit: first checks that what the user saw is still what is there (the file's
// text, its size and time on disk, a target still free, no path that became sensitive or
// always-asked (it can run code) unseen), then keeps the checkpoint's pre-images, checks again
// (the checkpoint takes time), then applies ONE WorkspaceEdit (so open editors, undo and save
// participants treat it as a person's edit), checks that the file now holds the reviewed text,
// then saves what it changed. A document the user had unsaved changes in is left unsaved: saving
// would write their unfinished work too.
import * as vscode from 'vscode';
import { textReplacements } from '../../core/edits/textChanges';
import type { ExclusionBaseline } from '../../core/workspaceFiles/exclusionBaseline';
import type { GuardedPath } from '../../core/workspaceFiles/guardedWrites';
import type { WorkspaceFiles } from '../../core/workspaceFiles/workspaceFiles';
import { CheckpointRefusedError, type CheckpointRecorder, type ReplyRef } from '../checkpoints/checkpointRecorder';
import { guardedWriteWords } from '../../shared/chatModel';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { documentText, type EditPlan } from './editPlan';

export interface EditResult {
  readonly content: string;
  readonly isError?: boolean;
}

const CHANGED =
  'changed after the user reviewed this edit, so nothing was written. Read it again and send the edit anew.';

/** Why the plan no longer matches the workspace, or undefined when it still does. */
async function staleness(plan: EditPlan, files: WorkspaceFiles): Promise<string | undefined> {
  const unseen = (file: {
    readonly sensitive: readonly string[];
    readonly guarded: readonly GuardedPath[];
  }): string | undefined => {
    const extra = file.sensitive.filter((path) => !plan.sensitive.includes(path));
    if (extra.length)
      return `${extra.join(', ')} is sensitive and was not shown as such when the user was asked; nothing was written.`;
    // A link swapped in after the review (a.txt now leading to .vscode/tasks.json) must not ride on an approval, or on autoApproveEdits.
    const guarded = file.guarded.filter((g) => !plan.guarded.some((p) => p.path === g.path));
    return guarded.length
      ? `${guarded.map((g) => `${g.path} ${guardedWriteWords(g.reason)}`).join(', ')}: this was not shown when the user was asked; nothing was written.`
      : undefined;
  };
  const { detail } = plan;
  if (plan.action === 'create') {
    const fresh = await files.resolveNew(plan.from.display);
    if (!fresh.ok)
      return fresh.problem === 'exists'
        ? `${plan.from.display} was created by someone else after the review, so nothing was written.`
        : fresh.message;
    return unseen(fresh.target);
  }
  const resolved = await files.resolve(plan.from.display, 'write');
  if (!resolved.ok)
    return `${plan.from.display} ${resolved.problem === 'missing' ? 'was deleted' : 'changed'} after the review, so nothing was written.`;
  const sensitive = unseen(resolved.file);
  if (sensitive) return sensitive;
  if (detail.stamp) {
    const now = await files.stat(resolved.file);
    if (now.size !== detail.stamp.size || now.mtime !== detail.stamp.mtime) return `${plan.from.display} ${CHANGED}`;
  }
  if (detail.before !== undefined && (await documentText(plan.from.uri)) !== detail.before)
    return `${plan.from.display} ${CHANGED}`;
  if (detail.to) {
    const target = await files.resolveNew(detail.to.display);
    if (!target.ok)
      return target.problem === 'exists'
        ? `${detail.to.display} was created after the review, so nothing was written.`
        : target.message;
    return unseen(target.target);
  }
  return undefined;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The text of a created file as it is on disk now (undefined when it cannot be read). */
async function createdText(uri: vscode.Uri): Promise<string | undefined> {
  return vscode.workspace.fs.readFile(uri).then(
    (bytes) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
    () => undefined,
  );
}

export async function applyEditPlan(
  plan: EditPlan,
  service: WorkspaceFilesService,
  checkpoints: CheckpointRecorder,
  reply: ReplyRef,
  baseline?: ExclusionBaseline,
): Promise<EditResult> {
  const files = await service.open(baseline);
  const stale = await staleness(plan, files);
  if (stale) return { content: stale, isError: true };
  try {
    await checkpoints.beforeChange(reply, plan.uris);
  } catch (error) {
    // A change that could not be undone with the reply's checkpoint is not made.
    if (error instanceof CheckpointRefusedError)
      return { content: `${error.message} Nothing was written.`, isError: true };
    throw error;
  }
  // Taking the checkpoint took time: the user may have typed, saved or moved files meanwhile.
  const staleNow = await staleness(plan, files);
  if (staleNow) return { content: staleNow, isError: true };

  const { from, detail } = plan;
  const edit = new vscode.WorkspaceEdit();
  const label = {
    label: vscode.l10n.t('Unified Inference: {0} {1}', plan.tool, from.display),
    needsConfirmation: false,
  };
  let unsaved = false;
  let document: vscode.TextDocument | undefined;
  if (plan.action === 'modify') document = await vscode.workspace.openTextDocument(from.uri);
  // From here to applyEdit nothing is awaited: the ranges are those of the text just compared, and
  // the edit carries the document's version (VS Code refuses it if the document changes first).
  switch (plan.action) {
    case 'create':
      edit.createFile(from.uri, { overwrite: false, contents: new TextEncoder().encode(detail.after ?? '') }, label);
      break;
    case 'modify': {
      if (!document || document.getText() !== detail.before)
        return { content: `${from.display} ${CHANGED}`, isError: true };
      unsaved = document.isDirty;
      for (const r of textReplacements(detail.before ?? '', detail.after ?? '')) {
        edit.replace(
          from.uri,
          new vscode.Range(document.positionAt(r.start), document.positionAt(r.end)),
          r.text,
          label,
        );
      }
      break;
    }
    case 'delete':
      // VS Code moves it to the trash where the file system has one (files.enableTrash), and keeps its content for undo.
      edit.deleteFile(from.uri, { ignoreIfNotExists: false }, label);
      break;
    case 'rename':
      if (detail.to) edit.renameFile(from.uri, detail.to.uri, { overwrite: false }, label);
      break;
  }
  if (!(await vscode.workspace.applyEdit(edit)))
    return {
      content: `VS Code could not apply the edit to ${from.display} (nothing was written). If the file changed at that moment, read it again and send the edit anew.`,
      isError: true,
    };

  // What is in the file now must be what the user allowed; otherwise say so (and do not save it).
  const written =
    plan.action === 'modify' ? document?.getText() : plan.action === 'create' ? await createdText(from.uri) : undefined;
  const differs = (plan.action === 'modify' || plan.action === 'create') && written !== detail.after;
  if (plan.action === 'modify' && document && !unsaved && !differs) await document.save();
  // The states right after the write: a later restore tells the user's own later edits apart.
  await checkpoints.afterChange?.(reply, plan.uris).catch(() => undefined);
  if (differs) {
    return {
      content: `The edit was applied to ${from.display}, but its text now is not what the user reviewed (another extension or a formatter may have changed it${plan.action === 'modify' ? '; it was not saved' : ''}). Read the file again before editing it further; the reply's checkpoint can restore it.`,
      isError: true,
    };
  }
  if (plan.action === 'modify') {
    const counts = `+${plan.change.added} -${plan.change.removed} lines`;
    return {
      content: unsaved
        ? `Edited ${from.display} (${counts}) in its editor; the user has unsaved changes in it, so it was not saved.`
        : `Edited ${from.display} (${counts}).`,
    };
  }
  if (plan.action === 'create') return { content: `Created ${from.display} (${plural(plan.change.added, 'line')}).` };
  if (plan.action === 'delete') return { content: `Deleted ${from.display}.` };
  return { content: `Renamed ${from.display} to ${detail.to?.display ?? ''}.` };
}
