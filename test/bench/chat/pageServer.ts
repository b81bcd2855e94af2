// Serves the two benchmark pages from 127.0.0.1 with the extension's webview CSP: `/chat` loads
// the real chat bundle (dist/webview/chat.js) and the chat's stylesheets, as the webview HTML of
// src/extension/webview/webviewHtml.ts does; `/baseline` has the same CSP and stylesheets but
// renders raw text. Only files under dist/ and media/ are served (the webviews' resource roots).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { webviewDocument, type PageScript } from '../../../src/shared/csp';
import { REPO_ROOT } from '../../harness/testHost';
import { baselineRenderer, benchHarness, vscodeApiStub } from './pageScripts';

export type PageKind = 'chat' | 'baseline';

export interface PageServer {
  readonly url: string;
  stop(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
};
const STYLES = ['dist/codicons/codicon.css', 'media/webview.css', 'media/chat.css', 'media/chatMarkdown.css'];

/** An inline script (the page's nonce lets it run): a function sent by its source text. */
function inline(fn: () => void): PageScript {
  return { inline: `(${fn.toString()})();` };
}

function pageHtml(kind: PageKind, origin: string): string {
  return webviewDocument({
    cspSource: origin,
    // The same nonce source as the extension (crypto), base64 of 16 bytes.
    nonce: randomBytes(16).toString('base64'),
    title: `Chat benchmark: ${kind}`,
    styles: STYLES.filter((path) => existsSync(join(REPO_ROOT, path))).map((path) => `${origin}/${path}`),
    scripts: [
      inline(vscodeApiStub),
      kind === 'chat' ? { src: `${origin}/dist/webview/chat.js` } : inline(baselineRenderer),
      inline(benchHarness),
    ],
  });
}

export async function startPageServer(): Promise<PageServer> {
  let origin = '';
  const server: Server = createServer((req, res) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', origin).pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (path === '/chat' || path === '/baseline') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(pageHtml(path.slice(1) as PageKind, origin));
      return;
    }
    const file = normalize(join(REPO_ROOT, path));
    const allowed = [join(REPO_ROOT, 'dist') + sep, join(REPO_ROOT, 'media') + sep].some((root) =>
      file.startsWith(root),
    );
    if (!allowed || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
