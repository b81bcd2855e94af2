// Pure helpers for research jobs (wire-conventions "Research jobs"): status classes, the list
// query, and reading the report and sources out of whatever shape the job document has.
import { InvalidRequestError } from '../errors';
import { arr, isRecord, str } from '../parse/json';
import type {
  ResearchListQuery,
  ResearchPhase,
  ResearchSource,
  ResearchWhere,
  ResearchWhereOperator,
} from '../types/account';
import { checkInteger } from '../transport/validate';

const IN_PROGRESS = new Set(['queued', 'running']);
const SUCCEEDED = new Set(['succeeded', 'completed']);
const FAILED = new Set(['failed', 'error', 'cancelled', 'canceled', 'timeout']);

/** queued/running: in progress; succeeded/completed: succeeded; failed/error/cancelled/timeout: failed; anything else: in progress. */
export function classifyResearchStatus(status: string | undefined): ResearchPhase {
  const key = (status ?? '').trim().toLowerCase();
  if (SUCCEEDED.has(key)) return 'succeeded';
  if (FAILED.has(key)) return 'failed';
  return 'in_progress';
}

/** True for the statuses the conventions name; an unknown one is shown as it is. */
export function isKnownResearchStatus(status: string | undefined): boolean {
  const key = (status ?? '').trim().toLowerCase();
  return IN_PROGRESS.has(key) || SUCCEEDED.has(key) || FAILED.has(key);
}

/** `{[path]: {[operator]: value}}`; `path` may be nested, e.g. 'metadata.research.status'. */
export function whereField(path: string, operator: ResearchWhereOperator, value: unknown): ResearchWhere {
  return { [path]: { [operator]: value } };
}

export function whereAnd(...clauses: ResearchWhere[]): ResearchWhere {
  return { and: clauses };
}

function whereOr(...clauses: ResearchWhere[]): ResearchWhere {
  return { or: clauses };
}

/** Jobs in any of these statuses, e.g. the unfinished ones: whereStatus('queued', 'running'). */
export function whereStatus(...statuses: string[]): ResearchWhere {
  if (statuses.length === 1) return whereField('status', 'equals', statuses[0]);
  return whereOr(...statuses.map((status) => whereField('status', 'equals', status)));
}

/**
 * The query string of GET /api/v1/research (without '?'): limit, sort, where (JSON, URL-encoded),
 * page. Validates limit 1..100 and page >= 1 (InvalidRequestError naming the field).
 */
export function buildResearchQuery(query: ResearchListQuery = {}): string {
  checkInteger('limit', query.limit, 1, 100);
  checkInteger('page', query.page, 1);
  if (query.sort !== undefined && (typeof query.sort !== 'string' || query.sort.trim() === '')) {
    throw new InvalidRequestError('sort', 'sort must be a field name, with a leading - for descending');
  }
  const where = query.where as unknown;
  // An already JSON-encoded filter is passed on as it is.
  if (
    where !== undefined &&
    typeof where !== 'string' &&
    (typeof where !== 'object' || where === null || Array.isArray(where))
  ) {
    throw new InvalidRequestError('where', 'where must be a filter object');
  }
  const params = new URLSearchParams();
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.sort !== undefined) params.set('sort', query.sort);
  if (where !== undefined) params.set('where', typeof where === 'string' ? where : JSON.stringify(where));
  if (query.page !== undefined) params.set('page', String(query.page));
  // URLSearchParams writes spaces as '+'; %20 is read the same by every server.
  return params.toString().replace(/\+/g, '%20');
}

const REPORT_FIELDS = ['report', 'result', 'content', 'output', 'markdown', 'summary'] as const;

/** The report markdown: the first present of report, result, content, output, markdown, summary, as a string or inside an object. */
export function extractResearchReport(job: unknown, depth = 0): string | undefined {
  if (!isRecord(job) || depth > 3) return undefined;
  for (const field of REPORT_FIELDS) {
    const value = job[field];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (isRecord(value)) {
      const inner = extractResearchReport(value, depth + 1);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** Sources from `sources` or `citations`, on the job or inside its report object; strings are URLs. */
export function extractResearchSources(job: unknown, depth = 0): ResearchSource[] {
  if (!isRecord(job) || depth > 3) return [];
  for (const field of ['sources', 'citations'] as const) {
    if (Array.isArray(job[field]) && arr(job[field]).length > 0)
      return arr(job[field])
        .map(toSource)
        .filter((s): s is ResearchSource => s !== undefined);
  }
  for (const field of REPORT_FIELDS) {
    const found = extractResearchSources(job[field], depth + 1);
    if (found.length > 0) return found;
  }
  return [];
}

function toSource(value: unknown): ResearchSource | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : { url: value };
  if (!isRecord(value)) return undefined;
  const source: ResearchSource = {};
  const url = str(value.url) ?? str(value.link) ?? str(value.href);
  if (url !== undefined) source.url = url;
  const title = str(value.title) ?? str(value.name);
  if (title !== undefined) source.title = title;
  return source.url === undefined && source.title === undefined ? undefined : source;
}
