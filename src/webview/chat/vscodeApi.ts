// The handle a webview gets from VS Code to talk to its host (acquireVsCodeApi may run once only).

export interface WebviewApi<Outgoing> {
  postMessage(message: Outgoing): void;
}

declare function acquireVsCodeApi<Outgoing>(): WebviewApi<Outgoing>;

let api: WebviewApi<unknown> | undefined;

export function vscodeApi<Outgoing>(): WebviewApi<Outgoing> {
  api ??= acquireVsCodeApi<unknown>();
  return api as WebviewApi<Outgoing>;
}
