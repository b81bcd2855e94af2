// Searching the workspace by meaning, the one way every asker does it: the #semanticSearch tool of
// VS Code's agents, the chat's search_codebase tool and the chat's @codebase. The index is built
// first only when the asker agreed (with a progress notification); a query costs one embedding and
// one rerank request (runSemanticSearch). Every result passes the workspace gate at query time:
// the index source reads each file as it is now through WorkspaceFilesService, so a file indexed
// earlier and since .gitignored, excluded or made sensitive reads as gone and is left out.
import * as vscode from 'vscode';
import { estimateIndexBuild, type IndexEstimate } from '../../core/search/indexEstimate';
import { progressFraction, progressMessage } from '../../core/search/indexPresentation';
import type { SemanticIndex } from '../../core/search/semanticIndex';
import { inputTokenPrice } from '../../core/models/modelPricing';
import { abortOnCancel } from '../lifecycle';
import type { Log } from '../log';
import { modelFor } from '../models/catalogModels';
import type { SearchModelsDeps } from './gatewayModels';
import type { SearchIndexService } from './searchIndexService';
import { runSemanticSearch, type SearchOutcome } from './semanticSearch';

/** The most results one query returns (the model may ask for fewer). */
export const MAX_RESULTS = 50;

export interface CodebaseSearchDeps extends SearchModelsDeps {
  readonly searchIndex: SearchIndexService;
  readonly log: Log;
}

/** The workspace's index when it holds something to search; undefined when there is none (or it is empty). */
export async function searchableIndex(service: SearchIndexService): Promise<SemanticIndex | undefined> {
  const index = await service.current();
  return index && index.chunkCount > 0 ? index : undefined;
}

/** What building the index would take now: its files, their tokens, and the price when the catalog lists one. */
export async function indexBuildEstimate(deps: CodebaseSearchDeps, signal?: AbortSignal): Promise<IndexEstimate> {
  const sizes = await deps.searchIndex.candidateSizes(signal);
  const chosen = await modelFor(deps.catalog, 'embedding').catch(() => undefined);
  const entry = chosen ? deps.catalog.snapshot?.models.find((model) => model.id === chosen.id) : undefined;
  return estimateIndexBuild(sizes, inputTokenPrice(entry));
}

/**
 * Builds (or completes) the index under a cancellable progress notification, then returns it.
 * Throws an Error the asker can pass on when it was cancelled or there is nothing to index.
 */
export async function buildIndexWithProgress(
  service: SearchIndexService,
  stops: { readonly token?: vscode.CancellationToken; readonly signal?: AbortSignal } = {},
): Promise<SemanticIndex> {
  const run = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Indexing workspace for semantic search'),
      cancellable: true,
    },
    (progress, stop) => {
      // Stops this run only (another, e.g. a file-change update, may be current).
      const controller = new AbortController();
      const cancel = abortOnCancel(controller, stop, ...(stops.token ? [stops.token] : []));
      const onAbort = (): void => controller.abort();
      stops.signal?.addEventListener('abort', onAbort, { once: true });
      if (stops.signal?.aborted) controller.abort();
      let reported = 0;
      return service
        .indexWorkspace((done) => {
          const fraction = progressFraction(done);
          progress.report({
            message: progressMessage(done, vscode.l10n),
            increment: Math.max(0, fraction * 100 - reported),
          });
          reported = Math.max(reported, fraction * 100);
        }, controller.signal)
        .finally(() => {
          cancel.dispose();
          stops.signal?.removeEventListener('abort', onAbort);
        });
    },
  );
  if (run.report.cancelled)
    throw new Error('Indexing was cancelled by the user before it finished, so the search did not run.');
  const built = await searchableIndex(service);
  if (!built)
    throw new Error(
      'The workspace has no files the semantic index admits (see the unifiedInference.search.include setting), so there is nothing to search.',
    );
  return built;
}

/** One query: one embedding and one rerank request; at most `maxResults` results (the search setting's count otherwise). */
export async function searchCodebase(
  deps: CodebaseSearchDeps,
  index: SemanticIndex,
  query: string,
  { maxResults, signal }: { readonly maxResults?: number; readonly signal?: AbortSignal } = {},
): Promise<SearchOutcome> {
  const outcome = await runSemanticSearch(deps, deps.searchIndex.source, index, query, deps.log, {
    ...(signal ? { signal } : {}),
  });
  return maxResults ? { ...outcome, results: outcome.results.slice(0, maxResults) } : outcome;
}
