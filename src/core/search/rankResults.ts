// Turning the cosine candidates and the rerank answer into the final list.
import type { RerankItem } from '../types/media';
import type { ChunkRecord } from './vectorStore';

export interface Candidate {
  readonly record: ChunkRecord;
  /** Cosine similarity to the query. */
  readonly similarity: number;
  /** The chunk's text as read now (what the reranker saw). */
  readonly text: string;
}

export interface RankedResult extends Candidate {
  /** The reranker's relevance, or the similarity when no rerank was done. */
  readonly score: number;
  readonly reranked: boolean;
}

/**
 * The candidates in the reranker's order (its `index` points into `candidates`), at most `topN`;
 * without a rerank answer, the cosine order. Indexes the reranker invents or repeats are ignored.
 */
export function rankResults(
  candidates: readonly Candidate[],
  rerank: readonly RerankItem[] | undefined,
  topN: number,
): RankedResult[] {
  if (!rerank) return candidates.slice(0, topN).map((c) => ({ ...c, score: c.similarity, reranked: false }));
  const seen = new Set<number>();
  const ranked: RankedResult[] = [];
  for (const item of rerank) {
    const candidate = candidates[item.index];
    if (!candidate || seen.has(item.index)) continue;
    seen.add(item.index);
    ranked.push({ ...candidate, score: item.relevance_score, reranked: true });
    if (ranked.length >= topN) break;
  }
  return ranked;
}

/**
 * A reranked result scoring under this has no relevance to the query: rerankers answer on a 0..1
 * scale (the local gateway's BM25 gives exactly 0 to a passage sharing no word with the query), and
 * the views show three decimals, where it reads 0.000.
 */
const MIN_RELEVANCE = 0.0005;

export interface RelevantResults {
  readonly shown: RankedResult[];
  /** Reranked results left out for having no relevance. */
  readonly hidden: number;
}

/**
 * The results without those the reranker found no relevance in. Only a 0..1 scale is read so: when
 * any reranked score falls outside it (a reranker answering raw logits, where 0 is not "none"),
 * or nothing was reranked (a cosine similarity is no relevance), every result is kept.
 */
export function relevantResults(results: readonly RankedResult[]): RelevantResults {
  const reranked = results.filter((result) => result.reranked);
  if (reranked.length === 0 || reranked.some((result) => !(result.score >= 0 && result.score <= 1)))
    return { shown: [...results], hidden: 0 };
  const shown = results.filter((result) => !result.reranked || result.score >= MIN_RELEVANCE);
  return { shown, hidden: results.length - shown.length };
}

/** The lines in the reranker's order, for "Rerank Lines...": lines it left out keep their order after it. */
export function reorderLines(
  lines: readonly string[],
  rerank: readonly RerankItem[],
): { line: string; index: number; score: number | undefined }[] {
  const seen = new Set<number>();
  const ordered: { line: string; index: number; score: number | undefined }[] = [];
  for (const item of rerank) {
    const line = lines[item.index];
    if (line === undefined || seen.has(item.index)) continue;
    seen.add(item.index);
    ordered.push({ line, index: item.index, score: item.relevance_score });
  }
  lines.forEach((line, index) => seen.has(index) || ordered.push({ line, index, score: undefined }));
  return ordered;
}
