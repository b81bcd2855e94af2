import * as vscode from 'vscode';
import { affectsConnection, parseSettings, SETTINGS_SECTION, USER_ONLY_SETTING_KEYS, type Settings } from '../shared/settings';

/**
 * A setting's value from the user's (or the remote machine's) settings, never a workspace's or a
 * folder's. The manifest declares these `application` scope, which VS Code honours already; this
 * is the second lock, in case a scope is ever changed back.
 */
function userValue(configuration: vscode.WorkspaceConfiguration, key: string): unknown {
  const inspected = configuration.inspect(key);
  return inspected?.globalValue ?? inspected?.defaultValue;
}

/** Reads the extension's settings, typed (one accessor for every key in package.json). */
export function readSettings(): Settings {
  const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return parseSettings((key: string) => (USER_ONLY_SETTING_KEYS.includes(key) ? userValue(configuration, key) : configuration.get(key)));
}

/** VS Code's own network settings, which every request of the extension honours. */
export interface NetworkSettings {
  readonly proxy: string;
  readonly strictSSL: boolean;
  readonly noProxy: readonly string[];
}

export function readNetworkSettings(): NetworkSettings {
  // VS Code itself keeps these out of workspace settings; read from the user's all the same.
  const http = vscode.workspace.getConfiguration('http');
  const noProxy = userValue(http, 'noProxy');
  const proxy = userValue(http, 'proxy');
  return {
    proxy: typeof proxy === 'string' ? proxy.trim() : '',
    strictSSL: userValue(http, 'proxyStrictSSL') !== false,
    noProxy: Array.isArray(noProxy) ? noProxy.filter((entry): entry is string => typeof entry === 'string') : [],
  };
}

/** Fires when any of the extension's settings changes (or `http.*` too, with `includeNetwork`). */
export function onDidChangeSettings(listener: () => void, includeNetwork = false): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SETTINGS_SECTION) || (includeNetwork && event.affectsConfiguration('http'))) listener();
  });
}

/** Fires when a setting the gateway connection is built from changes (address, auth header, headers, CA file, http proxy). */
export function onDidChangeConnectionSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (affectsConnection((section) => event.affectsConfiguration(section))) listener();
  });
}

/** Fires when one of the extension's settings under `prefix` (e.g. 'credits') changes. */
export function onDidChangeSettingsUnder(prefix: string, listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(`${SETTINGS_SECTION}.${prefix}`)) listener();
  });
}

/** Opens the Settings editor filtered to one of our settings (or all of them). */
export async function openSettings(key?: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettings', key ? `${SETTINGS_SECTION}.${key}` : `@ext:unified-inference.unified-inference`);
}
