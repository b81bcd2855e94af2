// #semanticSearch: searches the workspace's semantic index (the one "Semantic Search..." uses) and
// returns file, lines and text of the best chunks, reranked. Without an index it asks the user
// once (a modal) whether to build it: building embeds every indexed file, which costs credits and
// can take minutes; a "no" holds for the rest of the session. The files come through the
// workspace-files gate (excluded, .gitignored and sensitive files are never indexed or returned).
import * as vscode from 'vscode';
import type { SemanticIndex } from '../../core/search/semanticIndex';
import { displayPath } from '../search/indexedFiles';
import { buildIndexWithProgress, MAX_RESULTS, searchableIndex, searchCodebase } from '../search/codebaseSearch';
import type { LmToolDeps } from './lmToolDeps';
import { LM_TOOLS } from '../../core/lmTools/toolNames';
import { resultsText } from '../../core/lmTools/toolTexts';
import { balanceNote, requireClient, requireTrustedWorkspace, textResult, toolFailure } from './toolSupport';
import { optionalInteger, requiredText } from '../../core/lmTools/toolInput';
import { abortOnCancel } from '../lifecycle';

export const BUILD_INDEX_BUTTON = 'Build Index';
/** The modal's title in English (it shows in the display language): tests answer the question by it. */
export const BUILD_INDEX_QUESTION = 'Build the semantic search index of this workspace?';

export interface SemanticSearchInput {
  readonly query: string;
  readonly maxResults?: number;
}

export function semanticSearchTool(deps: LmToolDeps): vscode.LanguageModelTool<SemanticSearchInput> {
  /** The user said no to building the index: not asked again in this session. */
  let declined = false;

  const hasIndex = async (): Promise<boolean> => ((await deps.searchIndex.current())?.chunkCount ?? 0) > 0;

  /** The index, built first when there is none and the user agrees (asked once). */
  async function ensureIndex(token: vscode.CancellationToken): Promise<SemanticIndex> {
    const existing = await searchableIndex(deps.searchIndex);
    if (existing) return existing;
    if (!deps.searchIndex.available) throw new Error('No folder is open, so there is no workspace to search.');
    if (declined)
      throw new Error(
        `The workspace has no semantic index and the user chose not to build one in this session. Use other search tools, or ask the user to run "Unified Inference: Index Workspace for Semantic Search".`,
      );
    // The translated label is the button and the answer: compared by identity.
    const build = vscode.l10n.t('Build Index');
    const answer = await vscode.window.showInformationMessage(
      vscode.l10n.t('Build the semantic search index of this workspace?'),
      {
        modal: true,
        detail: vscode.l10n.t(
          'An agent wants to search this workspace by meaning. Building the index embeds every file the search settings admit (excluded, .gitignored and sensitive files are left out): it costs credits and can take minutes on a large workspace. File changes keep it current afterwards.',
        ),
      },
      build,
    );
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    if (answer !== build) {
      declined = true;
      throw new Error(
        'The user chose not to build the semantic index, so the workspace cannot be searched by meaning now. Do not ask again in this session; use other search tools.',
      );
    }
    const built = await buildIndexWithProgress(deps.searchIndex, { token });
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    return built;
  }

  return {
    async prepareInvocation(options) {
      const query = typeof options.input?.query === 'string' ? options.input.query.trim().slice(0, 200) : '';
      const indexNote =
        (await hasIndex().catch(() => false)) || declined
          ? ''
          : vscode.l10n.t(
              " The workspace has no semantic index yet: you will be asked whether to build it first (that embeds the workspace's files: costs credits, can take minutes).",
            );
      return {
        invocationMessage: vscode.l10n.t('Searching the workspace for "{0}"', query),
        confirmationMessages: {
          title: vscode.l10n.t('Search the workspace by meaning?'),
          message: vscode.l10n.t(
            'Query: "{0}". One embedding and one rerank request: charged by the tokens sent (usually a fraction of a cent), takes seconds.{1}{2}',
            query,
            indexNote,
            balanceNote(deps.credits),
          ),
        },
      };
    },
    async invoke(options, token) {
      const controller = new AbortController();
      const cancel = abortOnCancel(controller, token);
      try {
        requireTrustedWorkspace('semantic search of its files');
        const query = requiredText(options.input, 'query', 2_000);
        const maxResults = optionalInteger(options.input, 'maxResults', 1, MAX_RESULTS);
        requireClient(deps.connection);
        const index = await ensureIndex(token);
        const outcome = await searchCodebase(deps, index, query, {
          signal: controller.signal,
          ...(maxResults ? { maxResults } : {}),
        });
        return textResult(
          deps.connection.redact(resultsText(query, outcome.results, outcome.rerankProblem, displayPath)),
        );
      } catch (error) {
        throw await toolFailure(deps, LM_TOOLS.semanticSearch.reference, error, token);
      } finally {
        cancel.dispose();
      }
    },
  };
}
