// A minimal writer, for tests and the UI test's seed only (the real writers are Apply on a code
// block and the model's edit tools): it follows the contract exactly, beforeChange with every
// file it will touch (both names of a rename), one WorkspaceEdit, then afterChange.
import * as vscode from 'vscode';
import type { CheckpointRecorder, ReplyRef } from './checkpointRecorder';

export type TestChange =
  | { readonly kind: 'write'; readonly uri: vscode.Uri; readonly bytes: Uint8Array }
  | { readonly kind: 'delete'; readonly uri: vscode.Uri }
  | { readonly kind: 'rename'; readonly from: vscode.Uri; readonly to: vscode.Uri };

export async function writeWithCheckpoint(
  recorder: CheckpointRecorder,
  reply: ReplyRef,
  changes: readonly TestChange[],
): Promise<void> {
  const uris = changes.flatMap((change) => (change.kind === 'rename' ? [change.from, change.to] : [change.uri]));
  await recorder.beforeChange(reply, uris);
  const edit = new vscode.WorkspaceEdit();
  for (const change of changes) {
    if (change.kind === 'write') edit.createFile(change.uri, { overwrite: true, contents: change.bytes });
    else if (change.kind === 'delete') edit.deleteFile(change.uri);
    else edit.renameFile(change.from, change.to);
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error("The test writer's edit was refused.");
  await recorder.afterChange?.(reply, uris);
}
