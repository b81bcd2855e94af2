// What a file holds as the user sees it: the open editor's text when it has unsaved changes
// (encoded as the editor would save it), else the bytes on disk, exactly (binary-safe, line
// endings and encoding unchanged).
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { MAX_SNAPSHOT_BYTES } from '../../core/checkpoints/snapshotLimit';
import { CheckpointRefusedError } from './checkpointRecorder';
import { errorMessage } from '../../shared/errorMessage';

function openDirtyDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.isDirty && document.uri.toString() === key);
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function tooLarge(path: string, size: number): CheckpointRefusedError {
  return new CheckpointRefusedError(
    'tooLarge',
    `${path} is ${megabytes(size)}: checkpoints keep files up to ${megabytes(MAX_SNAPSHOT_BYTES)}, so a change to it could not be undone and was not made.`,
  );
}

/**
 * The bytes of a file now, or 'absent'. `limit`: refuse (CheckpointRefusedError) past the
 * snapshot cap instead of reading; without it any size is read (to compare, not to keep).
 */
export async function readFileNow(uri: vscode.Uri, shownPath: string, limit: boolean): Promise<Uint8Array | 'absent'> {
  const document = openDirtyDocument(uri);
  if (document) {
    const bytes = await vscode.workspace.encode(document.getText(), { uri });
    if (limit && bytes.byteLength > MAX_SNAPSHOT_BYTES) throw tooLarge(shownPath, bytes.byteLength);
    return bytes;
  }
  let info: import('node:fs').Stats;
  try {
    info = await fs.stat(uri.fsPath);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return 'absent';
    throw new CheckpointRefusedError(
      'storage',
      `${shownPath} could not be read for its checkpoint (${errorMessage(error)}).`,
    );
  }
  if (!info.isFile())
    throw new CheckpointRefusedError('notAFile', `${shownPath} is not a file: a checkpoint keeps files only.`);
  if (limit && info.size > MAX_SNAPSHOT_BYTES) throw tooLarge(shownPath, info.size);
  return new Uint8Array(await fs.readFile(uri.fsPath));
}
