// /quota: the credits state as chat markdown, with the setup action it calls for. Dates in UTC, so
// the text is the same everywhere.
import { formatCredits, formatResetIn } from '../account/creditsFormat';
import type { CreditsReading, CreditsState, SpendFigures } from '../account/creditsPresentation';
import { escapeMarkdown } from '../../shared/markdownText';

export type SetupAction = 'setBaseUrl' | 'setApiKey' | 'refreshCredits';

export interface QuotaAnswer {
  readonly markdown: string;
  readonly actions: readonly SetupAction[];
}

function utcTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function resetLine(reading: CreditsReading, now: number): string {
  const reset = new Date(reading.reset);
  if (Number.isNaN(reset.getTime())) return 'Reset: the gateway did not say when.';
  return `Reset: ${utcTime(reset)} (${formatResetIn(reset, new Date(now))})`;
}

function lastKnown(reading: CreditsReading | undefined, now: number): string[] {
  if (!reading) return ['No balance has been read yet.'];
  return [
    `Last known balance: ${formatCredits(reading.credits)} (read ${utcTime(new Date(reading.at))})`,
    resetLine(reading, now),
  ];
}

function spendLine(spend: SpendFigures): string {
  return `Spent this session: ${formatCredits(spend.session)}`;
}

const block = (lines: readonly string[]): string => lines.join('  \n');

export function quotaMarkdown(state: CreditsState, spend: SpendFigures, now: number): QuotaAnswer {
  switch (state.kind) {
    case 'noBaseUrl':
      return { markdown: 'The gateway address is not set, so there is no balance to read.', actions: ['setBaseUrl'] };
    case 'noKey':
      return { markdown: 'No API key is set, so there is no balance to read.', actions: ['setApiKey'] };
    case 'badKey':
      return {
        markdown: block([
          `The gateway refused the API key: ${escapeMarkdown(state.message)}`,
          'Set a new key (or check the Auth Header setting).',
        ]),
        actions: ['setApiKey'],
      };
    case 'loading':
      return {
        markdown: block(['The balance is still being read.', ...lastKnown(state.last, now)]),
        actions: ['refreshCredits'],
      };
    case 'ok':
      return {
        markdown: block([
          `**Balance: ${formatCredits(state.reading.credits)}**`,
          resetLine(state.reading, now),
          spendLine(spend),
        ]),
        actions: [],
      };
    case 'outOfCredits':
      return {
        markdown: block([
          '**Out of credits**: the gateway refuses model requests until the window resets.',
          ...(state.last ? [resetLine(state.last, now)] : []),
          spendLine(spend),
        ]),
        actions: ['refreshCredits'],
      };
    case 'offline':
      return {
        markdown: block([
          `The gateway cannot be reached: ${escapeMarkdown(state.message)}`,
          ...lastKnown(state.last, now),
        ]),
        actions: ['refreshCredits'],
      };
    case 'error':
      return {
        markdown: block([
          `The balance could not be read: ${escapeMarkdown(state.message)}`,
          ...lastKnown(state.last, now),
        ]),
        actions: ['refreshCredits'],
      };
  }
}
