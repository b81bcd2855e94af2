// The handle a webview gets from VS Code to talk to its host (acquireVsCodeApi may run once only).

export interface WebviewApi<Outgoing> {
  postMessage(message: Outgoing): void;
}

declare function acquireVsCodeApi<Outgoing>(): WebviewApi<Outgoing>;

export function vscodeApi<Outgoing>(): WebviewApi<Outgoing> {
  return acquireVsCodeApi<Outgoing>();
}
