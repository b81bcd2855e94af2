import * as vscode from 'vscode';
import { SETTINGS_SECTION } from '../../shared/settings';
import { readSettings } from '../config';
import { baseUrlInputWarning, validateBaseUrlInput } from '../../core/transport/baseUrlInput';

/** Asks for the gateway address and stores it in the user settings. */
export async function setBaseUrlCommand(): Promise<boolean> {
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Unified Inference: Set Gateway Address'),
    prompt: vscode.l10n.t(
      'The address of your Unified Inference gateway (requests go to <address>/api/v1/...; an address ending in a version such as /v1, as proxies serve, is used as it is).',
    ),
    placeHolder: 'https://gateway.example.com',
    value: readSettings().baseUrl,
    ignoreFocusOut: true,
    validateInput: (input) => {
      const error = validateBaseUrlInput(input, vscode.l10n);
      if (error) return error;
      const warning = baseUrlInputWarning(input, vscode.l10n);
      return warning ? { message: warning, severity: vscode.InputBoxValidationSeverity.Warning } : undefined;
    },
  });
  if (value === undefined || validateBaseUrlInput(value)) return false;
  // The address is a user setting only: a workspace cannot choose where the key goes.
  await vscode.workspace
    .getConfiguration(SETTINGS_SECTION)
    .update('baseUrl', value.trim(), vscode.ConfigurationTarget.Global);
  const warning = baseUrlInputWarning(value, vscode.l10n);
  if (warning) void vscode.window.showWarningMessage(vscode.l10n.t('Unified Inference: {0}', warning));
  return true;
}
