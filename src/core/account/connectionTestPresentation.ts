// What the credits item says for a moment after Test Connection, wherever it was run (the item's
// own menu, the palette, the walkthrough): the answer stays where the connection is shown, since a
// notification in a corner is missed (and the browser workbench did not even pop one up).
import { ENGLISH, type Translator } from '../../shared/translator';

export interface ConnectionTestOutcome {
  readonly ok: boolean;
  readonly modelCount?: number;
  /** The failure's title ("Connection refused"), when it failed. */
  readonly problem?: string;
  /** When it ended (ms since the epoch). */
  readonly at: number;
}

export interface ConnectionTestPresentation {
  /** The item's text while the answer is fresh. */
  readonly text: string;
  /** What a screen reader says meanwhile. */
  readonly label: string;
  /** The tooltip's line, kept until the next test. */
  readonly tooltipLine: string;
}

export function presentConnectionTest(
  outcome: ConnectionTestOutcome,
  l10n: Translator = ENGLISH,
): ConnectionTestPresentation {
  const time = new Date(outcome.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (outcome.ok) {
    const models = outcome.modelCount ?? 0;
    return {
      text: `$(check) ${l10n.t('Connected: {0} models', models)}`,
      label: l10n.t('Unified Inference: the connection test passed; the gateway lists {0} models.', models),
      tooltipLine: l10n.t('Connection tested at {0}: it works, {1} models.', time, models),
    };
  }
  const problem = outcome.problem ?? l10n.t('the gateway did not answer');
  return {
    text: `$(error) ${l10n.t('Connection failed')}`,
    label: l10n.t('Unified Inference: the connection test failed: {0}.', problem),
    tooltipLine: l10n.t('Connection tested at {0}: failed ({1}).', time, problem),
  };
}
