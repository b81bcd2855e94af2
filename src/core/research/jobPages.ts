// The pages of the Research view, kept free of repeats.
import type { ResearchJob } from '../types/account';

/**
 * Adds the next page to those loaded. Pages shift when a job is created (or deleted) between two
 * requests: the next page then starts with a job already shown, and a tree may not show an id
 * twice. Such a job keeps its place and takes the newer fields.
 */
export function appendPage(pages: readonly (readonly ResearchJob[])[], docs: readonly ResearchJob[]): ResearchJob[][] {
  const newer = new Map(docs.map((job) => [job.id, job]));
  const kept = pages.map((page) => page.map((job) => (newer.has(job.id) ? { ...job, ...newer.get(job.id) } : job)));
  const shown = new Set(kept.flat().map((job) => job.id));
  return [...kept, uniqueJobs(docs.filter((job) => !shown.has(job.id)))];
}

/** The jobs of a window read again, as pages of `size` (each id once). */
export function chunkPages(jobs: readonly ResearchJob[], size: number): ResearchJob[][] {
  const unique = uniqueJobs(jobs);
  const pages: ResearchJob[][] = [];
  for (let start = 0; start < unique.length; start += size) pages.push(unique.slice(start, start + size));
  return pages.length > 0 ? pages : [[]];
}

/** The jobs in order, each id once (the first place wins). */
export function uniqueJobs(jobs: readonly ResearchJob[]): ResearchJob[] {
  const seen = new Set<string>();
  return jobs.filter((job) => !seen.has(job.id) && (seen.add(job.id), true));
}
