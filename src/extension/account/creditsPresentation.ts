// What the status bar shows for each credits state: text, markdown tooltip, severity. Pure (no
// vscode import), so every state is unit-tested in Node. Never a blank or misleading number: a
// balance that is not fresh says so, and an unknown one is never shown as $0.00.
import { formatCredits, formatDuration, formatResetIn } from '../../core/index';
import type { CreditSettings } from '../../shared/settings';
import { escapeMarkdown } from '../../shared/markdownText';

export interface CreditsReading {
  readonly credits: number;
  /** ISO 8601, as the gateway sent it. */
  readonly reset: string;
  /** When it was read (ms since epoch). */
  readonly at: number;
}

export type CreditsState =
  | { readonly kind: 'noBaseUrl' }
  | { readonly kind: 'noKey' }
  | { readonly kind: 'loading'; readonly last?: CreditsReading }
  | { readonly kind: 'ok'; readonly reading: CreditsReading }
  | { readonly kind: 'badKey'; readonly message: string }
  | { readonly kind: 'outOfCredits'; readonly last?: CreditsReading }
  | { readonly kind: 'offline'; readonly message: string; readonly last?: CreditsReading }
  | { readonly kind: 'error'; readonly message: string; readonly last?: CreditsReading };

export interface SpendFigures {
  readonly session: number;
  readonly lastHour: number;
  readonly burnRatePerHour: number | undefined;
}

export type Severity = 'normal' | 'warning' | 'error';

export interface CreditsPresentation {
  readonly text: string;
  /** Markdown. */
  readonly tooltip: string;
  readonly severity: Severity;
  /** The command a click runs. */
  readonly command: string;
}

const MENU = 'unifiedInference.showCreditsMenu';

export function severityOf(credits: number, thresholds: CreditSettings): Severity {
  if (credits < thresholds.errorThreshold || credits <= 0) return 'error';
  if (credits < thresholds.warningThreshold) return 'warning';
  return 'normal';
}

function resetLine(reading: CreditsReading, now: number): string {
  const reset = new Date(reading.reset);
  if (Number.isNaN(reset.getTime())) return 'Reset time: not given by the gateway';
  return `Window ${formatResetIn(reset, new Date(now))} (${reset.toLocaleString()})`;
}

function spendLines(spend: SpendFigures): string[] {
  const lines = [`Spent this session: ${formatCredits(spend.session)}`, `Spent in the last hour: ${formatCredits(spend.lastHour)}`];
  if (spend.burnRatePerHour !== undefined) lines.push(`Burn rate: ${formatCredits(spend.burnRatePerHour)} per hour`);
  return lines;
}

function readingLines(reading: CreditsReading, now: number, stale: boolean): string[] {
  const age = formatDuration(Math.max(0, now - reading.at));
  return [
    `**Balance: ${formatCredits(reading.credits)}**${stale ? ` (last known, read ${age} ago)` : ''}`,
    resetLine(reading, now),
  ];
}

function tooltip(title: string, lines: readonly string[]): string {
  return [`**Unified Inference credits**`, '', title, '', ...lines.map((line) => `${line}  `), '', 'Click for Refresh, Set API Key, Settings and the log.'].join('\n');
}

/**
 * `setupProblem`: why the connection is not what the settings ask (e.g. an unreadable CA
 * certificate file); it is added to the tooltip in every state, since it may explain the others.
 */
export function presentCredits(state: CreditsState, thresholds: CreditSettings, spend: SpendFigures, now: number, setupProblem?: string): CreditsPresentation {
  const presentation = presentState(state, thresholds, spend, now);
  if (!setupProblem) return presentation;
  return { ...presentation, tooltip: `${presentation.tooltip}\n\n$(warning) **Connection setup:** ${escapeMarkdown(setupProblem)}` };
}

function presentState(state: CreditsState, thresholds: CreditSettings, spend: SpendFigures, now: number): CreditsPresentation {
  switch (state.kind) {
    case 'noBaseUrl':
      return { text: '$(gear) Configure gateway', tooltip: tooltip('The gateway address is not set.', ['Click to set it.']), severity: 'warning', command: 'unifiedInference.setBaseUrl' };
    case 'noKey':
      return { text: '$(key) Set API key', tooltip: tooltip('No API key is set.', ['Click to set one. It is kept in secret storage.']), severity: 'warning', command: 'unifiedInference.setApiKey' };
    case 'loading':
      return state.last
        ? { text: `$(sync~spin) ${formatCredits(state.last.credits)}`, tooltip: tooltip('Refreshing the balance...', [...readingLines(state.last, now, true), '', ...spendLines(spend)]), severity: severityOf(state.last.credits, thresholds), command: MENU }
        : { text: '$(sync~spin) Credits', tooltip: tooltip('Reading the balance...', []), severity: 'normal', command: MENU };
    case 'ok':
      return {
        text: `$(credit-card) ${formatCredits(state.reading.credits)}`,
        tooltip: tooltip('', [...readingLines(state.reading, now, false), '', ...spendLines(spend)]),
        severity: severityOf(state.reading.credits, thresholds),
        command: MENU,
      };
    case 'badKey':
      return { text: '$(error) Invalid API key', tooltip: tooltip(`The gateway refused the key: ${escapeMarkdown(state.message)}`, ['Set a new key, or check the Auth Header setting.']), severity: 'error', command: MENU };
    case 'outOfCredits':
      return {
        text: '$(error) Out of credits',
        tooltip: tooltip('The gateway says the credits are used up.', state.last ? [resetLine(state.last, now), '', ...spendLines(spend)] : spendLines(spend)),
        severity: 'error',
        command: MENU,
      };
    case 'offline':
      return state.last
        ? { text: `$(cloud-offline) ${formatCredits(state.last.credits)}`, tooltip: tooltip(`Gateway unreachable: ${escapeMarkdown(state.message)}`, readingLines(state.last, now, true)), severity: 'warning', command: MENU }
        : { text: '$(cloud-offline) Offline', tooltip: tooltip(`Gateway unreachable: ${escapeMarkdown(state.message)}`, ['No balance has been read yet.']), severity: 'warning', command: MENU };
    case 'error':
      return state.last
        ? { text: `$(warning) ${formatCredits(state.last.credits)}`, tooltip: tooltip(`The balance could not be refreshed: ${escapeMarkdown(state.message)}`, readingLines(state.last, now, true)), severity: 'warning', command: MENU }
        : { text: '$(warning) Credits unavailable', tooltip: tooltip(`The balance could not be read: ${escapeMarkdown(state.message)}`, []), severity: 'warning', command: MENU };
  }
}
