import * as vscode from 'vscode';
import { USER_ONLY_SETTING_KEYS } from '../../src/shared/settings';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type GatewayOptions, type LocalGateway } from '../gateway/index';

export const EXTENSION_ID = 'unified-inference.unified-inference';

/** Starts a local gateway and connects the extension to it (address in user settings, key through the command). */
export async function connectedGateway(api: TestApi, options: GatewayOptions = {}): Promise<LocalGateway> {
  const gateway = await startGateway(options);
  await setSetting('baseUrl', gateway.url);
  await setKeyThroughCommand(gateway.apiKey);
  await waitFor(
    () => api.connection.setup.hasKey && !!api.connection.setup.client,
    (ready) => ready,
    'the connection',
  );
  return gateway;
}

/** Undoes connectedGateway: the key and the address cleared, the gateway stopped. */
export async function disconnectGateway(gateway: LocalGateway | undefined): Promise<void> {
  await clearKeyThroughCommand(true);
  await setSetting('baseUrl', undefined);
  await gateway?.stop();
}

/** Activates the extension under test and returns its test-mode API. */
export async function activateExtension(): Promise<TestApi> {
  const extension = vscode.extensions.getExtension<TestApi | undefined>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded in this extension host`);
  const api = await extension.activate();
  if (!api) throw new Error('The extension returned no test API: is it running in test mode?');
  return api;
}

type Patchable = Record<string, unknown>;

/**
 * Replaces `target[name]` for one test (e.g. window.showInputBox, which a test in the extension
 * host cannot type into) and returns a restore function.
 */
export function replace<T extends object, K extends keyof T>(target: T, name: K, value: T[K]): () => void {
  const original = target[name];
  (target as Patchable)[name as string] = value;
  return () => {
    (target as Patchable)[name as string] = original;
  };
}

/** Runs `setApiKey` with the input box answering `answer`; returns what the box was asked. */
export async function setKeyThroughCommand(
  answer: string | undefined,
): Promise<{ options?: vscode.InputBoxOptions; result: unknown }> {
  let seen: vscode.InputBoxOptions | undefined;
  const restore = replace(vscode.window, 'showInputBox', async (options?: vscode.InputBoxOptions) => {
    seen = options;
    return answer;
  });
  try {
    const result = await vscode.commands.executeCommand('unifiedInference.setApiKey');
    return { options: seen, result };
  } finally {
    restore();
  }
}

/** Runs `clearApiKey`, confirming (or not) the modal question. */
export async function clearKeyThroughCommand(confirm: boolean): Promise<unknown> {
  const restore = replace(vscode.window, 'showWarningMessage', async (_message: string, ...rest: unknown[]) => {
    const items = rest.filter((item): item is string => typeof item === 'string');
    return confirm ? items[0] : undefined;
  });
  try {
    return await vscode.commands.executeCommand('unifiedInference.clearApiKey');
  } finally {
    restore();
  }
}

/** Polls `read` until `accept` holds (bounded); returns the last value read. */
export async function waitFor<T>(
  read: () => T | Promise<T>,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value)) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

export type Shown = { kind: 'info' | 'warning' | 'error'; message: string };

/** Records the notifications the extension shows (answering none of them) until restored. */
export function recordNotifications(): { shown: Shown[]; restore: () => void } {
  const shown: Shown[] = [];
  const record = (kind: Shown['kind']) => async (message: string) => {
    shown.push({ kind, message });
    return undefined;
  };
  const restores = [
    replace(vscode.window, 'showInformationMessage', record('info') as typeof vscode.window.showInformationMessage),
    replace(vscode.window, 'showWarningMessage', record('warning') as typeof vscode.window.showWarningMessage),
    replace(vscode.window, 'showErrorMessage', record('error') as typeof vscode.window.showErrorMessage),
  ];
  return { shown, restore: () => restores.reverse().forEach((restore) => restore()) };
}

/**
 * Sets one of the extension's settings (undefined removes it): in the test folder, or in the user
 * settings for those a workspace may not set (where requests and the key go).
 */
export async function setSetting(key: string, value: unknown): Promise<void> {
  const target = USER_ONLY_SETTING_KEYS.includes(key)
    ? vscode.ConfigurationTarget.Global
    : vscode.ConfigurationTarget.Workspace;
  await vscode.workspace.getConfiguration('unifiedInference').update(key, value, target);
}

/**
 * Sets a setting and waits until the extension host reads the new value (a command that reads it
 * when it runs must not see the old one).
 */
export async function setSettingAndWait(key: string, value: unknown): Promise<void> {
  await setSetting(key, value);
  const configuration = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('unifiedInference');
  // Removing a setting brings its default back.
  const expected = JSON.stringify(value === undefined ? configuration().inspect(key)?.defaultValue : value);
  await waitFor(
    () => configuration().get(key),
    (seen) => JSON.stringify(seen) === expected,
    `the setting ${key}`,
  );
}

/**
 * Sets a setting and waits until the connection is quiet: a settings change may rebuild the
 * gateway client, which closes the old one under a request started at the same moment.
 */
export async function setSettingQuietly(api: TestApi, key: string, value: unknown): Promise<void> {
  let rebuilt = 0;
  const listener = api.connection.onDidChange(() => rebuilt++);
  try {
    await setSettingAndWait(key, value);
    for (let seen = -1; seen !== rebuilt;) {
      seen = rebuilt;
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  } finally {
    listener.dispose();
  }
}

/** Sends one request to a language model and collects what its response stream gives. */
export async function askModel(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  options: vscode.LanguageModelChatRequestOptions = {},
  token?: vscode.CancellationToken,
): Promise<{ text: string; calls: vscode.LanguageModelToolCallPart[] }> {
  const response = await model.sendRequest(messages, options, token ?? new vscode.CancellationTokenSource().token);
  let text = '';
  const calls: vscode.LanguageModelToolCallPart[] = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
  }
  return { text, calls };
}
