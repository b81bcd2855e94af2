import * as vscode from 'vscode';
import {
  affectsConnection,
  parseSettings,
  SETTINGS_SECTION,
  USER_ONLY_SETTING_KEYS,
  type Settings,
} from '../shared/settings';

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
  if (!remembered) return readSettingsNow();
  return (remembered.settings ??= readSettingsNow());
}

function readSettingsNow(): Settings {
  const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return parseSettings((key: string) =>
    USER_ONLY_SETTING_KEYS.includes(key) ? userValue(configuration, key) : configuration.get(key),
  );
}

/** While `rememberSettings` watches: the settings read since the last configuration change. */
let remembered: { settings?: Settings } | undefined;

/**
 * Keeps one reading of the settings until the configuration changes or the workspace is trusted.
 * A reading costs ~2 ms in the extension host (one `inspect` per user-only key) and views read
 * per row. activate() calls this before anything else registers a listener, so the reading is
 * forgotten before any other listener of the same change event runs and reads again.
 */
export function rememberSettings(): vscode.Disposable {
  const state: { settings?: Settings } = {};
  remembered = state;
  const forget = (): void => {
    state.settings = undefined;
  };
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration(forget),
    vscode.workspace.onDidGrantWorkspaceTrust(forget),
    new vscode.Disposable(() => {
      if (remembered === state) remembered = undefined;
    }),
  );
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
  await openSetting(key ? `${SETTINGS_SECTION}.${key}` : `@ext:unified-inference.unified-inference`);
}

/** Opens the Settings editor filtered to any setting by its full id (VS Code's `http.proxy` too). */
export async function openSetting(id: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettings', id);
}
