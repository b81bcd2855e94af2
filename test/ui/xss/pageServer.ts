// A tiny page server on 127.0.0.1 for the XSS corpus: the page (with the webviews' CSP in a meta
// tag, as src/extension/webview/webviewHtml.ts writes it, or without any CSP to test the sanitizer
// alone), the renderer bundle, and the stylesheets a chat webview loads. Every other path is a
// 404 and is remembered, so a request that slipped past the browser-side checks still shows up.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildCsp, escapeHtml } from '../../../src/shared/csp';

export interface PageServer {
  readonly origin: string;
  /** Paths the page may load (the page itself, its bundle and stylesheets). */
  readonly allowedPaths: readonly string[];
  /** Requests for anything else. */
  readonly strayRequests: string[];
  close(): Promise<void>;
}

/** Dark-theme values of the VS Code variables the chat CSS uses (a webview receives them from VS Code). */
const THEME_CSS = `:root {
  --vscode-font-family: -apple-system, "Segoe UI", "Ubuntu", "Droid Sans", sans-serif;
  --vscode-font-size: 13px;
  --vscode-editor-font-family: "Droid Sans Mono", "monospace", monospace;
  --vscode-editor-font-size: 13px;
  --vscode-foreground: #cccccc;
  --vscode-descriptionForeground: #9d9d9d;
  --vscode-editor-foreground: #cccccc;
  --vscode-sideBar-background: #181818;
  --vscode-textLink-foreground: #4daafc;
  --vscode-textLink-activeForeground: #4daafc;
  --vscode-textCodeBlock-background: #2b2b2b;
  --vscode-textPreformat-foreground: #d0d0d0;
  --vscode-textPreformat-background: #3c3c3c;
  --vscode-textBlockQuote-background: #2b2b2b;
  --vscode-textBlockQuote-border: #616161;
  --vscode-widget-border: #313131;
  --vscode-focusBorder: #0078d4;
  --vscode-icon-foreground: #cccccc;
  --vscode-toolbar-hoverBackground: rgba(90, 93, 94, 0.31);
  --vscode-debugTokenExpression-name: #c586c0;
  --vscode-debugTokenExpression-value: rgba(204, 204, 204, 0.6);
  --vscode-debugTokenExpression-string: #ce9178;
  --vscode-debugTokenExpression-boolean: #4e94ce;
  --vscode-debugTokenExpression-number: #b5cea8;
  --vscode-symbolIcon-functionForeground: #b180d7;
  --vscode-symbolIcon-classForeground: #ee9d28;
  --vscode-symbolIcon-variableForeground: #75beff;
  --vscode-keybindingLabel-background: rgba(128, 128, 128, 0.17);
  --vscode-keybindingLabel-foreground: #cccccc;
  --vscode-keybindingLabel-border: rgba(51, 51, 51, 0.6);
  --vscode-keybindingLabel-bottomBorder: rgba(68, 68, 68, 0.6);
}
body { margin: 0; padding: 12px 16px; color: var(--vscode-foreground); background: var(--vscode-sideBar-background);
  font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
.payload { border-top: 1px solid var(--vscode-widget-border); padding: 4px 0; }
.payload-title { font-size: 11px; color: var(--vscode-descriptionForeground); margin: 0; font-weight: normal; }
.rendered { padding: 2px 0 2px 8px; border-left: 2px solid var(--vscode-widget-border); margin: 2px 0; }
.turn { max-width: 720px; }
.turn-author { display: flex; align-items: center; gap: 6px; font-weight: 600; margin-bottom: 8px; }
`;

function page(nonce: string, origin: string, csp: boolean): string {
  const policy = csp
    ? `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(buildCsp({ cspSource: origin, nonce }))}">`
    : '';
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    ${policy}
    <link rel="icon" href="data:,">
    <title>XSS corpus</title>
    <link rel="stylesheet" href="/codicon.css">
    <link rel="stylesheet" href="/theme.css">
    <link rel="stylesheet" href="/chatMarkdown.css">
  </head>
  <body>
    <main id="corpus" aria-live="polite"></main>
    <script nonce="${nonce}" src="/bundle.js"></script>
  </body>
</html>`;
}

export async function startPageServer(bundleFile: string, repoRoot: string): Promise<PageServer> {
  const codicons = join(repoRoot, 'node_modules', '@vscode', 'codicons', 'dist');
  const files: Record<string, { type: string; body: () => Buffer | string }> = {
    '/bundle.js': { type: 'text/javascript', body: () => readFileSync(bundleFile) },
    '/chatMarkdown.css': { type: 'text/css', body: () => readFileSync(join(repoRoot, 'media', 'chatMarkdown.css')) },
    '/codicon.css': { type: 'text/css', body: () => readFileSync(join(codicons, 'codicon.css')) },
    '/codicon.ttf': { type: 'font/ttf', body: () => readFileSync(join(codicons, 'codicon.ttf')) },
    '/theme.css': { type: 'text/css', body: () => THEME_CSS },
  };
  const strayRequests: string[] = [];
  let origin = '';
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/') {
      const nonce = randomBytes(18).toString('base64');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(page(nonce, origin, url.searchParams.get('csp') !== 'off'));
      return;
    }
    const file = files[url.pathname];
    if (!file) {
      strayRequests.push(`${request.method ?? 'GET'} ${url.pathname}${url.search}`);
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
    response.end(file.body());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    allowedPaths: ['/', ...Object.keys(files)],
    strayRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
