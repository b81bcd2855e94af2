// "Open Chat in Editor": a chat in an editor tab, with its own controller (its own conversation),
// sharing history with the sidebar.
import * as vscode from 'vscode';
import type { Log } from '../log';
import { ChatController } from './chatController';
import type { ChatDeps } from './chatDeps';
import { bindChatWebview } from './chatWebview';

const CHAT_PANEL_TYPE = 'unifiedInference.chatPanel';

export async function openChatPanel(
  extensionUri: vscode.Uri,
  deps: ChatDeps,
  log: Log,
  conversationId?: string,
): Promise<ChatController> {
  const panel = vscode.window.createWebviewPanel(
    CHAT_PANEL_TYPE,
    vscode.l10n.t('Unified Inference Chat'),
    vscode.ViewColumn.Beside,
    { retainContextWhenHidden: false },
  );
  panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'unified-inference.svg');
  const controller = new ChatController(deps, false);
  if (conversationId) await controller.handle({ type: 'openConversation', id: conversationId });
  const binding = bindChatWebview(panel.webview, extensionUri, controller, log, (value) => deps.apiKeys.redact(value));
  panel.onDidDispose(() => {
    binding.dispose();
    controller.dispose();
  });
  return controller;
}
