// The "Search Results" view: the results of the last semantic search, each opening its lines.
import * as vscode from 'vscode';
import type { RankedResult } from '../../core/search/rankResults';
import { Disposable } from '../lifecycle';
import { lineLabel, previewOf, type SearchOutcome } from './semanticSearch';
import { displayPath } from './indexedFiles';
import { indexedDescription } from '../../core/search/indexPresentation';
import type { SearchIndexService } from './searchIndexService';

const SEARCH_RESULTS_VIEW_ID = 'unifiedInference.searchResults';
export const OPEN_RESULT_COMMAND = 'unifiedInference.search.openResult';

export function scoreLabel(result: RankedResult): string {
  const score = result.score.toFixed(3);
  return result.reranked ? vscode.l10n.t('relevance {0}', score) : vscode.l10n.t('similarity {0}', score);
}

export class SearchResultsView extends Disposable implements vscode.TreeDataProvider<RankedResult> {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<RankedResult>;
  private outcome: SearchOutcome | undefined;

  /**
   * The view's description says how much the index holds ("12 files indexed"), after every update
   * (the Index command's, a file change's) and when the view is first shown (the saved index).
   */
  constructor(service: SearchIndexService) {
    super();
    this.view = this._register(vscode.window.createTreeView(SEARCH_RESULTS_VIEW_ID, { treeDataProvider: this }));
    this._register(service.onDidUpdate((run) => this.describeIndex(run.files)));
    const describeSaved = (): void =>
      void service.current().then(
        (index) => this.view.description === undefined && this.describeIndex(index?.files.size),
        () => undefined,
      );
    this._register(this.view.onDidChangeVisibility((event) => event.visible && describeSaved()));
    if (this.view.visible) describeSaved();
  }

  /** How many files the index holds; undefined: there is no index. */
  describeIndex(files: number | undefined): void {
    this.view.description = files === undefined ? undefined : indexedDescription(files, vscode.l10n);
  }

  get last(): SearchOutcome | undefined {
    return this.outcome;
  }

  show(outcome: SearchOutcome): void {
    this.outcome = outcome;
    const hidden = outcome.hidden ?? 0;
    this.view.message = !outcome.results.length
      ? hidden
        ? vscode.l10n.t('No result is relevant to “{0}”.', outcome.query)
        : vscode.l10n.t('No results for “{0}”.', outcome.query)
      : outcome.rerankProblem
        ? vscode.l10n.t('“{0}” (not reranked)', outcome.query)
        : hidden === 1
          ? vscode.l10n.t('“{0}” (1 result of no relevance not shown)', outcome.query)
          : hidden
            ? vscode.l10n.t('“{0}” ({1} results of no relevance not shown)', outcome.query, hidden)
            : `“${outcome.query}”`;
    this.changed.fire();
  }

  getChildren(element?: RankedResult): RankedResult[] {
    return element ? [] : (this.outcome?.results ?? []);
  }

  getTreeItem(result: RankedResult): vscode.TreeItem {
    const path = displayPath(result.record.file);
    const item = new vscode.TreeItem(
      `${path.split('/').pop() ?? path}:${lineLabel(result)}`,
      vscode.TreeItemCollapsibleState.None,
    );
    item.description = `${result.score.toFixed(3)} · ${previewOf(result, 60)}`;
    item.tooltip = new vscode.MarkdownString()
      .appendText(`${vscode.l10n.t('{0}, lines {1} · {2}', path, lineLabel(result), scoreLabel(result))}\n\n`)
      .appendCodeblock(result.text.slice(0, 1500));
    item.resourceUri = vscode.Uri.parse(result.record.file);
    item.iconPath = vscode.ThemeIcon.File;
    item.command = { command: OPEN_RESULT_COMMAND, title: vscode.l10n.t('Open'), arguments: [result] };
    return item;
  }
}
