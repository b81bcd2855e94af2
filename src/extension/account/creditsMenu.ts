import * as vscode from 'vscode';

interface MenuItem extends vscode.QuickPickItem {
  readonly command: string;
}

/** The status bar item's click: the actions around credits and the connection. */
export async function showCreditsMenu(): Promise<void> {
  const items: MenuItem[] = [
    { label: '$(refresh) Refresh', description: 'Read the balance now', command: 'unifiedInference.refreshCredits' },
    { label: '$(plug) Test Connection', description: 'Check the gateway, the key and the network', command: 'unifiedInference.testConnection' },
    { label: '$(key) Set API Key', command: 'unifiedInference.setApiKey' },
    { label: '$(settings-gear) Open Settings', command: 'unifiedInference.openSettings' },
    { label: '$(output) Show Log', command: 'unifiedInference.showLog' },
  ];
  const choice = await vscode.window.showQuickPick(items, { title: 'Unified Inference', placeHolder: 'Credits and connection' });
  if (choice) await vscode.commands.executeCommand(choice.command);
}
