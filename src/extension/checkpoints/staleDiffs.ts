// After a restore, the diff tabs that showed the files' earlier states are stale: the restore
// preview's "now ↔ before the reply" diffs, and (through onDidRestore, wired in extension.ts) the
// edit tools' "(proposed edit)" reviews. Tabs are told by their inputs' URIs, never by their labels.
import * as vscode from 'vscode';
import { fileKey } from '../../core/checkpoints/checkpointManifest';
import type { AppliedRestore } from './checkpointService';
import { checkpointContentFile } from './checkpointContent';

/** Closes every diff tab one of whose sides `isStale` picks. */
export async function closeDiffTabs(isStale: (side: vscode.Uri) => boolean): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter(
      (tab) =>
        tab.input instanceof vscode.TabInputTextDiff && (isStale(tab.input.original) || isStale(tab.input.modified)),
    );
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}

/** Closes the restore preview's diffs of the files a restore changed. */
export function closeRestoreDiffs(applied: AppliedRestore): Promise<void> {
  const restored = new Set(applied.files.map(fileKey));
  return closeDiffTabs((side) => {
    const file = checkpointContentFile(side);
    return file !== undefined && restored.has(file);
  });
}
