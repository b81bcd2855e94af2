import { randomUUID } from 'node:crypto';
import { truncate, words } from './text';
import { compareValues, getPath, matchesWhere } from './whereFilter';

/** A topic containing this word makes the job end in `failed` (so clients can show a failure). */
export const RESEARCH_FAILURE_WORD = 'simulate-failure';

export interface ResearchTimings {
  /** How long a job stays `queued`. */
  readonly queuedMs: number;
  /** How long it then stays `running` before `succeeded` (or `failed`). */
  readonly runningMs: number;
}

interface StoredJob {
  readonly id: string;
  readonly key: string;
  readonly topic: string;
  readonly title: string;
  readonly createdMs: number;
  readonly timings: ResearchTimings;
}

export type ResearchDoc = Record<string, unknown> & {
  id: string;
  status: string;
  title: string;
  topic: string;
  createdAt: string;
  updatedAt: string;
};

export interface ListQuery {
  readonly where?: unknown;
  /** A field name, `-` in front for descending. */
  readonly sort: string;
  readonly limit: number;
  readonly page: number;
}

export const SORT_FIELDS = ['createdAt', 'updatedAt', 'title', 'status', 'topic', 'id'] as const;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function slug(text: string): string {
  return words(text).slice(0, 6).join('-') || 'topic';
}

/**
 * Research jobs per key. A job's status is computed from the clock on every read (no timers to
 * clean up): queued for `queuedMs`, running for `runningMs`, then succeeded or failed.
 */
export class ResearchStore {
  private readonly jobs: StoredJob[] = [];
  private lastCreated = 0;
  /**
   * When true, `GET /research/{id}` answers 404 for every job (wire-conventions: "the detail is
   * unavailable"), while the list still gives each job's status. Tests of clients that must cope.
   */
  detailUnavailable = false;

  constructor(
    private timings: ResearchTimings,
    /** The clock statuses are computed from: a test can move it instead of waiting. */
    private readonly now: () => number = Date.now,
  ) {}

  /** Timings for jobs created from now on (jobs already created keep theirs). */
  setTimings(timings: ResearchTimings): void {
    this.timings = timings;
  }

  create(key: string, topic: string): ResearchDoc {
    // Strictly increasing creation times, so sorting by createdAt is total even within one millisecond.
    const createdMs = Math.max(this.now(), this.lastCreated + 1);
    this.lastCreated = createdMs;
    const job: StoredJob = {
      id: randomUUID(),
      key,
      topic,
      title: truncate(topic, 80),
      createdMs,
      timings: this.timings,
    };
    this.jobs.push(job);
    return this.document(job, createdMs);
  }

  get(key: string, id: string): ResearchDoc | undefined {
    const job = this.jobs.find((j) => j.id === id && j.key === key);
    return job && this.document(job, this.now());
  }

  list(key: string, query: ListQuery): { docs: ResearchDoc[]; totalDocs: number } & Record<string, unknown> {
    const now = this.now();
    let docs = this.jobs.filter((j) => j.key === key).map((j) => this.document(j, now));
    if (query.where !== undefined) docs = docs.filter((doc) => matchesWhere(doc, query.where));
    const desc = query.sort.startsWith('-');
    const field = desc ? query.sort.slice(1) : query.sort;
    docs.sort((a, b) => {
      const order = compareValues(getPath(a, field), getPath(b, field)) || compareValues(a.createdAt, b.createdAt);
      return desc ? -order : order;
    });
    const totalDocs = docs.length;
    const totalPages = Math.max(1, Math.ceil(totalDocs / query.limit));
    const start = (query.page - 1) * query.limit;
    const pageDocs = docs.slice(start, start + query.limit).map(summary);
    const hasNextPage = query.page < totalPages;
    const hasPrevPage = query.page > 1;
    return {
      docs: pageDocs,
      totalDocs,
      limit: query.limit,
      totalPages,
      page: query.page,
      pagingCounter: start + 1,
      hasPrevPage,
      hasNextPage,
      prevPage: hasPrevPage ? query.page - 1 : null,
      nextPage: hasNextPage ? query.page + 1 : null,
    };
  }

  private document(job: StoredJob, now: number): ResearchDoc {
    const startedMs = job.createdMs + job.timings.queuedMs;
    const doneMs = startedMs + job.timings.runningMs;
    const fails = job.topic.toLowerCase().includes(RESEARCH_FAILURE_WORD);
    const status = now < startedMs ? 'queued' : now < doneMs ? 'running' : fails ? 'failed' : 'succeeded';
    const updatedMs = status === 'queued' ? job.createdMs : status === 'running' ? startedMs : doneMs;
    const progress =
      status === 'queued'
        ? 0
        : status === 'running'
          ? Math.min(0.99, (now - startedMs) / Math.max(1, job.timings.runningMs))
          : 1;
    const doc: ResearchDoc = {
      id: job.id,
      status,
      title: job.title,
      topic: job.topic,
      createdAt: iso(job.createdMs),
      updatedAt: iso(updatedMs),
      metadata: {
        research: {
          status,
          model: 'sim-research/deep-research-sim',
          progress: Math.round(progress * 100) / 100,
          simulated: true,
        },
      },
    };
    if (status === 'succeeded') {
      const sources = sourcesFor(job.topic);
      doc.completedAt = iso(doneMs);
      doc.report = reportFor(job.topic, job.title, sources);
      doc.sources = sources;
    }
    if (status === 'failed') {
      doc.completedAt = iso(doneMs);
      doc.error = `The local simulation failed this job on purpose: its topic contains '${RESEARCH_FAILURE_WORD}'.`;
    }
    return doc;
  }
}

function summary(doc: ResearchDoc): ResearchDoc {
  const { report: _report, sources: _sources, ...rest } = doc;
  return rest;
}

function sourcesFor(topic: string): { url: string; title: string }[] {
  const s = slug(topic);
  return [
    {
      url: `https://example.com/simulated/${s}/overview`,
      title: `Overview of ${truncate(topic, 50)} (simulated source)`,
    },
    { url: `https://example.org/simulated/${s}/data`, title: 'Simulated dataset and figures' },
    { url: `https://example.net/simulated/${s}/review`, title: 'A simulated review article' },
  ];
}

function reportFor(topic: string, title: string, sources: { url: string; title: string }[]): string {
  const terms = [...new Set(words(topic))].slice(0, 5);
  return [
    `# ${title}`,
    '',
    '> This report was written by the local gateway simulation. Nothing was researched; the sources are placeholders.',
    '',
    '## Summary',
    '',
    `The question was: *${truncate(topic, 200)}*. A real deep research job would read the web for 2 to 5 minutes; this one waited a few seconds.`,
    '',
    '## Findings',
    '',
    ...(terms.length ? terms : ['topic']).map(
      (term, i) => `${i + 1}. **${term}**: a simulated finding about "${term}" [${(i % sources.length) + 1}].`,
    ),
    '',
    '## Example',
    '',
    '```json',
    JSON.stringify({ topic: truncate(topic, 60), findings: terms.length }, null, 2),
    '```',
    '',
    '## Sources',
    '',
    ...sources.map((src, i) => `${i + 1}. [${src.title}](${src.url})`),
  ].join('\n');
}
