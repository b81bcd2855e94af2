// Models, quota and research jobs.

/** Extra fields vary by provider and are kept as they came. */
export interface Model {
  id: string;
  object: string;
  created?: number;
  owned_by?: string;
  provider?: string;
  created_at?: string;
  provider_info?: { status?: string; [key: string]: unknown };
  [key: string]: unknown;
}

export type ModelCategory = 'chat' | 'embedding' | 'rerank' | 'transcription' | 'speech' | 'image';

export interface Quota {
  /** USD. */
  credits: number;
  /** ISO 8601: when the current window or pay period ends. */
  reset: string;
}

/** A research job as listed or read; extra fields (report, sources, metadata ...) are kept as they came. */
export interface ResearchJob {
  id: string;
  status: string;
  title?: string;
  topic?: string;
  createdAt?: string;
  updatedAt?: string;
  [key: string]: unknown;
}

export interface ResearchList {
  docs: ResearchJob[];
  totalDocs: number;
  page?: number;
  totalPages?: number;
  hasNextPage?: boolean;
  nextPage?: number | null;
}

export type ResearchWhereOperator =
  'equals' | 'not_equals' | 'contains' | 'exists' | 'greater_than' | 'less_than' | 'in' | 'not_in';

/** A Payload-style filter: `{field: {operator: value}}`, combined with `and` / `or`. */
export type ResearchWhere =
  | { and: ResearchWhere[] }
  | { or: ResearchWhere[] }
  | { [field: string]: Partial<Record<ResearchWhereOperator, unknown>> | ResearchWhere[] };

export interface ResearchListQuery {
  /** 1 to 100, default 20. */
  limit?: number;
  /** A field name, `-` in front for descending, e.g. '-createdAt'. */
  sort?: string;
  /** A filter object (JSON-encoded by the client), or a filter already encoded as JSON text. */
  where?: ResearchWhere | Record<string, unknown> | string;
  page?: number;
}

export interface ResearchCreated {
  id: string;
  status: string;
}

export interface ResearchSource {
  url?: string;
  title?: string;
}

export type ResearchPhase = 'in_progress' | 'succeeded' | 'failed';
