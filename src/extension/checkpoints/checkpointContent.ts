// The kept content of a file as a read-only document, for "Show Diff" in the restore preview:
// `unified-inference-checkpoint:/<path>?<sha256>` (an empty document for a file that was absent).
import * as vscode from 'vscode';
import type { CheckpointStore } from '../../core/checkpoints/checkpointStore';

export const CHECKPOINT_SCHEME = 'unified-inference-checkpoint';

export function checkpointContentUri(path: string, hash: string | undefined): vscode.Uri {
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${path}`, query: hash ?? 'absent' });
}

export class CheckpointContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: CheckpointStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.query === 'absent') return '';
    const bytes = await this.store.readBlob(uri.query);
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  }
}
