import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension/testApi';
import { activateExtension, setSetting, setSettingAndWait } from './extensionHost';

/** Resolves with what `read` returns inside the first change event of `section` (a listener registered after the extension's). */
function readInsideChangeOf<T>(section: string, read: () => T): Promise<T> {
  return new Promise((resolve) => {
    const listener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(section)) return;
      listener.dispose();
      resolve(read());
    });
  });
}

describe('settings: one reading until the configuration changes', function () {
  let api: TestApi;

  before(async () => {
    api = await activateExtension();
  });

  afterEach(async () => {
    await setSettingAndWait('search.results', undefined);
    await setSettingAndWait('checkpoints.maxStorageMB', undefined);
  });

  it('reads the settings once while nothing changes, and again after a change', async () => {
    const first = api.settings();
    assert.equal(api.settings(), first, 'with no change in between, the same reading serves');
    const next = first.search.results === 7 ? 8 : 7;
    await setSettingAndWait('search.results', next);
    const after = api.settings();
    assert.notEqual(after, first, 'the change made a new reading');
    assert.equal(after.search.results, next);
  });

  it('a listener of the change event already reads the new value (workspace setting)', async () => {
    assert.equal(api.settings().search.results, 10, 'the default, remembered');
    const seen = readInsideChangeOf('unifiedInference.search.results', () => api.settings().search.results);
    await setSetting('search.results', 12);
    assert.equal(await seen, 12);
  });

  it('a listener of the change event already reads the new value (user-only setting)', async () => {
    assert.equal(api.settings().checkpoints.maxStorageMB, 500, 'the default, remembered');
    const seen = readInsideChangeOf(
      'unifiedInference.checkpoints.maxStorageMB',
      () => api.settings().checkpoints.maxStorageMB,
    );
    await setSetting('checkpoints.maxStorageMB', 64);
    assert.equal(await seen, 64);
  });
});
