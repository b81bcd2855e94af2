import * as vscode from 'vscode';
import { parseSettings, SETTINGS_SECTION, type SettingKey, type Settings } from '../shared/settings';

/** Reads the extension's settings, typed (one accessor for every key in package.json). */
export function readSettings(): Settings {
  const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return parseSettings((key: SettingKey) => configuration.get(key));
}

/** Fires when any of the extension's settings changes. */
export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SETTINGS_SECTION)) listener();
  });
}

/** Opens the Settings editor filtered to one of our settings (or all of them). */
export async function openSettings(key?: SettingKey): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettings', key ? `${SETTINGS_SECTION}.${key}` : `@ext:unified-inference.unified-inference`);
}
