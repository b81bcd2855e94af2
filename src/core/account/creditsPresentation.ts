// What the status bar shows for each credits state: text, markdown tooltip, severity. Never a blank
// or misleading number: a balance that is not fresh says so, and an unknown one is never shown as
// $0.00. Texts go through the Translator it is given (vscode.l10n in the extension; English by
// default).
import { formatCredits, formatDuration, formatResetIn } from './creditsFormat';
import type { CreditSettings } from '../../shared/settings';
import { escapeMarkdown } from '../../shared/markdownText';
import { ENGLISH, type Translator } from '../../shared/translator';
import type { CreditsReading, CreditsState } from '../../core/account/creditsState';

export type { CreditsReading, CreditsState } from '../../core/account/creditsState';

export interface SpendFigures {
  readonly session: number;
  readonly lastHour: number;
  readonly burnRatePerHour: number | undefined;
  /** What inline completions spent this session (USD, from their token counts); absent when none ran. */
  readonly completions?: number;
}

export type Severity = 'normal' | 'warning' | 'error';

export interface CreditsPresentation {
  readonly text: string;
  /** Markdown. */
  readonly tooltip: string;
  readonly severity: Severity;
  /**
   * What a screen reader says: a whole sentence with the state in words, since the icon that
   * tells "offline" from "low balance" to a sighted user is not read out.
   */
  readonly label: string;
  /** The command a click runs. */
  readonly command: string;
}

const MENU = 'unifiedInference.showCreditsMenu';

export function severityOf(credits: number, thresholds: CreditSettings): Severity {
  if (credits < thresholds.errorThreshold || credits <= 0) return 'error';
  if (credits < thresholds.warningThreshold) return 'warning';
  return 'normal';
}

function resetLine(reading: CreditsReading, now: number, l10n: Translator): string {
  const reset = new Date(reading.reset);
  if (Number.isNaN(reset.getTime())) return l10n.t('Reset time: not given by the gateway');
  return l10n.t('Window {0} ({1})', formatResetIn(reset, new Date(now)), reset.toLocaleString());
}

function spendLines(spend: SpendFigures, l10n: Translator): string[] {
  const lines = [
    l10n.t('Spent this session: {0}', formatCredits(spend.session)),
    l10n.t('Spent in the last hour: {0}', formatCredits(spend.lastHour)),
  ];
  if (spend.burnRatePerHour !== undefined)
    lines.push(l10n.t('Burn rate: {0} per hour', formatCredits(spend.burnRatePerHour)));
  if (spend.completions !== undefined)
    lines.push(l10n.t('Inline completions this session: {0}', formatCredits(spend.completions)));
  return lines;
}

function readingLines(reading: CreditsReading, now: number, stale: boolean, l10n: Translator): string[] {
  const balance = formatCredits(reading.credits);
  return [
    stale
      ? l10n.t('**Balance: {0}** (last known, read {1} ago)', balance, formatDuration(Math.max(0, now - reading.at)))
      : l10n.t('**Balance: {0}**', balance),
    resetLine(reading, now, l10n),
  ];
}

function tooltip(title: string, lines: readonly string[], l10n: Translator): string {
  return [
    l10n.t('**Unified Inference credits**'),
    '',
    title,
    '',
    ...lines.map((line) => `${line}  `),
    '',
    l10n.t('Click for Refresh, Set API Key, Settings and the log.'),
  ].join('\n');
}

/**
 * `setupProblem`: why the connection is not what the settings ask (e.g. an unreadable CA
 * certificate file); it is added to the tooltip in every state, since it may explain the others.
 */
export function presentCredits(
  state: CreditsState,
  thresholds: CreditSettings,
  spend: SpendFigures,
  now: number,
  setupProblem?: string,
  l10n: Translator = ENGLISH,
): CreditsPresentation {
  const presentation = presentState(state, thresholds, spend, now, l10n);
  if (!setupProblem) return presentation;
  return {
    ...presentation,
    label: `${presentation.label} ${l10n.t('Connection setup: {0}', setupProblem)}`,
    tooltip: `${presentation.tooltip}\n\n$(warning) ${l10n.t('**Connection setup:** {0}', escapeMarkdown(setupProblem))}`,
  };
}

function lowBalanceWords(severity: Severity, l10n: Translator): string {
  if (severity === 'error') return l10n.t(', below the error threshold');
  if (severity === 'warning') return l10n.t(', below the warning threshold');
  return '';
}

