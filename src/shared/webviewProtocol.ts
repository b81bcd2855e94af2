// What every webview protocol shares: messages are unions discriminated on `type`, and the page's
// first message is `ready` (its script runs late, or again after a reload; the host holds what it
// posts until then).

export interface WebviewMessage {
  readonly type: string;
}

/** The page's script has run and listens: the host may post. */
export interface WebviewReady {
  readonly type: 'ready';
}
