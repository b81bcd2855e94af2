import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { ChatController } from './chatController';
import type { ChatDeps } from './chatDeps';
import { bindChatWebview } from './chatWebview';

export const CHAT_VIEW_ID = 'unifiedInference.chat';

/**
 * The Chat view, alone in the Unified Inference view container. Its controller outlives the webview, so a
 * reply keeps streaming (and is kept) while the view is hidden; showing it again rebuilds the page
 * from the controller's state.
 */
export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider {
  readonly controller: ChatController;
  private view: vscode.WebviewView | undefined;
  private binding: vscode.Disposable | undefined;
  private readonly redact: <T>(value: T) => T;

  constructor(
    private readonly extensionUri: vscode.Uri,
    deps: ChatDeps,
    private readonly log: Log,
  ) {
    super();
    this.controller = this._register(new ChatController(deps));
    this.redact = (value) => deps.apiKeys.redact(value);
    this._register({
      dispose: () => {
        this.binding?.dispose();
      },
    });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.binding?.dispose();
    this.binding = bindChatWebview(view.webview, this.extensionUri, this.controller, this.log, this.redact);
    view.onDidDispose(() => {
      if (this.view === view) {
        this.binding?.dispose();
        this.binding = undefined;
        this.view = undefined;
      }
    });
  }

  /** Shows the view (creating its page if needed) and gives it focus. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }
}
