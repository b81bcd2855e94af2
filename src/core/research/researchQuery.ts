// The Research view's filter and sort, and the list queries built from them (the spec's `where`
// and `sort`).
import type { ResearchListQuery, ResearchWhere } from '../types/account';
import { whereAnd, whereField } from './researchHelpers';

export type StatusFilter = 'all' | 'inProgress' | 'succeeded' | 'failed';
export type SortKey = 'newest' | 'oldest' | 'updated' | 'title';

export interface ResearchViewQuery {
  readonly status: StatusFilter;
  /** Words the topic must contain ('' for any). */
  readonly text: string;
  readonly sort: SortKey;
}

export const DEFAULT_QUERY: ResearchViewQuery = { status: 'all', text: '', sort: 'newest' };

/** Terminal statuses (wire-conventions): everything else, unknown statuses included, is in progress. */
const SUCCEEDED_STATUSES = ['succeeded', 'completed'];
const FAILED_STATUSES = ['failed', 'error', 'cancelled', 'canceled', 'timeout'];

const SORT_FIELDS: Readonly<Record<SortKey, string>> = {
  newest: '-createdAt',
  oldest: 'createdAt',
  updated: '-updatedAt',
  title: 'title',
};

export const SORT_LABELS: Readonly<Record<SortKey, string>> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  updated: 'Recently updated',
  title: 'Title (A to Z)',
};

export const STATUS_LABELS: Readonly<Record<StatusFilter, string>> = {
  all: 'All statuses',
  inProgress: 'In progress (queued, running)',
  succeeded: 'Succeeded',
  failed: 'Failed or cancelled',
};

/** The filter for jobs still in progress: not in a terminal status (so unknown statuses count). */
function inProgressWhere(): ResearchWhere {
  return whereField('status', 'not_in', [...SUCCEEDED_STATUSES, ...FAILED_STATUSES]);
}

/** The in-progress set is read in one request; a user rarely has more running at once. */
export const IN_PROGRESS_LIMIT = 100;

/**
 * The one list request per poll tick: every job still in progress, newest first. The Research
 * view polls with it and the research benchmark measures it.
 */
export function inProgressQuery(limit = IN_PROGRESS_LIMIT): ResearchListQuery {
  return { where: inProgressWhere(), limit, sort: '-createdAt' };
}

/**
 * The list request that reads given jobs by id (at most 100, the list's page limit): how a job's
 * final status is learnt when `GET /research/{id}` is unavailable (a 404 there means no detail).
 */
export function jobsByIdQuery(ids: readonly string[]): ResearchListQuery {
  if (ids.length === 0 || ids.length > IN_PROGRESS_LIMIT)
    throw new RangeError(`jobsByIdQuery takes 1 to ${IN_PROGRESS_LIMIT} ids (got ${ids.length})`);
  return { where: whereField('id', 'in', [...ids]), limit: ids.length, sort: '-createdAt' };
}

function statusWhere(status: StatusFilter): ResearchWhere | undefined {
  switch (status) {
    case 'all':
      return undefined;
    case 'inProgress':
      return inProgressWhere();
    case 'succeeded':
      return whereField('status', 'in', SUCCEEDED_STATUSES);
    case 'failed':
      return whereField('status', 'in', FAILED_STATUSES);
  }
}

/** The `GET /research` query for one page of the view. */
export function listQuery(query: ResearchViewQuery, page: number, limit: number): ResearchListQuery {
  const clauses = [
    statusWhere(query.status),
    query.text.trim() ? whereField('topic', 'contains', query.text.trim()) : undefined,
  ].filter((clause): clause is ResearchWhere => clause !== undefined);
  const result: ResearchListQuery = { limit, page, sort: SORT_FIELDS[query.sort] };
  if (clauses.length === 1) result.where = clauses[0];
  else if (clauses.length > 1) result.where = whereAnd(...clauses);
  return result;
}

/** What the view says while a filter is active (undefined when none is). */
export function describeFilter(query: ResearchViewQuery): string | undefined {
  const parts: string[] = [];
  if (query.status !== 'all') parts.push(STATUS_LABELS[query.status]);
  if (query.text.trim()) parts.push(`topic contains "${query.text.trim()}"`);
  return parts.length ? `Filter: ${parts.join(', ')}` : undefined;
}
