import * as vscode from 'vscode';
import type { Log } from '../log';
import { validateApiKeyInput } from './apiKeyInput';
import { API_KEY_ENV_VAR, type ApiKeyStore } from './apiKeyStore';

export async function setApiKeyCommand(store: ApiKeyStore, log: Log): Promise<boolean> {
  const value = await vscode.window.showInputBox({
    title: 'Unified Inference: Set API Key',
    prompt: 'Your gateway API key. It is kept in VS Code\'s secret storage, never in settings.',
    placeHolder: 'Paste the API key',
    password: true,
    ignoreFocusOut: true,
    validateInput: validateApiKeyInput,
  });
  if (value === undefined) return false;
  const problem = validateApiKeyInput(value);
  if (problem) {
    void vscode.window.showErrorMessage(`API key not saved: ${problem}`);
    return false;
  }
  await store.set(value);
  log.info('API key stored in secret storage.');
  void vscode.window.showInformationMessage('Unified Inference: API key saved.');
  return true;
}

export async function clearApiKeyCommand(store: ApiKeyStore, log: Log): Promise<boolean> {
  const clear = 'Clear API Key';
  const answer = await vscode.window.showWarningMessage(
    'Remove the Unified Inference API key from this machine\'s secret storage?',
    { modal: true, detail: 'Requests to the gateway will fail until a key is set again.' },
    clear,
  );
  if (answer !== clear) return false;
  await store.clear();
  log.info('API key removed from secret storage.');
  const stillSet = await store.get();
  const note = stillSet?.source === 'environment' ? ` The key from the ${API_KEY_ENV_VAR} environment variable is still used.` : '';
  void vscode.window.showInformationMessage(`Unified Inference: API key cleared.${note}`);
  return true;
}
