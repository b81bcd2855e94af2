// "Open Diff" on an edit's approval card: VS Code's diff editor, left the file as reviewed, right
// the text the edit will write, served from memory under our own read-only scheme. The newest
// changes of this window are kept (a few dozen); an older card says its diff is gone.
import * as vscode from 'vscode';
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
    const side = (name: 'before' | 'after', path: string): vscode.Uri =>
      vscode.Uri.from({ scheme: SCHEME, path: `/${encodeURIComponent(callId)}/${name}/${path}` });
    await vscode.commands.executeCommand(
      'vscode.diff',
      side('before', kept.leftPath),
      side('after', kept.rightPath),
      kept.title,
      { preview: true },
    );
    return true;
  }
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
