// How a research job looks in the tree and in its report document.
import {
  classifyResearchStatus,
  extractResearchReport,
  extractResearchSources,
  isKnownResearchStatus,
} from './researchHelpers';
import { isOutOfCredits } from '../transport/retry';
import type { ResearchJob } from '../types/account';
import type { ErrorDescription } from '../failures/describeError';

export interface JobLook {
  readonly label: string;
  /** e.g. "running · 3 min ago" */
  readonly description: string;
  /** A codicon id. */
  readonly icon: string;
  /** A theme colour id for the icon, when the status calls for one. */
  readonly color?: string;
  readonly tooltipLines: readonly string[];
}

export function relativeAge(iso: string | undefined, now: number): string {
  const at = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(at)) return 'time unknown';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

function localTime(iso: string | undefined): string {
  const at = iso ? new Date(iso) : undefined;
  return at && !Number.isNaN(at.getTime()) ? `${at.toLocaleString()} (${at.toISOString()})` : 'not given';
}

export function jobTitle(job: ResearchJob): string {
  return (job.title?.trim() || job.topic?.trim() || `Research ${job.id}`).replace(/\s+/g, ' ');
}

/** The reason a failed job gives, if any: `error` (text or object), `failureReason`, `reason`, `message`. */
export function failureReason(job: ResearchJob): string | undefined {
  for (const key of ['error', 'failureReason', 'reason', 'message', 'statusMessage']) {
    const value = job[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string')
      return String((value as { message: string }).message);
  }
  return undefined;
}

/** The notification for a job that finished: its title, and for a failure the reason when the job gives one. */
export function outcomeMessage(job: ResearchJob, phase: 'succeeded' | 'failed'): string {
  if (phase === 'succeeded') return `Research finished: ${jobTitle(job)}`;
  const reason = failureReason(job);
  return `Research failed: ${jobTitle(job)}${reason ? `: ${reason}` : ''}`;
}

/**
 * A job that ended in failure, described as a failed request is (errors/describeError.ts): its
 * title and reason, then the next step. Shown after "Research failed: ", as outcomeMessage was.
 */
export function describeJobFailure(job: ResearchJob): ErrorDescription {
  const reason = failureReason(job);
  const status = job.status || 'unknown';
  const title = jobTitle(job);
  if (reason && isOutOfCredits(undefined, undefined, reason)) {
    return {
      kind: 'outOfCredits',
      message: `${title}: ${reason}. The job stopped for lack of credits: add credits or wait for the quota window to reset, then start it again.`,
      actions: ['refreshCredits', 'retry'],
      detail: reason,
    };
  }
  const why = reason
    ? `${reason}${/[.!?]$/.test(reason) ? '' : '.'}`
    : `the job ended as "${status}" without a reason.`;
  return {
    kind: 'server',
    message: `${title}: ${why} Start it again, or open the report for what the job gave.`,
    actions: ['retry', 'showLog'],
    detail: reason ?? status,
  };
}

export function lookOf(job: ResearchJob, now: number): JobLook {
  const phase = classifyResearchStatus(job.status);
  const status = (job.status || 'unknown').toLowerCase();
  let icon = 'question';
  let color: string | undefined;
  if (phase === 'succeeded') {
    icon = 'pass';
    color = 'testing.iconPassed';
  } else if (phase === 'failed') {
    icon = 'error';
    color = 'testing.iconFailed';
  } else if (status === 'queued') {
    icon = 'clock';
  } else if (status === 'running') {
    icon = 'sync~spin';
  }
  const lines = [
    `Status: ${job.status || 'unknown'}${isKnownResearchStatus(job.status) ? '' : ' (not a status this extension knows: treated as in progress)'}`,
    `Topic: ${job.topic ?? '(none)'}`,
    `Created: ${localTime(job.createdAt)}`,
    `Updated: ${localTime(job.updatedAt)}`,
    `Id: ${job.id}`,
  ];
  const reason = phase === 'failed' ? failureReason(job) : undefined;
  if (reason) lines.splice(1, 0, `Reason: ${reason}`);
  return {
    label: jobTitle(job),
    description: `${status} · ${relativeAge(job.createdAt, now)}`,
    icon,
    ...(color ? { color } : {}),
    tooltipLines: lines,
  };
}

/**
 * Shifts the report's own headings down (`#` to `###`) so they sit under "## Report" instead of
 * competing with the document title; lines inside fenced code blocks are left alone.
 */
export function demoteHeadings(markdown: string, levels = 2): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker && (!fence || marker.startsWith(fence))) {
        fence = fence ? undefined : marker;
        return line;
      }
      if (fence) return line;
      return line.replace(
        /^(\s{0,3})(#{1,6})(\s)/,
        (_, indent: string, hashes: string, space: string) =>
          `${indent}${'#'.repeat(Math.min(6, hashes.length + levels))}${space}`,
      );
    })
    .join('\n');
}

