import * as vscode from 'vscode';
import { SETTINGS_SECTION } from '../../shared/settings';
import { readSettings } from '../config';
import { validateBaseUrlInput } from './baseUrlInput';

/** Asks for the gateway address and stores it in the user settings. */
export async function setBaseUrlCommand(): Promise<boolean> {
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Unified Inference: Set Gateway Address'),
    prompt: vscode.l10n.t('The address of your Unified Inference gateway (requests go to <address>/api/v1/...).'),
    placeHolder: 'https://gateway.example.com',
    value: readSettings().baseUrl,
    ignoreFocusOut: true,
    validateInput: (input) => validateBaseUrlInput(input, vscode.l10n),
  });
  if (value === undefined || validateBaseUrlInput(value)) return false;
  // The address is a user setting only: a workspace cannot choose where the key goes.
  await vscode.workspace.getConfiguration(SETTINGS_SECTION).update('baseUrl', value.trim(), vscode.ConfigurationTarget.Global);
  return true;
}
