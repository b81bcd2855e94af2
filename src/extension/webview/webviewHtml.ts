import * as vscode from 'vscode';
import { webviewDocument } from '../../shared/csp';
import { createNonce } from './nonce';

export interface WebviewPage {
  /** Page title, for screen readers. */
  readonly title: string;
  /** The bundle name under dist/webview (e.g. 'chat'). */
  readonly script: string;
  /** Stylesheets relative to the extension root (e.g. 'media/chat.css'). */
  readonly styles: readonly string[];
}

/** The only folders a webview may load from. */
function webviewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** `extraRoots`: folders beyond dist/ and media/ a webview loads from (the chat's images). */
export function webviewOptions(
  extensionUri: vscode.Uri,
  extraRoots: readonly vscode.Uri[] = [],
): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [...webviewResourceRoots(extensionUri), ...extraRoots],
  };
}

/**
 * The HTML of every webview: strict CSP with a per-load nonce, local scripts and styles only,
 * codicons, and an empty `#root` the bundle renders into.
 */
export function buildWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const asset = (path: string): string =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path.split('/'))).toString();
  return webviewDocument({
    cspSource: webview.cspSource,
    nonce: createNonce(),
    title: page.title,
    styles: ['dist/codicons/codicon.css', ...page.styles].map(asset),
    scripts: [{ src: asset(`dist/webview/${page.script}.js`) }],
  });
}
