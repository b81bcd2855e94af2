// The Content-Security-Policy every webview of the extension uses, and the page it heads. Model
// output is untrusted: no inline script, scripts only by nonce, no network access from the webview
// (no connect-src).

export interface CspSources {
  /** The webview's `cspSource` (the origins its local resources are served from, space-separated). */
  readonly cspSource: string;
  /** A fresh nonce for this page load. */
  readonly nonce: string;
}

export function buildCsp({ cspSource, nonce }: CspSources): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(nonce)) throw new Error('CSP nonce must be at least 16 base64 characters');
  // cspSource lists sources separated by spaces (the web workbench gives `'self' https://*.host`);
  // a token that could end the directive or add another keyword is refused.
  const tokens = cspSource.trim().split(/\s+/);
  if (!cspSource.trim() || tokens.some((token) => token !== "'self'" && /[;,'"]/.test(token))) {
    throw new Error(`cspSource must be a list of source expressions, got: ${cspSource}`);
  }
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `media-src ${cspSource} data: blob:`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
  ].join('; ');
}

/** Escapes text for an HTML attribute or text node. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A script of a webview page: loaded from a URL, or (tests and benches only) inline; both by nonce. */
export type PageScript = { readonly src: string } | { readonly inline: string };

export interface WebviewDocument extends CspSources {
  /** Page title, for screen readers. */
  readonly title: string;
  /** Stylesheet URLs. */
  readonly styles: readonly string[];
  /** Scripts, in order, after the `#root` the bundle renders into. */
  readonly scripts: readonly PageScript[];
}

/**
 * The HTML of a webview page: the CSP above, the stylesheets, an empty `#root` and the scripts.
 * The extension's webviews and the chat benchmark's page are both built by it, so the bench
 * measures the page VS Code shows.
 */
export function webviewDocument(page: WebviewDocument): string {
  const styles = page.styles.map((url) => `<link rel="stylesheet" href="${escapeHtml(url)}">`).join('\n    ');
  const scripts = page.scripts
    .map((script) =>
      'src' in script
        ? `<script nonce="${page.nonce}" src="${escapeHtml(script.src)}"></script>`
        : `<script nonce="${page.nonce}">${script.inline}</script>`,
    )
    .join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(buildCsp(page))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <title>${escapeHtml(page.title)}</title>
    ${styles}
  </head>
  <body>
    <main id="root" aria-live="polite"></main>
    ${scripts}
  </body>
</html>`;
}
