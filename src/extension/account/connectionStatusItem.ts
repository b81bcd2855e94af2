import * as vscode from 'vscode';
import type { ApiKeyStore } from '../apiKey/apiKeyStore';
import { onDidChangeSettings, readSettings } from '../config';
import { Disposable } from '../lifecycle';

/**
 * The status bar entry: tells at a glance whether the gateway is configured, and takes the user
 * to the missing step. (The credit balance joins it with the account issue.)
 */
export class ConnectionStatusItem extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('unifiedInference.status', vscode.StatusBarAlignment.Right, 100));

  constructor(private readonly apiKeys: ApiKeyStore) {
    super();
    this.item.name = 'Unified Inference';
    this._register(apiKeys.onDidChange(() => void this.update()));
    this._register(onDidChangeSettings(() => void this.update()));
    void this.update();
    this.item.show();
  }

  async update(): Promise<void> {
    const key = await this.apiKeys.get();
    const { baseUrl } = readSettings();
    if (this.isDisposed) return;
    // Welcome views and menus read this context key to offer only the step that is missing.
    void vscode.commands.executeCommand('setContext', 'unifiedInference.hasApiKey', !!key);
    if (!key) {
      this.show('$(key) Set API key', 'Unified Inference: no API key. Click to set one.', 'unifiedInference.setApiKey', true);
    } else if (!baseUrl) {
      this.show('$(gear) Configure gateway', 'Unified Inference: the gateway address (unifiedInference.baseUrl) is not set. Click to open the setting.', 'unifiedInference.openSettings', true);
    } else {
      const from = key.source === 'environment' ? 'the UNIFIED_INFERENCE_API_KEY environment variable' : 'secret storage';
      this.show('$(sparkle) Unified Inference', `Gateway: ${baseUrl}\nAPI key: set (from ${from})`, 'unifiedInference.showLog', false);
    }
  }

  private show(text: string, tooltip: string, command: string, warn: boolean): void {
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.command = command;
    this.item.accessibilityInformation = { label: tooltip, role: 'button' };
    this.item.backgroundColor = warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }
}
