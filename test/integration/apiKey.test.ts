import * as assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension/testApi';
import { activateExtension, clearKeyThroughCommand, setKeyThroughCommand } from './extensionHost';

// The harness hands every run a fresh key and afterwards searches every file the run wrote for it.
const KEY = process.env.UNIFIED_INFERENCE_TEST_SECRET ?? 'uik-test-fallback-key-0123456789';

async function logText(api: TestApi): Promise<string> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.log')) files.push(path);
    }
  };
  await walk(api.logUri.fsPath);
  return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
}

describe('API key (SecretStorage) through the commands', () => {
  let api: TestApi;

  before(async () => {
    api = await activateExtension();
  });

  it('registers the commands of the manifest', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['unifiedInference.setApiKey', 'unifiedInference.clearApiKey', 'unifiedInference.showLog']) {
      assert.ok(commands.includes(id), `${id} is registered`);
    }
  });

  it('asks for the key in a password box and stores it trimmed', async () => {
    const { options, result } = await setKeyThroughCommand(`  ${KEY}  `);
    assert.equal(result, true);
    assert.equal(options?.password, true, 'the input box hides what is typed');
    assert.equal(await api.storedApiKey(), KEY);
  });

  it('rejects an empty key with a message and keeps the stored one', async () => {
    const { options, result } = await setKeyThroughCommand('   ');
    assert.equal(result, false);
    const validation = options?.validateInput?.('   ');
    assert.match(String(validation), /Enter the API key/);
    assert.equal(await api.storedApiKey(), KEY, 'the earlier key is untouched');
  });

  it('keeps the key when the input box is dismissed', async () => {
    const { result } = await setKeyThroughCommand(undefined);
    assert.equal(result, false);
    assert.equal(await api.storedApiKey(), KEY);
  });

  it('never writes the key to the log, settings or extension state', async () => {
    await vscode.commands.executeCommand('unifiedInference.showLog');
    const log = await logText(api);
    assert.match(log, /API key stored in secret storage/, 'the log file was found and has the entry');
    assert.ok(!log.includes(KEY), 'the log does not contain the key');

    const configuration = vscode.workspace.getConfiguration('unifiedInference');
    for (const key of ['baseUrl', 'authHeader']) {
      assert.ok(
        !JSON.stringify(configuration.inspect(key) ?? {}).includes(KEY),
        `setting ${key} does not contain the key`,
      );
    }
    assert.ok(!JSON.stringify(api.storedState()).includes(KEY), 'globalState/workspaceState do not contain the key');
  });

  it('clears the key only after confirmation', async () => {
    assert.equal(await clearKeyThroughCommand(false), false);
    assert.equal(await api.storedApiKey(), KEY, 'cancelled: key kept');
    assert.equal(await clearKeyThroughCommand(true), true);
    assert.equal(await api.storedApiKey(), undefined, 'confirmed: key removed');
  });

  it('falls back to UNIFIED_INFERENCE_API_KEY when nothing is stored', async () => {
    const before = process.env.UNIFIED_INFERENCE_API_KEY;
    process.env.UNIFIED_INFERENCE_API_KEY = `${KEY}-env`;
    try {
      assert.equal(await api.storedApiKey(), undefined, 'nothing is stored');
      assert.equal(await api.apiKeySource(), 'environment');
    } finally {
      if (before === undefined) delete process.env.UNIFIED_INFERENCE_API_KEY;
      else process.env.UNIFIED_INFERENCE_API_KEY = before;
    }
    assert.equal(await api.apiKeySource(), 'none');
  });
});
