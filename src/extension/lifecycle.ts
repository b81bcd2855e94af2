import type * as vscode from 'vscode';

/**
 * Base for anything that owns resources: register them with `_register` and they are disposed
 * with their owner, in reverse order. Disposing twice is harmless.
 */
export abstract class Disposable implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  protected _register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposed) disposable.dispose();
    else this.disposables.push(disposable);
    return disposable;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const disposable of this.disposables.splice(0).reverse()) disposable.dispose();
  }
}

/**
 * Aborts `controller` when any of the tokens is cancelled (at once when one already is: VS Code
 * fires a cancelled token's listener only later), so a gateway request stops the moment VS Code
 * cancels the work. Dispose it when the work ends: the token listeners go with it.
 */
export function abortOnCancel(
  controller: AbortController,
  ...tokens: readonly vscode.CancellationToken[]
): vscode.Disposable {
  const listeners = tokens.map((token) => token.onCancellationRequested(() => controller.abort()));
  if (tokens.some((token) => token.isCancellationRequested)) controller.abort();
  return {
    dispose: () => {
      for (const listener of listeners) listener.dispose();
    },
  };
}
