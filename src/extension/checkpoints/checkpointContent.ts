// The kept content of a file as a read-only document, for "Show Diff" in the restore preview:
// `unified-inference-checkpoint:/<path>?<sha256>#<folder identity>` (an empty document for a file
// that was absent). The fragment names the file's workspace folder, so the diffs of a restored file
// are found and closed after the restore.
import * as vscode from 'vscode';
import type { CheckpointStore } from '../../core/checkpoints/checkpointStore';
import { fileKey } from '../../core/checkpoints/checkpointManifest';
import type { PlanFile } from '../../core/checkpoints/restorePlan';

export const CHECKPOINT_SCHEME = 'unified-inference-checkpoint';

export function checkpointContentUri(file: PlanFile, hash: string | undefined): vscode.Uri {
  return vscode.Uri.from({
    scheme: CHECKPOINT_SCHEME,
    path: `/${file.path}`,
    query: hash ?? 'absent',
    fragment: file.folderId,
  });
}

/** The fileKey of the file a kept-content document shows; undefined for any other document. */
export function checkpointContentFile(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== CHECKPOINT_SCHEME) return undefined;
  return fileKey({ folderId: uri.fragment, path: uri.path.replace(/^\//, '') });
}

export class CheckpointContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: CheckpointStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.query === 'absent') return '';
    const bytes = await this.store.readBlob(uri.query);
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  }
}
