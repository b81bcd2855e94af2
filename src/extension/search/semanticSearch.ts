// A query against the index: embed it with the index's model, take the nearest chunks by cosine
// similarity, read their text as it is now, and let the reranker order them.
import * as vscode from 'vscode';
import { rankResults, type Candidate, type RankedResult } from '../../core/search/rankResults';
import type { IndexSource, SemanticIndex } from '../../core/search/semanticIndex';
import { readSettings } from '../config';
import type { Log } from '../log';
import { chooseSearchModel, gatewayEmbedder, gatewayRerank, type SearchModelsDeps } from './gatewayModels';
import { errorMessage } from '../../shared/errorMessage';

export interface SearchOutcome {
  readonly query: string;
  readonly results: RankedResult[];
  /** Why the results are in cosine order only (no rerank model, or the rerank failed). */
  readonly rerankProblem?: string;
  /** Results left out for having no relevance to the query (relevantResults). */
  readonly hidden?: number;
}

/** The chunks' current text, each file read once. */
async function candidateTexts(
  source: IndexSource,
  index: SemanticIndex,
  rows: { index: number; score: number }[],
): Promise<Candidate[]> {
  const files = new Map<string, Promise<string[] | undefined>>();
  const linesOf = (file: string): Promise<string[] | undefined> => {
    let lines = files.get(file);
    if (!lines) files.set(file, (lines = source.read(file).then((text) => text?.split(/\r\n|\r|\n/))));
    return lines;
  };
  const candidates: Candidate[] = [];
  for (const row of rows) {
    const record = index.store?.record(row.index);
    if (!record) continue;
    const lines = await linesOf(record.file);
    if (!lines) continue; // deleted since it was indexed
    const text = lines.slice(record.startLine, record.endLine + 1).join('\n');
    if (text.trim()) candidates.push({ record, similarity: row.score, text });
  }
  return candidates;
}

export interface SearchRun {
  readonly signal?: AbortSignal;
  /** The caller shows `rerankProblem` to the user (a command's warning), so a failed rerank is reported as shown. */
  readonly showsRerankProblem?: boolean;
}

/** `source` reads the indexed files as they are now (through the workspace-files service: a file no longer shared is skipped). */
export async function runSemanticSearch(
  deps: SearchModelsDeps,
  source: IndexSource,
  index: SemanticIndex,
  query: string,
  log: Log,
  { signal, showsRerankProblem = false }: SearchRun = {},
): Promise<SearchOutcome> {
  const settings = readSettings().search;
  const store = index.store;
  if (!store || store.count === 0) return { query, results: [] };
  const [vector] = await gatewayEmbedder(deps, index.model)([query], signal);
  if (!vector) throw new Error(vscode.l10n.t('The gateway returned no embedding for the query.'));
  const candidates = await candidateTexts(source, index, store.search(vector, settings.candidates));
  if (!candidates.length) return { query, results: [] };
  try {
    const model = await chooseSearchModel(deps, 'rerank');
    const order = await gatewayRerank(
      deps,
      model,
      query,
      candidates.map((c) => c.text),
      settings.results,
      signal,
    );
    return { query, results: rankResults(candidates, order, settings.results) };
  } catch (error) {
    if (signal?.aborted) throw error;
    // The cosine order is still a useful answer: show it and say why it was not reranked.
    deps.failures.report(error, showsRerankProblem);
    // The gateway's words, shown and logged: redacted like every failure.
    const problem = deps.connection.redact(errorMessage(error));
    log.warn(`Semantic search: rerank failed, showing the cosine order: ${problem}`);
    return { query, results: rankResults(candidates, undefined, settings.results), rerankProblem: problem };
  }
}

/** The location of a result (its lines, whole). */
function resultRange(result: RankedResult): vscode.Range {
  return new vscode.Range(result.record.startLine, 0, result.record.endLine, Number.MAX_SAFE_INTEGER);
}

/** Opens a result's file with its lines selected and in view. */
export async function openResult(result: RankedResult | undefined): Promise<void> {
  if (!result) return;
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(result.record.file));
  const range = document.validateRange(resultRange(result));
  const editor = await vscode.window.showTextDocument(document, { selection: range, preview: true });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** One line of a result's text for lists: its first non-blank line, trimmed and shortened. */
export function previewOf(result: RankedResult, max = 120): string {
  const line =
    result.text
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function lineLabel(result: RankedResult): string {
  const { startLine, endLine } = result.record;
  return startLine === endLine ? `${startLine + 1}` : `${startLine + 1}-${endLine + 1}`;
}
