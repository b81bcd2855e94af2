// The same description in the forms that cannot show buttons: a language model tool's result and
// an error thrown to another extension through vscode.lm. The actions become the next step in
// words, naming the command the user runs. The text is English, as the
// gateway's own texts it quotes are.
import type { ErrorAction, ErrorDescription } from './describeError';

/** Each action's command (run by a button) and its title in the Command Palette. */
export const ACTION_COMMANDS: Readonly<
  Record<Exclude<ErrorAction, 'retry'>, { readonly command: string; readonly title: string }>
> = {
  setApiKey: { command: 'unifiedInference.setApiKey', title: 'Unified Inference: Set API Key' },
  setBaseUrl: { command: 'unifiedInference.setBaseUrl', title: 'Unified Inference: Set Gateway Address' },
  openSettings: { command: 'unifiedInference.openSettings', title: 'Unified Inference: Open Settings' },
  showLog: { command: 'unifiedInference.showLog', title: 'Unified Inference: Show Log' },
  refreshCredits: { command: 'unifiedInference.refreshCredits', title: 'Unified Inference: Refresh Credits' },
};

function stepFor(description: ErrorDescription, action: ErrorAction): string | undefined {
  switch (action) {
    case 'setApiKey':
      return `Ask the user to run "${ACTION_COMMANDS.setApiKey.title}"; retrying will not help until then.`;
    case 'setBaseUrl':
      return `Ask the user to run "${ACTION_COMMANDS.setBaseUrl.title}"; retrying will not help until then.`;
    case 'refreshCredits':
      return `Do not retry now; tell the user ("${ACTION_COMMANDS.refreshCredits.title}" shows the balance).`;
    case 'openSettings':
      return description.kind === 'unreachable' || description.kind === 'timeout'
        ? `If it keeps failing, ask the user to check the network, and the address with "${ACTION_COMMANDS.setBaseUrl.title}".`
        : `The user can check the settings ("${ACTION_COMMANDS.openSettings.title}").`;
    case 'showLog':
      return `The details are in the extension's log ("${ACTION_COMMANDS.showLog.title}").`;
    case 'retry':
      return description.kind === 'rateLimited' || description.kind === 'server' || description.kind === 'interrupted'
        ? 'Trying again later may succeed.'
        : undefined;
  }
}

/**
 * The message and its next steps as one text, for a reader that cannot press a button (a model
 * calling a tool, an extension using vscode.lm). Out of credits puts "do not retry" before
 * anything that would invite a retry.
 */
export function describeInWords(description: ErrorDescription): string {
  // An error of the feature's own (no gateway status): its words already say what to do.
  if (description.kind === 'other') return description.message;
  const actions =
    description.kind === 'outOfCredits' || description.kind === 'auth' || description.kind === 'setup'
      ? description.actions.filter((action) => action !== 'retry')
      : description.actions;
  // A step the message already gives (it names the command) is not given twice.
  const said = (action: ErrorAction): boolean =>
    action !== 'retry' && description.message.includes(ACTION_COMMANDS[action].title);
  const steps = [
    ...new Set(
      actions
        .filter((action) => !said(action))
        .map((action) => stepFor(description, action))
        .filter((step): step is string => !!step),
    ),
  ];
  return [description.message, ...steps].join(' ');
}
