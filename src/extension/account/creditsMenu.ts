import * as vscode from 'vscode';

interface MenuItem extends vscode.QuickPickItem {
  readonly command: string;
}

/** The status bar item's click: the actions around credits and the connection. */
export async function showCreditsMenu(): Promise<void> {
  const items: MenuItem[] = [
    {
      label: `$(refresh) ${vscode.l10n.t('Refresh')}`,
      description: vscode.l10n.t('Read the balance now'),
      command: 'unifiedInference.refreshCredits',
    },
    {
      label: `$(plug) ${vscode.l10n.t('Test Connection')}`,
      description: vscode.l10n.t('Check the gateway, the key and the network'),
      command: 'unifiedInference.testConnection',
    },
    { label: `$(key) ${vscode.l10n.t('Set API Key')}`, command: 'unifiedInference.setApiKey' },
    { label: `$(settings-gear) ${vscode.l10n.t('Open Settings')}`, command: 'unifiedInference.openSettings' },
    { label: `$(output) ${vscode.l10n.t('Show Log')}`, command: 'unifiedInference.showLog' },
  ];
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Unified Inference'),
    placeHolder: vscode.l10n.t('Credits and connection'),
  });
  if (choice) await vscode.commands.executeCommand(choice.command);
}
