// Semantic search's commands, view and index service, built and registered in one call.
import * as vscode from 'vscode';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import type { ModelCatalog } from '../models/modelCatalog';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { indexCommand, searchCommand, type SearchArgs, type SearchCommandDeps } from './searchCommands';
import { SearchIndexService } from './searchIndexService';
import { IndexStatusItem } from './indexStatusItem';
import { OPEN_RESULT_COMMAND, SearchResultsView } from './searchResultsView';
import { openResult } from './semanticSearch';
import { copyEmbeddingArgs, copyEmbeddingCommand, rerankLinesArgs, rerankLinesCommand } from './selectionCommands';
import type { RankedResult } from '../../core/search/rankResults';

export interface SemanticSearchDeps {
  readonly connection: GatewayConnection;
  readonly failures: Failures;
  readonly catalog: ModelCatalog;
  readonly log: Log;
  /** The extension's workspace storage (undefined without a folder: nothing to index). */
  readonly storageUri: vscode.Uri | undefined;
  /** What may be indexed (and so sent to the gateway). */
  readonly workspaceFiles: WorkspaceFilesService;
}

export function registerSemanticSearch(deps: SemanticSearchDeps): {
  readonly disposables: vscode.Disposable[];
  readonly service: SearchIndexService;
  readonly status: IndexStatusItem;
  readonly view: SearchResultsView;
} {
  const storageDir = deps.storageUri ? vscode.Uri.joinPath(deps.storageUri, 'semantic-index').fsPath : undefined;
  const service = new SearchIndexService(storageDir, deps, deps.log, deps.workspaceFiles);
  const view = new SearchResultsView(service);
  const status = new IndexStatusItem();
  const commandDeps: SearchCommandDeps = { ...deps, service, view, status };
  const disposables = [
    service,
    view,
    status,
    vscode.commands.registerCommand('unifiedInference.search.index', () => indexCommand(commandDeps)),
    vscode.commands.registerCommand('unifiedInference.search.cancelIndexing', () => service.cancel()),
    vscode.commands.registerCommand('unifiedInference.search.clearIndex', async () => {
      await service.clear();
      view.describeIndex(undefined);
      status.hide();
      void vscode.window.showInformationMessage(vscode.l10n.t('The semantic search index was deleted.'));
    }),
    vscode.commands.registerCommand('unifiedInference.search.search', (args?: SearchArgs) =>
      searchCommand(commandDeps, args),
    ),
    // From the editor's context menu the first argument is the editor's Uri, not arguments.
    vscode.commands.registerCommand('unifiedInference.search.rerankLines', (args?: unknown) =>
      rerankLinesCommand(deps, rerankLinesArgs(args)),
    ),
    vscode.commands.registerCommand('unifiedInference.search.copyEmbedding', (args?: unknown) =>
      copyEmbeddingCommand(deps, copyEmbeddingArgs(args)),
    ),
    vscode.commands.registerCommand(OPEN_RESULT_COMMAND, (result?: RankedResult) => openResult(result)),
  ];
  return { disposables, service, status, view };
}
