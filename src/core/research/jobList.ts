// What the Research view holds: the pages loaded so far (free of repeats), the list's total, and
// the jobs followed while in progress (some beyond the pages or the filter). No requests, no
// timing: ResearchJobs (src/extension/research/researchJobs.ts) decides when to read and fills it.
import type { ResearchJob } from '../types/account';
import { appendPage, chunkPages, uniqueJobs } from './jobPages';
import { classifyResearchStatus } from './researchHelpers';

export class JobList {
  private pages: ResearchJob[][] = [];
  /** The list's total as the gateway last counted it. */
  total = 0;
  /** Whether a further page exists. */
  more = false;
  /** Jobs seen in progress, by id: the poll loop follows them until they finish. */
  readonly inProgress = new Map<string, ResearchJob>();

  get jobs(): readonly ResearchJob[] {
    return uniqueJobs(this.pages.flat());
  }

  get pageCount(): number {
    return this.pages.length;
  }

  find(id: string): ResearchJob | undefined {
    return this.jobs.find((job) => job.id === id) ?? this.inProgress.get(id);
  }

  clear(): void {
    this.pages = [];
    this.total = 0;
    this.more = false;
    this.inProgress.clear();
  }

  /** A (re)load from page 1: `docs` replace every page shown. */
  replacePages(docs: readonly ResearchJob[], pageSize: number): void {
    this.pages = chunkPages(docs, pageSize);
  }

  /** "Load more": `docs` join the pages without repeating a job already shown. */
  addPage(docs: readonly ResearchJob[]): void {
    this.pages = appendPage(this.pages, docs);
  }

  /** A job started here: first in the list at once, and followed. */
  addStarted(job: ResearchJob): void {
    this.inProgress.set(job.id, job);
    this.pages[0] = [job, ...(this.pages[0] ?? []).filter((other) => other.id !== job.id)];
    this.total += 1;
  }

  /** A newer read of a job: followed while in progress, and its shown row takes the newer fields. */
  track(job: ResearchJob): void {
    if (classifyResearchStatus(job.status) === 'in_progress') this.inProgress.set(job.id, job);
    this.pages = this.pages.map((page) => page.map((shown) => (shown.id === job.id ? { ...shown, ...job } : shown)));
  }
}
