// How a research job looks in the tree and in its report document.
import {
  classifyResearchStatus,
  extractResearchReport,
  extractResearchSources,
  isKnownResearchStatus,
} from './researchHelpers';
import { isOutOfCredits } from '../transport/retry';
import type { ResearchJob, ResearchPhase } from '../types/account';
import type { ErrorDescription } from '../failures/describeError';
import { ENGLISH, type Translator } from '../../shared/translator';
import { visibleText } from '../../shared/visibleControls';

export interface JobLook {
  /**
   * The status first, then the title ("Report ready · Which vector database..."): a narrow side
   * bar cuts a row's end, and a long topic would otherwise cut away the status.
   */
  readonly label: string;
  /** The age, e.g. "3 min ago" (after the label, where a narrow side bar may cut it). */
  readonly description: string;
  /** A codicon id. */
  readonly icon: string;
  /** A theme colour id for the icon, when the status calls for one. */
  readonly color?: string;
  readonly tooltipLines: readonly string[];
  /** What a screen reader says for the row: status, whole title, age. */
  readonly accessibilityLabel: string;
  readonly phase: ResearchPhase;
}

/** What the view knows beyond the job: a report that finished in this window and was not opened yet. */
export interface JobLookOptions {
  readonly unread?: boolean;
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

/** Characters of the model's topic the approval shows (the job gets all of it). */
const SHOWN_TOPIC_CHARS = 300;

/**
 * The question the deep_research approval asks. The topic is the model's text: on one line (only
 * ordinary white space is folded; the rest is shown), cut at a code point, and every hidden
 * character (a bidi override that reorders what follows, a zero-width character) drawn as a badge,
 * as a terminal command is shown, so what the user approves reads as what the job is sent.
 */
export function researchOfferText(topic: string, l10n: Translator = ENGLISH): string {
  const shown = visibleText(
    Array.from(topic.replace(/[ \t\n\r\f\v]+/g, ' ').replace(/^ | $/g, ''))
      .slice(0, SHOWN_TOPIC_CHARS)
      .join(''),
  );
  return l10n.t(
    'Start a deep research job on "{0}"? A research job costs credits (cost set by the gateway) and typically takes 2 to 5 minutes; the report comes later, in the Research view.',
    shown,
  );
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

/** The status in words a user reads first: "Queued", "Running", "Report ready", "New report", "Failed"... */
function statusWords(job: ResearchJob, options: JobLookOptions = {}, l10n: Translator = ENGLISH): string {
  const phase = classifyResearchStatus(job.status);
  const status = (job.status || '').trim().toLowerCase();
  if (phase === 'succeeded') return options.unread ? l10n.t('New report') : l10n.t('Report ready');
  if (status === 'queued') return l10n.t('Queued');
  if (status === 'running') return l10n.t('Running');
  if (status === 'cancelled' || status === 'canceled') return l10n.t('Cancelled');
  if (status === 'timeout') return l10n.t('Timed out');
  if (phase === 'failed') return l10n.t('Failed');
  return job.status?.trim() || l10n.t('Unknown status');
}

export function lookOf(
  job: ResearchJob,
  now: number,
  options: JobLookOptions = {},
  l10n: Translator = ENGLISH,
): JobLook {
  const phase = classifyResearchStatus(job.status);
  const status = (job.status || 'unknown').toLowerCase();
  let icon = 'question';
  let color: string | undefined;
  if (phase === 'succeeded') {
    // Filled while unread: the row stands out until its report is opened.
    icon = options.unread ? 'pass-filled' : 'pass';
    color = 'testing.iconPassed';
  } else if (phase === 'failed') {
    icon = 'error';
    color = 'testing.iconFailed';
  } else if (status === 'queued') {
    icon = 'clock';
  } else if (status === 'running') {
    icon = 'sync~spin';
  }
  const title = jobTitle(job);
  const words = statusWords(job, options, l10n);
  const age = relativeAge(job.createdAt, now);
  const lines = [
    `Status: ${job.status || 'unknown'}${isKnownResearchStatus(job.status) ? '' : ' (not a status this extension knows: treated as in progress)'}`,
    `Topic: ${job.topic ?? '(none)'}`,
    `Created: ${localTime(job.createdAt)}`,
    `Updated: ${localTime(job.updatedAt)}`,
    `Id: ${job.id}`,
  ];
  const reason = phase === 'failed' ? failureReason(job) : undefined;
  if (reason) lines.splice(1, 0, `Reason: ${reason}`);
  // The whole title when it is not the topic (the label may be cut), and what a click does.
  if (title !== job.topic?.trim().replace(/\s+/g, ' ')) lines.unshift(title);
  if (phase !== 'in_progress') lines.push(l10n.t('Click to open the report.'));
  return {
    label: l10n.t('{0} · {1}', words, title),
    description: age,
    icon,
    ...(color ? { color } : {}),
    tooltipLines: lines,
    accessibilityLabel: l10n.t('{0}: {1}, {2}', words, title, age),
    phase,
  };
}

/** The Research view's badge: the reports that finished in this window and were not opened yet. */
export function unreadBadgeTooltip(count: number, l10n: Translator = ENGLISH): string {
  return count === 1 ? l10n.t('1 research report ready to read') : l10n.t('{0} research reports ready to read', count);
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

/** A title's words, case, spacing and punctuation aside. */
function wordsOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Two titles are the same for a reader when their words are. */
function sameWords(a: string, b: string): boolean {
  return wordsOf(a) === wordsOf(b);
}

/**
 * The report's heading: the whole topic when the title is only its beginning (a gateway cuts a
 * long topic into a title: "How do server-sent event streams recover... corpor..."), else the title.
 */
function reportHeading(title: string, topic: string | undefined): string {
  const start = wordsOf(title);
  return topic && start && wordsOf(topic).startsWith(start) ? topic.replace(/\s+/g, ' ') : title;
}

/**
 * The report without its own first heading when that heading is the job's title: the document's
 * title says it already (a report that starts "# <its topic>" showed the title three times, with
 * the topic row of the facts table).
 */
function withoutTitleHeading(report: string, titles: readonly string[]): string {
  const lines = report.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  const heading = first >= 0 ? /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(lines[first] ?? '') : null;
  if (!heading || !titles.some((title) => sameWords(heading[1] ?? '', title))) return report;
  return lines
    .slice(first + 1)
    .join('\n')
    .replace(/^\s*\n/, '');
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
  const title = jobTitle(job);
  const topic = job.topic?.trim();
  const heading = reportHeading(title, topic);
  const out = [
    `# ${escapeInline(heading)}`,
    '',
    '| | |',
    '|---|---|',
    // The topic once: a job started here has its topic as its title, already the heading.
    ...(topic && sameWords(topic, heading) ? [] : [`| Topic | ${escapeInline(topic || '(none)')} |`]),
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
  const extracted = detail ? extractResearchReport(detail) : undefined;
  const report = extracted ? withoutTitleHeading(extracted.trim(), [title, heading]).trim() : undefined;
  out.push('## Report', '');
  if (report) out.push(demoteHeadings(report), '');
  else if (phase === 'in_progress') out.push(`_The job is still in progress. ${REPORT_REFRESH_HINT}_`, '');
  else if (!detailProblem) out.push('_The gateway returned no report text for this job._', '');
  else out.push('_No report text is available._', '');
  const sources = detail ? extractResearchSources(detail) : [];
  out.push('## Sources', '');
  if (sources.length) out.push(...sources.map((source, index) => sourceLine(index + 1, source)), '');
  else out.push('_No sources were given._', '');
  return out.join('\n');
}
