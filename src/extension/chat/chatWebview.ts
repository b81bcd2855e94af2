// Binds one chat webview (the sidebar view's or an editor panel's) to its controller: sets the
// secure page, validates every incoming message (untrusted), and queues outgoing ones until the
// page says `ready` (a hidden view's script has not run yet).
import * as vscode from 'vscode';
import { parseChatToHostMessage, type HostToChatMessage } from '../../shared/chatProtocol';
import type { Log } from '../log';
import { buildWebviewHtml, webviewOptions } from '../webview/webviewHtml';
import type { ChatController } from './chatController';
import { errorMessage } from '../../shared/errorMessage';

export function bindChatWebview(webview: vscode.Webview, extensionUri: vscode.Uri, controller: ChatController, log: Log): vscode.Disposable {
  let ready = false;
  const pending: HostToChatMessage[] = [];
  webview.options = webviewOptions(extensionUri);
  webview.html = buildWebviewHtml(webview, extensionUri, { title: vscode.l10n.t('Unified Inference Chat'), script: 'chat', styles: ['media/webview.css', 'media/chat.css', 'media/chatMarkdown.css'] });
  controller.attach((message) => {
    if (!ready) pending.push(message);
    else void webview.postMessage(message);
  });
  return webview.onDidReceiveMessage(async (raw: unknown) => {
    const message = parseChatToHostMessage(raw);
    if (!message) {
      log.warn('The chat sent a message that is not part of the protocol; ignored.');
      return;
    }
    if (message.type === 'ready') {
      // A reloaded page starts from scratch: what was queued for the old one is replaced by the full state.
      pending.length = 0;
      ready = true;
    }
    try {
      await controller.handle(message);
      if (message.type === 'ready') for (const queued of pending.splice(0)) void webview.postMessage(queued);
    } catch (error) {
      log.error(`Chat: handling "${message.type}" failed: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Unified Inference chat: {0}', errorMessage(error)));
    }
  });
}
