import * as vscode from 'vscode';
import type { Log } from '../log';
import { validateApiKeyInput } from '../../core/transport/apiKeyInput';
import { API_KEY_ENV_VAR, type ApiKeyStore } from './apiKeyStore';

export async function setApiKeyCommand(store: ApiKeyStore, log: Log): Promise<boolean> {
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Unified Inference: Set API Key'),
    prompt: vscode.l10n.t("Your gateway API key. It is kept in VS Code's secret storage, never in settings."),
    placeHolder: vscode.l10n.t('Paste the API key'),
    password: true,
    ignoreFocusOut: true,
    validateInput: (input) => validateApiKeyInput(input, vscode.l10n),
  });
  if (value === undefined) return false;
  const problem = validateApiKeyInput(value, vscode.l10n);
  if (problem) {
    void vscode.window.showErrorMessage(vscode.l10n.t('API key not saved: {0}', problem));
    return false;
  }
  await store.set(value);
  log.info('API key stored in secret storage.');
  void vscode.window.showInformationMessage(vscode.l10n.t('Unified Inference: API key saved.'));
  return true;
}

export async function clearApiKeyCommand(store: ApiKeyStore, log: Log): Promise<boolean> {
  const clear = vscode.l10n.t('Clear API Key');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t("Remove the Unified Inference API key from this machine's secret storage?"),
    { modal: true, detail: vscode.l10n.t('Requests to the gateway will fail until a key is set again.') },
    clear,
  );
  if (answer !== clear) return false;
  await store.clear();
  log.info('API key removed from secret storage.');
  const stillSet = await store.get();
  void vscode.window.showInformationMessage(
    stillSet?.source === 'environment'
      ? vscode.l10n.t(
          'Unified Inference: API key cleared. The key from the {0} environment variable is still used.',
          API_KEY_ENV_VAR,
        )
      : vscode.l10n.t('Unified Inference: API key cleared.'),
  );
  return true;
}
