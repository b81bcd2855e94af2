import * as vscode from 'vscode';
import { buildCsp, escapeHtml } from '../../shared/csp';
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
export function webviewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: webviewResourceRoots(extensionUri) };
}

/**
 * The HTML of every webview: strict CSP with a per-load nonce, local scripts and styles only,
 * codicons, and an empty `#root` the bundle renders into.
 */
export function buildWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = createNonce();
  const asset = (...path: string[]): string => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString();
  const styles = ['dist/codicons/codicon.css', ...page.styles]
    .map((path) => `<link rel="stylesheet" href="${escapeHtml(asset(...path.split('/')))}">`)
    .join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(buildCsp({ cspSource: webview.cspSource, nonce }))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <title>${escapeHtml(page.title)}</title>
    ${styles}
  </head>
  <body>
    <main id="root" aria-live="polite"></main>
    <script nonce="${nonce}" src="${escapeHtml(asset('dist', 'webview', `${page.script}.js`))}"></script>
  </body>
</html>`;
}
