// The texts the language model tools return, built from what the services give. Written for a model
// to read and act on: plain lines, ISO times.
import { formatCredits, formatResetIn } from '../account/creditsFormat';
import type { RankedResult } from '../search/rankResults';
import type { RerankItem } from '../types/media';
import type { CreditsReading, CreditsState, SpendFigures } from '../account/creditsPresentation';

/** Each passage as shown back by #rerank: enough to recognise it. */
const SHOWN_CHARS = 300;
/** A chunk as returned by #semanticSearch: long chunks are cut so one result cannot flood the model's context. */
const MAX_CHUNK_CHARS = 4_000;

/** 1-based, inclusive: "12" or "12-30". */
function lines(result: RankedResult): string {
  const { startLine, endLine } = result.record;
  return startLine === endLine ? `${startLine + 1}` : `${startLine + 1}-${endLine + 1}`;
}

function resetLine(reading: CreditsReading, now: number): string {
  const reset = new Date(reading.reset);
  if (Number.isNaN(reset.getTime())) return 'Reset: the gateway did not say when.';
  return `Reset: ${reset.toISOString()} (${formatResetIn(reset, new Date(now))}); new credits are issued then if the plan renews.`;
}

/** The credits state as plain lines for a model. Exported for the unit test. */
export function creditsText(state: CreditsState, spend: SpendFigures, now: number): string {
  const spent = `Spent in this VS Code session: ${formatCredits(spend.session)}.`;
  switch (state.kind) {
    case 'noBaseUrl':
      return 'The Unified Inference gateway address is not set, so there is no balance. Ask the user to run "Unified Inference: Set Gateway Address".';
    case 'noKey':
      return 'No Unified Inference API key is set, so there is no balance. Ask the user to run "Unified Inference: Set API Key".';
    case 'badKey':
      return 'The gateway refused the API key, so the balance could not be read. Ask the user to set a valid key ("Unified Inference: Set API Key").';
    case 'ok':
      return [
        `Balance: ${formatCredits(state.reading.credits)} (USD credits).`,
        resetLine(state.reading, now),
        spent,
      ].join('\n');
    case 'outOfCredits':
      return [
        'Out of credits: the gateway refuses model requests (research, images, transcription, search) until the quota resets.',
        ...(state.last ? [resetLine(state.last, now)] : []),
        spent,
      ].join('\n');
    case 'loading':
    case 'offline':
    case 'error': {
      const why = state.kind === 'loading' ? 'is still being read' : `could not be read (${state.message})`;
      const last = state.last
        ? [
            `Last known balance: ${formatCredits(state.last.credits)} (read ${new Date(state.last.at).toISOString()}).`,
            resetLine(state.last, now),
          ]
        : [];
      return [`The balance ${why}.`, ...last].join('\n');
    }
  }
}

/** The ranking as numbered lines: rank, the passage's index in the input, score, its start. Exported for the unit test. */
export function rankingText(
  query: string,
  passages: readonly string[],
  order: readonly RerankItem[],
  model: string,
): string {
  const lines = order
    .filter((item) => Number.isInteger(item.index) && item.index >= 0 && item.index < passages.length)
    .map((item, rank) => {
      const passage = (passages[item.index] ?? '').replace(/\s+/g, ' ').trim();
      const shown = passage.length > SHOWN_CHARS ? `${passage.slice(0, SHOWN_CHARS - 1)}…` : passage;
      const score =
        typeof item.relevance_score === 'number' && Number.isFinite(item.relevance_score)
          ? item.relevance_score.toFixed(4)
          : 'n/a';
      return `${rank + 1}. passage ${item.index} (score ${score}): ${shown}`;
    });
  return [
    `${lines.length} of ${passages.length} passages by relevance to "${query}" (model ${model}; "passage N" is its 0-based index in the input):`,
    ...lines,
  ].join('\n');
}

/** The results as "path:lines (score)" headers, each followed by its text in a fence. Exported for the unit test. */
export function resultsText(
  query: string,
  results: readonly RankedResult[],
  rerankProblem: string | undefined,
  pathOf: (file: string) => string,
): string {
  if (results.length === 0)
    return `No indexed text matches "${query}". The index covers the files the unifiedInference.search.include setting admits; try other words or another tool.`;
  const order = rerankProblem ? `similarity order (the rerank failed: ${rerankProblem})` : 'reranked by relevance';
  const blocks = results.map((result, rank) => {
    const text =
      result.text.length > MAX_CHUNK_CHARS
        ? `${result.text.slice(0, MAX_CHUNK_CHARS)}\n[... cut at ${MAX_CHUNK_CHARS} characters]`
        : result.text;
    const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length + 1)));
    return `${rank + 1}. ${pathOf(result.record.file)}:${lines(result)} (score ${result.score.toFixed(4)})\n${fence}\n${text}\n${fence}`;
  });
  return [
    `${results.length} result${results.length === 1 ? '' : 's'} for "${query}", ${order}. Lines are 1-based and inclusive.`,
    ...blocks,
  ].join('\n\n');
}
