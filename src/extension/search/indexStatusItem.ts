// Indexing for semantic search in the status bar, where the user who started it can see it:
// "Indexing 2/5 files" while it runs (a click cancels), then what it gave for a while ("Indexed 5
// files", a click searches; "Indexing failed", a click indexes again). The notification says the
// same; this answer stays in place when the notification is hidden or never shows.
import * as vscode from 'vscode';
import { indexStatusLook, type IndexActivity, type IndexStatusLook } from '../../core/search/indexPresentation';
import { Disposable } from '../lifecycle';

/** How long the outcome of a run stays in the status bar. */
const OUTCOME_MS = 20_000;

const COMMANDS: Record<IndexStatusLook['action'], string> = {
  cancel: 'unifiedInference.search.cancelIndexing',
  search: 'unifiedInference.search.search',
  index: 'unifiedInference.search.index',
};

export class IndexStatusItem extends Disposable {
  private readonly item = this._register(
    vscode.window.createStatusBarItem('unifiedInference.searchIndex', vscode.StatusBarAlignment.Left, 10),
  );
  private shown: (IndexStatusLook & { readonly command: string }) | undefined;
  private hideTimer: NodeJS.Timeout | undefined;

  constructor() {
    super();
    this.item.name = vscode.l10n.t('Unified Inference Semantic Index');
    this._register({ dispose: () => clearTimeout(this.hideTimer) });
  }

  /** What is shown now and the command a click runs; undefined when the item is hidden (for tests). */
  get presentation(): (IndexStatusLook & { readonly command: string }) | undefined {
    return this.shown;
  }

  /** Shows a run's progress, or its outcome for a while. */
  show(activity: IndexActivity): void {
    clearTimeout(this.hideTimer);
    const shown = indexStatusLook(activity, vscode.l10n);
    const look = { ...shown, command: COMMANDS[shown.action] };
    this.shown = look;
    this.item.text = look.text;
    this.item.tooltip = look.tooltip;
    this.item.command = look.command;
    this.item.accessibilityInformation = { label: look.tooltip, role: 'button' };
    this.item.backgroundColor =
      activity.kind === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
    if (activity.kind !== 'indexing') this.hideTimer = setTimeout(() => this.hide(), OUTCOME_MS);
  }

  hide(): void {
    clearTimeout(this.hideTimer);
    this.shown = undefined;
    this.item.hide();
  }
}
