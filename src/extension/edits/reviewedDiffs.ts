// "Open Diff" on an edit's approval card: VS Code's diff editor, left the file as reviewed, right
// the text the edit will write, served from memory under our own read-only scheme. The newest
// changes of this window are kept (a few dozen); an older card says its diff is gone. Each side's
// query names the file it shows, so the diffs of files a checkpoint restore changed are closed.
import * as vscode from 'vscode';
import { closeDiffTabs } from '../checkpoints/staleDiffs';
import type { EditPlan } from './editPlan';

const SCHEME = 'unified-inference-review';
/** Changes kept for Open Diff (their texts are at most MAX_EDIT_BYTES each). */
const KEPT = 10;

interface Kept {
  readonly title: string;
  readonly before: string;
  readonly after: string;
  readonly leftPath: string;
  readonly rightPath: string;
  readonly leftFile: vscode.Uri;
  readonly rightFile: vscode.Uri;
}

/** The diff editor's tab title: the file (old → new for a rename) and what the edit does. */
function diffTitle(action: EditPlan['action'], from: string, to: string): string {
  switch (action) {
    case 'modify':
      return vscode.l10n.t('{0} (proposed edit)', from);
    case 'create':
      return vscode.l10n.t('{0} (proposed create)', from);
    case 'delete':
      return vscode.l10n.t('{0} (proposed delete)', from);
    case 'rename':
      return vscode.l10n.t('{0} → {1} (proposed rename)', from, to);
  }
}

class ReviewedDiffs implements vscode.TextDocumentContentProvider {
  private readonly kept = new Map<string, Kept>();

  remember(callId: string, plan: EditPlan): void {
    const { from, detail } = plan;
    const to = detail.to?.display ?? from.display;
    this.kept.delete(callId);
    this.kept.set(callId, {
      title: diffTitle(plan.action, from.display, to),
      before: detail.before ?? '',
      after: plan.action === 'delete' ? '' : (detail.after ?? detail.before ?? ''),
      leftPath: from.display,
      rightPath: to,
      leftFile: from.uri,
      rightFile: detail.to?.uri ?? from.uri,
    });
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [, callId, side] = uri.path.split('/');
    const kept = this.kept.get(decodeURIComponent(callId ?? ''));
    if (!kept) return '';
    return side === 'before' ? kept.before : kept.after;
  }

  async open(callId: string): Promise<boolean> {
    const kept = this.kept.get(callId);
    if (!kept) return false;
    // The file's own name last, so the diff editor picks its language.
    const side = (name: 'before' | 'after', path: string, file: vscode.Uri): vscode.Uri =>
      vscode.Uri.from({
        scheme: SCHEME,
        path: `/${encodeURIComponent(callId)}/${name}/${path}`,
        query: file.toString(),
      });
    await vscode.commands.executeCommand(
      'vscode.diff',
      side('before', kept.leftPath, kept.leftFile),
      side('after', kept.rightPath, kept.rightFile),
      kept.title,
      { preview: true },
    );
    return true;
  }
}

/** Closes the review diffs of these files (after a checkpoint restore changed them, they show a past proposal). */
export function closeReviewedDiffs(files: readonly vscode.Uri[]): Promise<void> {
  const keys = new Set(files.map((file) => file.toString()));
  return closeDiffTabs((side) => side.scheme === SCHEME && keys.has(side.query));
}

let instance: ReviewedDiffs | undefined;

/**
 * The one store of this extension host (every chat view and panel shares the scheme): registered
 * on first use and for the extension host's life, like the chat views themselves.
 */
export function reviewedDiffs(): ReviewedDiffs {
  if (!instance) {
    instance = new ReviewedDiffs();
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, instance);
  }
  return instance;
}
