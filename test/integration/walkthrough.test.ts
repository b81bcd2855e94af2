// The walkthrough's steps tick when the user did them elsewhere: the context keys their completion
// events wait for (package.json, checked by test/unit/walkthrough.test.ts) are set when the address
// and the key are there, when the gateway answered (Test Connection, or a balance read), and when a
// chat opened (the Chat view or a chat in an editor). VS Code cannot read a context key back: what
// the extension sent is seen through `setContext` itself, the values through the test API.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type LocalGateway } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  recordNotifications,
  replace,
  setKeyThroughCommand,
  setSetting,
  waitFor,
} from './extensionHost';

const KEYS = {
  hasBaseUrl: 'unifiedInference.hasBaseUrl',
  hasApiKey: 'unifiedInference.hasApiKey',
  connectionTested: 'unifiedInference.connectionTested',
  chatOpened: 'unifiedInference.chatOpened',
};

describe('walkthrough: its steps tick when done anywhere', function () {
  this.timeout(60_000);
  let api: TestApi;
  let gateway: LocalGateway;
  /** The `setContext` calls the extension made since `watch()`, as [key, value]. */
  let sent: [string, unknown][] = [];
  let restoreSpy: (() => void) | undefined;

  /** Records the extension's setContext calls (it shares this vscode API object with the test). */
  function watch(): void {
    sent = [];
    const execute = vscode.commands.executeCommand.bind(vscode.commands);
    restoreSpy = replace(vscode.commands, 'executeCommand', (<T>(command: string, ...rest: unknown[]) => {
      if (command === 'setContext') sent.push([rest[0] as string, rest[1]]);
      return execute<T>(command, ...rest);
    }) as typeof vscode.commands.executeCommand);
  }

  const setTrue = (key: string): Promise<unknown> =>
    waitFor(
      () => sent.some(([k, value]) => k === key && value === true),
      (seen) => seen,
      `setContext ${key} true`,
    );
  const value = (key: string): unknown => api.contextKeys().get(key);

  before(async () => {
    api = await activateExtension();
    gateway = await startGateway();
  });

  afterEach(() => {
    restoreSpy?.();
    restoreSpy = undefined;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('the address and the key: set when they are there, cleared when they are gone', async () => {
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await waitFor(
      () => [value(KEYS.hasBaseUrl), value(KEYS.hasApiKey)],
      ([a, k]) => a === false && k === false,
      'none',
    );
    await setSetting('baseUrl', gateway.url);
    await waitFor(
      () => value(KEYS.hasBaseUrl),
      (v) => v === true,
      'hasBaseUrl',
    );
    assert.equal(value(KEYS.hasApiKey), false);
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(
      () => value(KEYS.hasApiKey),
      (v) => v === true,
      'hasApiKey',
    );
  });

  it('a connection tested: by a balance read (no command needed), and by Test Connection', async () => {
    watch();
    await vscode.commands.executeCommand('unifiedInference.refreshCredits');
    await waitFor(
      () => api.credits.state.kind,
      (kind) => kind === 'ok',
      'the balance',
    );
    await setTrue(KEYS.connectionTested);
    assert.equal(value(KEYS.connectionTested), true);

    sent = [];
    const notes = recordNotifications();
    try {
      await vscode.commands.executeCommand('unifiedInference.testConnection');
      await setTrue(KEYS.connectionTested);
    } finally {
      notes.restore();
    }
  });

  it('not by a balance read the gateway refused', async () => {
    await setKeyThroughCommand('sim-not-a-valid-key-for-anyone');
    await waitFor(
      () => api.connection.setup.hasKey,
      (has) => has,
      'the key',
    );
    watch();
    try {
      await api.credits.refresh();
      await waitFor(
        () => api.credits.state.kind,
        (kind) => kind === 'badKey',
        'the refusal',
      );
      assert.ok(!sent.some(([key]) => key === KEYS.connectionTested), JSON.stringify(sent));
    } finally {
      restoreSpy?.();
      await setKeyThroughCommand(gateway.apiKey);
    }
  });

  it('a chat opened: in an editor, and the Chat view', async () => {
    watch();
    await vscode.commands.executeCommand('unifiedInference.chat.openInEditor');
    await setTrue(KEYS.chatOpened);
    assert.equal(value(KEYS.chatOpened), true);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // The Chat view's page is made when the view shows (its webview is not kept while hidden).
    await vscode.commands.executeCommand('workbench.view.explorer');
    sent = [];
    await vscode.commands.executeCommand('unifiedInference.chat.focus');
    await setTrue(KEYS.chatOpened);
  });
});
