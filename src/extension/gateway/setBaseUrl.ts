import * as vscode from 'vscode';
import { SETTINGS_SECTION } from '../../shared/settings';
import { readSettings } from '../config';
import { validateBaseUrlInput } from './baseUrlInput';

/** Asks for the gateway address and stores it in the user settings. */
export async function setBaseUrlCommand(): Promise<boolean> {
  const value = await vscode.window.showInputBox({
    title: 'Unified Inference: Set Gateway Address',
    prompt: 'The address of your Unified Inference gateway (requests go to <address>/api/v1/...).',
    placeHolder: 'https://gateway.example.com',
    value: readSettings().baseUrl,
    ignoreFocusOut: true,
    validateInput: validateBaseUrlInput,
  });
  if (value === undefined || validateBaseUrlInput(value)) return false;
  const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  // A folder that already sets the address would hide a user-level change: write where it wins.
  const inspected = configuration.inspect<string>('baseUrl');
  const target = inspected?.workspaceFolderValue !== undefined ? vscode.ConfigurationTarget.WorkspaceFolder
    : inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  await configuration.update('baseUrl', value.trim(), target);
  return true;
}
