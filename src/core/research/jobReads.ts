// The reads behind the Research view: a page of the list, the first N jobs in as few requests as
// the list's limit allows, and the outcome of jobs that left the in-progress list. No state: the
// view's model (src/extension/research/researchJobs.ts) decides what to read and keeps the answers.
import type { ResearchResource } from '../resources/account';
import type { ResearchJob } from '../types/account';
import { uniqueJobs } from './jobPages';
import { IN_PROGRESS_LIMIT, jobsByIdQuery, listQuery, type ResearchViewQuery } from './researchQuery';

/** One request's wait; the poll loop and the view both give up on a silent gateway after it. */
export const REQUEST_TIMEOUT_MS = 30_000;

export type ResearchReader = Pick<ResearchResource, 'list' | 'get'>;

export interface PageRead {
  readonly docs: readonly ResearchJob[];
  readonly totalDocs: number;
  readonly more: boolean;
}

/** Page `page` (from 1) of the view's list, `pageSize` jobs each. */
export async function readJobPage(
  research: ResearchReader,
  query: ResearchViewQuery,
  page: number,
  pageSize: number,
): Promise<PageRead> {
  const list = await research.list(listQuery(query, page, pageSize), { timeoutMs: REQUEST_TIMEOUT_MS });
  return { docs: list.docs, totalDocs: list.totalDocs, more: list.hasNextPage ?? page * pageSize < list.totalDocs };
}

/** The first `window` jobs of the list, in as few requests as the list's limit (100) allows. */
export async function readJobWindow(
  research: ResearchReader,
  query: ResearchViewQuery,
  window: number,
): Promise<PageRead> {
  const limit = Math.min(IN_PROGRESS_LIMIT, window);
  const docs: ResearchJob[] = [];
  let totalDocs = 0;
  let hasNext = false;
  for (let page = 1; docs.length < window; page++) {
    const list = await research.list(listQuery(query, page, limit), { timeoutMs: REQUEST_TIMEOUT_MS });
    docs.push(...list.docs);
    totalDocs = list.totalDocs;
    hasNext = list.hasNextPage ?? page * limit < list.totalDocs;
    if (!hasNext || list.docs.length === 0) break;
  }
  const unique = uniqueJobs(docs);
  return { docs: unique.slice(0, window), totalDocs, more: hasNext || unique.length > window };
}

export interface OutcomeReads {
  /** The jobs whose outcome (or at least final status) was read. */
  readonly read: ReadonlyMap<string, ResearchJob>;
  /** Ids the list read by id answered for: one among them without a read job was deleted. */
  readonly listed: ReadonlySet<string>;
  /** The first failure of the list read by id, if any (the caller rethrows it after settling the rest). */
  readonly listFailure: unknown;
}

/**
 * Each job is read once for its outcome (report, reason). Where that read fails (a 404 means the
 * detail is unavailable), the list read by id gives the final status, so every finish is known.
 * An abort is thrown at once; other failures are reported through `onUnreadable` and the result.
 */
export async function readOutcomes(
  research: ResearchReader,
  ids: readonly string[],
  signal: AbortSignal,
  onUnreadable: (id: string, error: unknown) => void,
): Promise<OutcomeReads> {
  const read = new Map<string, ResearchJob>();
  const unread: string[] = [];
  for (const id of ids) {
    try {
      read.set(id, await research.get(id, { signal, timeoutMs: REQUEST_TIMEOUT_MS }));
    } catch (error) {
      if (signal.aborted) throw error;
      onUnreadable(id, error);
      unread.push(id);
    }
  }
  let listFailure: unknown;
  const listed = new Set<string>();
  for (let start = 0; start < unread.length; start += IN_PROGRESS_LIMIT) {
    const batch = unread.slice(start, start + IN_PROGRESS_LIMIT);
    try {
      const list = await research.list(jobsByIdQuery(batch), { signal, timeoutMs: REQUEST_TIMEOUT_MS, maxRetries: 0 });
      for (const job of list.docs) {
        if (batch.includes(job.id)) read.set(job.id, job);
      }
      for (const id of batch) listed.add(id);
    } catch (error) {
      if (signal.aborted) throw error;
      listFailure ??= error;
    }
  }
  return { read, listed, listFailure };
}
