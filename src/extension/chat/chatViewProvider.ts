import * as vscode from 'vscode';
import { assertNever, parseChatToHostMessage, type ConnectionState, type HostToChatMessage } from '../../shared/chatProtocol';
import type { ApiKeyStore } from '../apiKey/apiKeyStore';
import { onDidChangeSettings, readSettings } from '../config';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { buildWebviewHtml, webviewOptions } from '../webview/webviewHtml';

export const CHAT_VIEW_ID = 'unifiedInference.chat';

/**
 * The Chat view in the Unified Inference container. Messages to the webview are queued until it
 * says `ready` (a hidden view's script has not run yet).
 */
export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private readonly pending: HostToChatMessage[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly apiKeys: ApiKeyStore,
    private readonly log: Log,
  ) {
    super();
    this._register(apiKeys.onDidChange(() => void this.sendConnectionState()));
    this._register(onDidChangeSettings(() => void this.sendConnectionState()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    view.webview.options = webviewOptions(this.extensionUri);
    view.webview.html = buildWebviewHtml(view.webview, this.extensionUri, {
      title: 'Unified Inference Chat',
      script: 'chat',
      styles: ['media/webview.css'],
    });
    const subscription = view.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw));
    view.onDidDispose(() => {
      subscription.dispose();
      this.view = undefined;
      this.ready = false;
    });
  }

  private async onMessage(raw: unknown): Promise<void> {
    const message = parseChatToHostMessage(raw);
    if (!message) {
      this.log.warn('Chat view sent a message that is not part of the protocol; ignored.');
      return;
    }
    switch (message.type) {
      case 'ready':
        this.ready = true;
        await this.sendConnectionState();
        for (const queued of this.pending.splice(0)) void this.view?.webview.postMessage(queued);
        return;
      case 'runCommand':
        await vscode.commands.executeCommand(
          message.command === 'setApiKey' ? 'unifiedInference.setApiKey' : 'unifiedInference.openSettings',
        );
        return;
      default:
        assertNever(message);
    }
  }

  private async sendConnectionState(): Promise<void> {
    const state: ConnectionState = { baseUrl: readSettings().baseUrl, keySource: await this.apiKeys.source() };
    this.post({ type: 'connectionState', state });
  }

  private post(message: HostToChatMessage): void {
    if (!this.view || !this.ready) {
      this.pending.push(message);
      return;
    }
    void this.view.webview.postMessage(message);
  }
}
