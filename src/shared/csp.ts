// The Content-Security-Policy every webview of the extension uses. Model output is untrusted: no
// inline script, scripts only by nonce, no network access from the webview (no connect-src).

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
