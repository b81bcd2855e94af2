// "Index Workspace for Semantic Search" and "Semantic Search...": the user-facing flow around
// SearchIndexService and runSemanticSearch (progress, cancellation, messages, the quick pick).
import * as vscode from 'vscode';
import { relevantResults, type RankedResult } from '../../core/search/rankResults';
import type { Log } from '../log';
import type { SearchModelsDeps } from './gatewayModels';
import type { IndexRun, SearchIndexService } from './searchIndexService';
import { scoreLabel, type SearchResultsView } from './searchResultsView';
import { lineLabel, openResult, previewOf, runSemanticSearch, type SearchOutcome } from './semanticSearch';
import { displayPath } from './indexedFiles';
import { indexSummary, progressFraction, progressMessage } from '../../core/search/indexPresentation';
import type { IndexStatusItem } from './indexStatusItem';

export interface SearchCommandDeps extends SearchModelsDeps {
  readonly service: SearchIndexService;
  readonly view: SearchResultsView;
  readonly status: IndexStatusItem;
  readonly log: Log;
}

/**
 * Indexes with its progress and outcome in the status bar (a click there cancels) and in a
 * cancellable notification; cancelling aborts the embedding request in flight.
 * `retry`: what Retry runs after a failure (a search that indexes first passes itself, so the
 * query is not lost); indexing again by default.
 */
export async function indexCommand(
  deps: SearchCommandDeps,
  retry: () => unknown = () => indexCommand(deps),
): Promise<IndexRun | undefined> {
  // No key: said before anything else; once it is set, the command starts again.
  if (!deps.failures.requireSetup(vscode.l10n.t('Index Workspace for Semantic Search'), () => indexCommand(deps)))
    return undefined;
  if (!deps.service.available) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Open a folder first: semantic search indexes the files of a workspace.'),
    );
    return undefined;
  }
  deps.status.show({ kind: 'indexing' });
  try {
    const run = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Indexing workspace for semantic search'),
        cancellable: true,
      },
      (progress, token) => {
        token.onCancellationRequested(() => deps.service.cancel());
        let reported = 0;
        return deps.service.indexWorkspace((done) => {
          deps.status.show({ kind: 'indexing', progress: done });
          const percent = progressFraction(done) * 100;
          progress.report({ message: progressMessage(done, vscode.l10n), increment: Math.max(0, percent - reported) });
          reported = Math.max(reported, percent);
        });
      },
    );
    deps.status.show({ kind: 'indexed', ...run });
    const summary = indexSummary({ kind: 'indexed', ...run }, vscode.l10n);
    void (run.report.cancelled
      ? vscode.window.showWarningMessage(vscode.l10n.t('Indexing cancelled: {0}', summary))
      : vscode.window.showInformationMessage(vscode.l10n.t('Semantic search: {0}', summary)));
    return run;
  } catch (error) {
    if (error instanceof vscode.CancellationError) {
      deps.status.hide();
      return undefined;
    }
    // What was embedded before the failure is kept: Retry goes on from there.
    const shown = await deps.failures.show(error, {
      title: vscode.l10n.t('Indexing for semantic search failed'),
      retry,
    });
    deps.status.show({ kind: 'failed', reason: shown.message });
    return undefined;
  }
}

export interface SearchArgs {
  /** Skips the input box (tests, keybindings with args). */
  readonly query?: string;
}

/**
 * Asks for a query, searches (indexing first when there is no index), fills the Search Results
 * view and opens the quick pick. Resolves with the outcome once the pick is shown, not when the
 * user picks, so callers (and tests) are not held by an open pick.
 */
export async function searchCommand(deps: SearchCommandDeps, args?: SearchArgs): Promise<SearchOutcome | undefined> {
  if (!deps.failures.requireSetup(vscode.l10n.t('Semantic Search'), () => searchCommand(deps, args))) return undefined;
  const query = (
    args?.query ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Semantic Search'),
      prompt: vscode.l10n.t('Describe what you are looking for, in your own words'),
      value: deps.view.last?.query,
      ignoreFocusOut: true,
    }))
  )?.trim();
  if (!query) return undefined;
  let index = await deps.service.current();
  // Indexing first: if it fails, its Retry goes on indexing and then searches for this query (a
  // failed run keeps what it embedded, so searching at once would search half an index).
  const indexThenSearch = async (): Promise<SearchOutcome | undefined> =>
    (await indexCommand(deps, indexThenSearch)) ? searchCommand(deps, { query }) : undefined;
  if (!index?.chunkCount && !(await indexCommand(deps, indexThenSearch))) return undefined;
  index = await deps.service.current();
  if (!index) return undefined;
  try {
    const found = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Semantic search...') },
      () => runSemanticSearch(deps, deps.service.source, index, query, deps.log, { showsRerankProblem: true }),
    );
    // Passages the reranker found no relevance in are not shown: they only push the answer down.
    const { shown, hidden } = relevantResults(found.results);
    const outcome: SearchOutcome = { ...found, results: shown, hidden };
    deps.view.show(outcome);
    if (outcome.rerankProblem)
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Results in similarity order: the rerank failed ({0}).', outcome.rerankProblem),
      );
    // Every result hidden: said, rather than an empty list to pick from.
    if (!shown.length && hidden)
      void vscode.window.showInformationMessage(vscode.l10n.t('No result is relevant to the query.'));
    else showPick(outcome);
    return outcome;
  } catch (error) {
    // Reported once, as shown (the request helpers leave reporting to whoever ends the failure).
    await deps.failures.show(error, {
      title: vscode.l10n.t('Semantic search failed'),
      retry: () => searchCommand(deps, { query }),
    });
    return undefined;
  }
}

type ResultItem = vscode.QuickPickItem & { result: RankedResult };

function hiddenNote(hidden: number): string {
  return hidden === 1
    ? vscode.l10n.t('Open a result (1 result of no relevance to the query is not shown)')
    : vscode.l10n.t('Open a result ({0} results of no relevance to the query are not shown)', hidden);
}

function showPick(outcome: SearchOutcome): void {
  const pick = vscode.window.createQuickPick<ResultItem>();
  pick.title = vscode.l10n.t('Semantic Search: {0}', outcome.query);
  pick.placeholder = !outcome.results.length
    ? vscode.l10n.t('No results (is the workspace indexed?)')
    : outcome.hidden
      ? hiddenNote(outcome.hidden)
      : vscode.l10n.t('Open a result');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = outcome.results.map((result) => {
    const path = displayPath(result.record.file);
    return {
      label: `$(file) ${path.split('/').pop() ?? path}:${lineLabel(result)}`,
      description: `${path} · ${scoreLabel(result)}`,
      detail: previewOf(result),
      result,
    };
  });
  pick.onDidAccept(() => {
    void openResult(pick.selectedItems[0]?.result);
    pick.hide();
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}
