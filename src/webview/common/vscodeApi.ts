// The handle a webview gets from VS Code to talk to its host (acquireVsCodeApi may run once only).
// Its state survives the view being hidden; the chat keeps only the draft there, never a key or a reply.
import type { WebviewReady } from '../../shared/webviewProtocol';

export interface WebviewApi<Outgoing, State = unknown> {
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

/** Hands every message from the host to `receive`, then says `ready` (the host holds its messages until then). */
export function listenToHost<FromHost>(
  host: { postMessage(message: WebviewReady): void },
  receive: (message: FromHost) => void,
): void {
  window.addEventListener('message', (event: MessageEvent<FromHost>) => receive(event.data));
  host.postMessage({ type: 'ready' });
}
