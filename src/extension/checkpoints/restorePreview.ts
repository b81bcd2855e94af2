// "Restore files to before this reply", shown before it happens: a quick pick listing each file
// with what will happen to it (restore, delete, recreate, move back), flagged when it changed since
// the reply, with a Show Diff button per file (current file against the kept content). Nothing
// moves until the user picks "Restore". Shown again, saying what changed, when files changed
// while it was open (the restore is only written as previewed).
import * as vscode from 'vscode';
import { changingItems, type PlanItem } from '../../core/checkpoints/restorePlan';
import { describeDrift } from '../../core/checkpoints/restoreDrift';
import { fileKey } from '../../core/checkpoints/checkpointManifest';
import { restoreLabel, type PreparedRestore } from './checkpointService';
import { checkpointContentUri } from './checkpointContent';

function actionText(action: PlanItem['action']): string {
  switch (action) {
    case 'rewrite':
      return vscode.l10n.t('restore its content');
    case 'delete':
      return vscode.l10n.t('delete (the reply created it)');
    case 'recreate':
      return vscode.l10n.t('recreate (the reply deleted it)');
    case 'moveBack':
      return vscode.l10n.t('move back');
    case 'unchanged':
      return vscode.l10n.t('already as before');
  }
}

interface FileItem extends vscode.QuickPickItem {
  readonly item: PlanItem;
}

const diffButton = (): vscode.QuickInputButton => ({
  iconPath: new vscode.ThemeIcon('diff'),
  tooltip: vscode.l10n.t('Show Diff'),
});

function describe(prepared: PreparedRestore, item: PlanItem, drifted: ReadonlySet<string>): string {
  const action =
    item.action === 'moveBack' && item.from
      ? vscode.l10n.t('move back from {0}', restoreLabel(prepared, item.from))
      : actionText(item.action);
  const notes = [
    action,
    item.changedSince ? vscode.l10n.t('changed since the reply') : '',
    drifted.has(fileKey(item)) || (item.from && drifted.has(fileKey(item.from)))
      ? vscode.l10n.t('changed while this preview was open')
      : '',
  ];
  return notes.filter(Boolean).join(' · ');
}

/** Opens the diff between the file now and what it goes back to. */
export async function showRestoreDiff(prepared: PreparedRestore, item: PlanItem): Promise<void> {
  const current = prepared.uris.get(fileKey(item.from ?? item));
  const before = checkpointContentUri(item, item.before.kind === 'file' ? item.before.hash : undefined);
  const left = current && item.action !== 'recreate' ? current : checkpointContentUri(item, undefined);
  await vscode.commands.executeCommand(
    'vscode.diff',
    left,
    before,
    vscode.l10n.t('{0} (now ↔ before the reply)', restoreLabel(prepared, item)),
    { preview: true, preserveFocus: true },
  );
}

/** Resolves true when the user chose Restore; false when they closed the preview. */
export function confirmRestore(prepared: PreparedRestore, laterReplies: number): Promise<boolean> {
  const changing = changingItems(prepared.plan);
  const unchanged = prepared.plan.items.length - changing.length;
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
  pick.title = prepared.drift
    ? vscode.l10n.t('Restore files to before this reply (files changed: check again)')
    : vscode.l10n.t('Restore files to before this reply');
  pick.placeholder =
    laterReplies > 1
      ? vscode.l10n.t(
          'Files go back to how they were before this reply: its changes and those of the {0} later replies are undone.',
          laterReplies,
        )
      : laterReplies === 1
        ? vscode.l10n.t(
            'Files go back to how they were before this reply: its changes and those of the 1 later reply are undone.',
          )
        : vscode.l10n.t('Files go back to how they were before this reply. Pick a file to see its diff.');
  pick.ignoreFocusOut = true; // a diff opened from here must not close it
  pick.matchOnDescription = true;
  const restoreItem: vscode.QuickPickItem = {
    label: `$(discard) ${changing.length === 1 ? vscode.l10n.t('Restore 1 file') : vscode.l10n.t('Restore {0} files', changing.length)}`,
    detail: [
      changing.some((i) => i.changedSince)
        ? vscode.l10n.t('Files changed since the reply are restored too (your later edits to them are undone).')
        : '',
      unchanged ? vscode.l10n.t('{0} already as before.', unchanged) : '',
      vscode.l10n.t('The checkpoint is kept: restoring again is harmless.'),
    ]
      .filter(Boolean)
      .join(' '),
    alwaysShow: true,
  };
  const drifted = new Set(prepared.drift?.files.map(fileKey) ?? []);
  // Before anything else: the list below is not the one the user confirmed a moment ago.
  const driftItem: vscode.QuickPickItem[] = prepared.drift
    ? [
        {
          label: `$(warning) ${vscode.l10n.t('Files changed while the preview was open: nothing was restored yet')}`,
          detail: vscode.l10n.t(
            '{0}. The list below is the restore as it stands now.',
            describeDrift(prepared.drift, (file) => restoreLabel(prepared, file)),
          ),
          alwaysShow: true,
        },
      ]
    : [];
  const fileItems: FileItem[] = changing.map((item) => ({
    label: `${item.changedSince || drifted.has(fileKey(item)) ? '$(warning)' : '$(file)'} ${restoreLabel(prepared, item)}`,
    description: describe(prepared, item, drifted),
    buttons: [diffButton()],
    item,
  }));
  const skipped: vscode.QuickPickItem[] = prepared.plan.skipped.map((s) => ({
    label: `$(error) ${s.path}`,
    description: vscode.l10n.t('skipped: {0}', s.reason),
  }));
  pick.items = [
    ...driftItem,
    restoreItem,
    { label: vscode.l10n.t('Files'), kind: vscode.QuickPickItemKind.Separator },
    ...fileItems,
    ...(skipped.length
      ? [{ label: vscode.l10n.t('Not restored'), kind: vscode.QuickPickItemKind.Separator }, ...skipped]
      : []),
  ];
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