function escapeInline(text: string): string {
  return text.replace(/[\\`*_{}[\]<>|]/g, (c) => `\\${c}`);
}

/** A link for an http(s) URL; anything else is shown as text, never as a link. */
function sourceLine(index: number, source: { url?: string; title?: string }): string {
  const url = source.url?.trim();
  const safe =
    url && /^https?:\/\//i.test(url)
      ? url.replace(/[()\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
      : undefined;
  const title = escapeInline(source.title?.trim() || url || 'untitled source');
  return safe ? `${index}. [${title}](${safe})` : `${index}. ${title}${url ? ` (${escapeInline(url)})` : ''}`;
}

/** Where the report's own refresh is (the command and its editor title button, see package.json). */
const REPORT_REFRESH_HINT =
  'This report is re-read when the job finishes; to read it again now, use Refresh Report (the refresh button in the title bar of the report\'s editor or preview, or "Unified Inference: Refresh Report" in the Command Palette).';

/**
 * The report document: title, facts table, the report text and numbered sources. `detail` is the
 * job read from GET /research/{id}; when it could not be read, `detailProblem` says why and what
 * the list gave is shown.
 */
export function reportMarkdown(listed: ResearchJob, detail: ResearchJob | undefined, detailProblem?: string): string {
  const job: ResearchJob = { ...listed, ...detail };
  const phase = classifyResearchStatus(job.status);
  const out = [
    `# ${escapeInline(jobTitle(job))}`,
    '',
    '| | |',
    '|---|---|',
    `| Topic | ${escapeInline(job.topic ?? '(none)')} |`,
    `| Status | ${escapeInline(job.status || 'unknown')} |`,
    `| Created | ${escapeInline(localTime(job.createdAt))} |`,
    `| Updated | ${escapeInline(localTime(job.updatedAt))} |`,
    `| Job id | \`${job.id.replace(/`/g, '')}\` |`,
    '',
  ];
  if (detailProblem)
    out.push(
      `> **The job's details could not be read** (${escapeInline(detailProblem)}). Shown here is what the job list gives.`,
      '',
    );
  const reason = phase === 'failed' ? failureReason(job) : undefined;
  if (reason) out.push(`> **The job failed:** ${escapeInline(reason)}`, '');
  const report = detail ? extractResearchReport(detail) : undefined;
  out.push('## Report', '');
  if (report) out.push(demoteHeadings(report.trim()), '');
  else if (phase === 'in_progress') out.push(`_The job is still in progress. ${REPORT_REFRESH_HINT}_`, '');
  else if (!detailProblem) out.push('_The gateway returned no report text for this job._', '');
  else out.push('_No report text is available._', '');
  const sources = detail ? extractResearchSources(detail) : [];
  out.push('## Sources', '');
  if (sources.length) out.push(...sources.map((source, index) => sourceLine(index + 1, source)), '');
  else out.push('_No sources were given._', '');
  return out.join('\n');
}
