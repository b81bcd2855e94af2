import * as vscode from 'vscode';
import { GatewayError, isAbortError } from '../../core/index';
import type { GatewayConnection } from '../gateway/gatewayConnection';

export type Report = (message: string, increment?: number) => void;

/** What a media command ended with: the commands return it, so scripted callers and tests can see it. */
export type Outcome<T> = { readonly kind: 'done'; readonly value: T } | { readonly kind: 'cancelled' } | { readonly kind: 'failed'; readonly message: string };

/**
 * Runs gateway work under a cancellable notification. Cancel aborts the request in flight (the
 * signal goes into the client), so the gateway sees the connection close rather than a result
 * thrown away later. Failures are reported to the connection (credits display, out-of-credits
 * notice) and shown; a cancel is not an error and shows nothing.
 */
export async function runMedia<T>(connection: GatewayConnection, title: string, work: (signal: AbortSignal, report: Report) => Promise<T>): Promise<Outcome<T>> {
  const controller = new AbortController();
  try {
    const value = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const listener = token.onCancellationRequested(() => controller.abort());
      try {
        return await work(controller.signal, (message, increment) => progress.report({ message, ...(increment === undefined ? {} : { increment }) }));
      } finally {
        listener.dispose();
      }
    });
    return { kind: 'done', value };
  } catch (error) {
    if (controller.signal.aborted || isAbortError(error)) return { kind: 'cancelled' };
    connection.reportFailure(error);
    const message = describeMediaError(error);
    void vscode.window.showErrorMessage(message);
    return { kind: 'failed', message };
  }
}

/** The user-facing sentence for a failed media request. */
export function describeMediaError(error: unknown): string {
  if (error instanceof GatewayError && error.status === 413) {
    return 'The gateway refused the file as too large (HTTP 413). Shorten or compress the audio (e.g. a lower-bitrate MP3) and try again.';
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Unified Inference: ${message}`;
}
