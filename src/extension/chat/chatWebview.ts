// Binds one chat webview (the sidebar view's or an editor panel's) to its controller: the secure
// page, and the webview channel between the two.
import * as vscode from 'vscode';
import {
  outlivesChatState,
  parseChatToHostMessage,
  type ChatToHostMessage,
  type HostToChatMessage,
} from '../../shared/chatProtocol';
import { setContextKey, WALKTHROUGH_KEYS } from '../contextKeys';
import type { Log } from '../log';
import { WebviewChannel } from '../webview/webviewChannel';
import { buildWebviewHtml, webviewOptions } from '../webview/webviewHtml';
import type { ChatController } from './chatController';
import { errorMessage } from '../../shared/errorMessage';

export function bindChatWebview(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  controller: ChatController,
  log: Log,
  redact: <T>(value: T) => T,
): vscode.Disposable {
  const imageFolder = controller.imageFolder;
  // The conversations' images are the one folder outside the extension the chat may load from.
  webview.options = webviewOptions(extensionUri, imageFolder ? [imageFolder] : []);
  webview.html = buildWebviewHtml(webview, extensionUri, {
    title: vscode.l10n.t('Unified Inference Chat'),
    script: 'chat',
    styles: ['media/webview.css', 'media/chat.css', 'media/chatMarkdown.css'],
  });
  const channel = new WebviewChannel<ChatToHostMessage, HostToChatMessage>(webview, {
    name: 'chat',
    parse: parseChatToHostMessage,
    receive: (message) => {
      // A chat page loaded (the sidebar's Chat view, shown again after it was hidden, or a chat in
      // an editor): the walkthrough's "Open the chat" is done. The view's webview is made once per
      // window, so its making alone missed every later opening.
      if (message.type === 'ready') setContextKey(WALKTHROUGH_KEYS.chatOpened, true);
      return controller.handle(message);
    },
    redact,
    log,
    // The controller answers `ready` with its whole state.
    keepAfterReady: outlivesChatState,
    onError: (error) =>
      void vscode.window.showErrorMessage(vscode.l10n.t('Unified Inference chat: {0}', errorMessage(error))),
  });
  controller.attach(
    (message) => channel.post(message),
    imageFolder ? webview.asWebviewUri(imageFolder).toString() : '',
  );
  return channel;
}