function presentState(
  state: CreditsState,
  thresholds: CreditSettings,
  spend: SpendFigures,
  now: number,
  l10n: Translator,
): CreditsPresentation {
  const tip = (title: string, lines: readonly string[]): string => tooltip(title, lines, l10n);
  switch (state.kind) {
    case 'noBaseUrl':
      return {
        text: `$(gear) ${l10n.t('Configure gateway')}`,
        tooltip: tip(l10n.t('The gateway address is not set.'), [l10n.t('Click to set it.')]),
        severity: 'warning',
        label: l10n.t('Unified Inference: the gateway address is not set. Activate to set it.'),
        command: 'unifiedInference.setBaseUrl',
      };
    case 'noKey':
      return {
        text: `$(key) ${l10n.t('Set API key')}`,
        tooltip: tip(l10n.t('No API key is set.'), [l10n.t('Click to set one. It is kept in secret storage.')]),
        severity: 'warning',
        label: l10n.t('Unified Inference: no API key is set. Activate to set one.'),
        command: 'unifiedInference.setApiKey',
      };
    case 'loading':
      return state.last
        ? {
            text: `$(sync~spin) ${formatCredits(state.last.credits)}`,
            tooltip: tip(l10n.t('Refreshing the balance...'), [
              ...readingLines(state.last, now, true, l10n),
              '',
              ...spendLines(spend, l10n),
            ]),
            severity: severityOf(state.last.credits, thresholds),
            label: l10n.t(
              'Unified Inference: refreshing the balance; last known balance {0}.',
              formatCredits(state.last.credits),
            ),
            command: MENU,
          }
        : {
            text: `$(sync~spin) ${l10n.t('Credits')}`,
            tooltip: tip(l10n.t('Reading the balance...'), []),
            severity: 'normal',
            label: l10n.t('Unified Inference: reading the balance.'),
            command: MENU,
          };
    case 'ok':
      return {
        text: `$(credit-card) ${formatCredits(state.reading.credits)}`,
        tooltip: tip('', [...readingLines(state.reading, now, false, l10n), '', ...spendLines(spend, l10n)]),
        severity: severityOf(state.reading.credits, thresholds),
        label: l10n.t(
          'Unified Inference: credit balance {0}{1}.',
          formatCredits(state.reading.credits),
          lowBalanceWords(severityOf(state.reading.credits, thresholds), l10n),
        ),
        command: MENU,
      };
    case 'badKey':
      return {
        text: `$(error) ${l10n.t('Invalid API key')}`,
        tooltip: tip(l10n.t('The gateway refused the key: {0}', escapeMarkdown(state.message)), [
          l10n.t('Set a new key, or check the Auth Header setting.'),
        ]),
        severity: 'error',
        label: l10n.t('Unified Inference: the gateway refused the API key.'),
        command: MENU,
      };
    case 'outOfCredits':
      return {
        text: `$(error) ${l10n.t('Out of credits')}`,
        tooltip: tip(
          l10n.t('The gateway says the credits are used up.'),
          state.last ? [resetLine(state.last, now, l10n), '', ...spendLines(spend, l10n)] : spendLines(spend, l10n),
        ),
        severity: 'error',
        label: l10n.t('Unified Inference: out of credits.'),
        command: MENU,
      };
    case 'offline':
      return state.last
        ? {
            text: `$(debug-disconnect) ${l10n.t('Offline: {0}', formatCredits(state.last.credits))}`,
            tooltip: tip(
              l10n.t('Gateway unreachable: {0}', escapeMarkdown(state.message)),
              readingLines(state.last, now, true, l10n),
            ),
            severity: 'warning',
            label: l10n.t(
              'Unified Inference: the gateway is unreachable; last known balance {0}, read {1} ago.',
              formatCredits(state.last.credits),
              formatDuration(Math.max(0, now - state.last.at)),
            ),
            command: MENU,
          }
        : {
            text: `$(debug-disconnect) ${l10n.t('Offline')}`,
            tooltip: tip(l10n.t('Gateway unreachable: {0}', escapeMarkdown(state.message)), [
              l10n.t('No balance has been read yet.'),
            ]),
            severity: 'warning',
            label: l10n.t('Unified Inference: the gateway is unreachable; no balance has been read yet.'),
            command: MENU,
          };
    case 'error':
      return state.last
        ? {
            text: `$(warning) ${formatCredits(state.last.credits)}`,
            tooltip: tip(
              l10n.t('The balance could not be refreshed: {0}', escapeMarkdown(state.message)),
              readingLines(state.last, now, true, l10n),
            ),
            severity: 'warning',
            label: l10n.t(
              'Unified Inference: the balance could not be refreshed; last known balance {0}.',
              formatCredits(state.last.credits),
            ),
            command: MENU,
          }
        : {
            text: `$(warning) ${l10n.t('Credits unavailable')}`,
            tooltip: tip(l10n.t('The balance could not be read: {0}', escapeMarkdown(state.message)), []),
            severity: 'warning',
            label: l10n.t('Unified Inference: the balance could not be read.'),
            command: MENU,
          };
  }
}
