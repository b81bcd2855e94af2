import * as vscode from 'vscode';
import { isAbortError } from '../../core/errors';
import type { Failures } from '../errors/failures';

export type Report = (message: string, increment?: number) => void;

/** What a media command ended with: the commands return it, so scripted callers and tests can see it. */
export type Outcome<T> = { readonly kind: 'done'; readonly value: T } | { readonly kind: 'cancelled' } | { readonly kind: 'failed'; readonly message: string };

/** A failure after the gateway charged for the answer (every image link broken): Retry would pay again, so it offers none. */
export class PaidFailure extends Error {
  override name = 'PaidFailure';
}

/**
 * Runs gateway work under a cancellable notification. Cancel aborts the request in flight (the
 * signal goes into the client), so the gateway sees the connection close rather than a result
 * thrown away later. A failure is shown the shared way (failures.ts): its message names the cause
 * and the next step, its buttons do it, and Retry runs `retry` (the same request again, no
 * questions asked again). A cancel is not an error and shows nothing.
 */
export async function runMedia<T>(failures: Failures, title: string, work: (signal: AbortSignal, report: Report) => Promise<T>, retry?: () => unknown): Promise<Outcome<T>> {
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
    const again = retry && !(error instanceof PaidFailure) ? { retry } : {};
    const description = await failures.show(error, { title: vscode.l10n.t('{0} failed', title), ...again });
    return { kind: 'failed', message: description.message };
  }
}
