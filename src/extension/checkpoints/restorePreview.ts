// "Restore files to before this reply", shown before it happens: a quick pick listing each file
// with what will happen to it (restore, delete, recreate, move back), flagged when it changed since
// the reply, with a Show Diff button per file (current file against the kept content). Nothing
// moves until the user picks "Restore". Shown again, saying what changed, when files changed
// while it was open (the restore is only written as previewed).
import * as vscode from 'vscode';
import { changingItems, describeDrift, fileKey, type PlanItem } from '../../core/index';
import { restoreLabel, type PreparedRestore } from './checkpointService';
import { checkpointContentUri } from './checkpointContent';

export const RESTORE_TITLE = 'Restore files to before this reply';

const ACTION_TEXT: Record<PlanItem['action'], string> = {
  rewrite: 'restore its content',
  delete: 'delete (the reply created it)',
  recreate: 'recreate (the reply deleted it)',
  moveBack: 'move back',
  unchanged: 'already as before',
};

interface FileItem extends vscode.QuickPickItem {
  readonly item: PlanItem;
}

const DIFF_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('diff'), tooltip: 'Show Diff' };

function describe(prepared: PreparedRestore, item: PlanItem, drifted: ReadonlySet<string>): string {
  const action = item.action === 'moveBack' && item.from ? `move back from ${restoreLabel(prepared, item.from)}` : ACTION_TEXT[item.action];
  const notes = [action, item.changedSince ? 'changed since the reply' : '', drifted.has(fileKey(item)) || (item.from && drifted.has(fileKey(item.from))) ? 'changed while this preview was open' : ''];
  return notes.filter(Boolean).join(' · ');
}

/** Opens the diff between the file now and what it goes back to. */
export async function showRestoreDiff(prepared: PreparedRestore, item: PlanItem): Promise<void> {
  const current = prepared.uris.get(fileKey(item.from ?? item));
  const before = checkpointContentUri(item.path, item.before.kind === 'file' ? item.before.hash : undefined);
  const left = current && item.action !== 'recreate' ? current : checkpointContentUri(item.path, undefined);
  await vscode.commands.executeCommand('vscode.diff', left, before, `${restoreLabel(prepared, item)} (now ↔ before the reply)`, { preview: true, preserveFocus: true });
}

/** Resolves true when the user chose Restore; false when they closed the preview. */
export function confirmRestore(prepared: PreparedRestore, laterReplies: number): Promise<boolean> {
  const changing = changingItems(prepared.plan);
  const unchanged = prepared.plan.items.length - changing.length;
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
  pick.title = prepared.drift ? `${RESTORE_TITLE} (files changed: check again)` : RESTORE_TITLE;
  pick.placeholder = laterReplies > 0
    ? `Files go back to how they were before this reply: its changes and those of the ${laterReplies} later ${laterReplies === 1 ? 'reply' : 'replies'} are undone.`
    : 'Files go back to how they were before this reply. Pick a file to see its diff.';
  pick.ignoreFocusOut = true; // a diff opened from here must not close it
  pick.matchOnDescription = true;
  const restoreItem: vscode.QuickPickItem = {
    label: `$(discard) Restore ${changing.length} ${changing.length === 1 ? 'file' : 'files'}`,
    detail: [
      changing.some((i) => i.changedSince) ? 'Files changed since the reply are restored too (your later edits to them are undone).' : '',
      unchanged ? `${unchanged} already as before.` : '',
      'The checkpoint is kept: restoring again is harmless.',
    ].filter(Boolean).join(' '),
    alwaysShow: true,
  };
  const drifted = new Set(prepared.drift?.files.map(fileKey) ?? []);
  // Before anything else: the list below is not the one the user confirmed a moment ago.
  const driftItem: vscode.QuickPickItem[] = prepared.drift
    ? [{ label: '$(warning) Files changed while the preview was open: nothing was restored yet', detail: `${describeDrift(prepared.drift, (file) => restoreLabel(prepared, file))}. The list below is the restore as it stands now.`, alwaysShow: true }]
    : [];
  const fileItems: FileItem[] = changing.map((item) => ({
    label: `${item.changedSince || drifted.has(fileKey(item)) ? '$(warning)' : '$(file)'} ${restoreLabel(prepared, item)}`,
    description: describe(prepared, item, drifted),
    buttons: [DIFF_BUTTON],
    item,
  }));
  const skipped: vscode.QuickPickItem[] = prepared.plan.skipped.map((s) => ({ label: `$(error) ${s.path}`, description: `skipped: ${s.reason}` }));
  pick.items = [...driftItem, restoreItem, { label: 'Files', kind: vscode.QuickPickItemKind.Separator }, ...fileItems, ...(skipped.length ? [{ label: 'Not restored', kind: vscode.QuickPickItemKind.Separator }, ...skipped] : [])];
  return new Promise<boolean>((resolve) => {
    let decided = false;
    const finish = (value: boolean): void => {
      if (decided) return;
      decided = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidTriggerItemButton((event) => void showRestoreDiff(prepared, (event.item as FileItem).item));
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0];
      if (chosen === restoreItem) finish(true);
      else if (chosen && 'item' in chosen) void showRestoreDiff(prepared, (chosen as FileItem).item);
    });
    pick.onDidHide(() => finish(false));
    pick.show();
  });
}
