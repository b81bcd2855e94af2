// The handle a webview gets from VS Code to talk to its host (acquireVsCodeApi may run once only).
// Its state survives the view being hidden; it holds only the draft, never a key or a reply.

export interface WebviewApi<Outgoing, State> {
  postMessage(message: Outgoing): void;
  getState(): State | undefined;
  setState(state: State): void;
}

declare function acquireVsCodeApi<Outgoing, State>(): WebviewApi<Outgoing, State>;

let api: WebviewApi<unknown, unknown> | undefined;

export function vscodeApi<Outgoing, State = unknown>(): WebviewApi<Outgoing, State> {
  api ??= acquireVsCodeApi<unknown, unknown>();
  return api as WebviewApi<Outgoing, State>;
}
