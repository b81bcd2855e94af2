import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { abortOnCancel } from '../../src/extension/lifecycle';

/** A cancellation token as VS Code hands one out, with its listeners countable. */
function token(cancelled = false): { token: vscode.CancellationToken; cancel: () => void; listeners: () => number } {
  const listeners = new Set<(e: unknown) => unknown>();
  const value = {
    isCancellationRequested: cancelled,
    onCancellationRequested: (listener: (e: unknown) => unknown) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
  };
  return {
    token: value,
    cancel: () => {
      (value as { isCancellationRequested: boolean }).isCancellationRequested = true;
      for (const listener of [...listeners]) listener(undefined);
    },
    listeners: () => listeners.size,
  };
}

describe('abortOnCancel', () => {
  it('aborts the signal when the token is cancelled', () => {
    const t = token();
    const controller = new AbortController();
    const cancel = abortOnCancel(controller, t.token);
    assert.equal(controller.signal.aborted, false);
    t.cancel();
    assert.equal(controller.signal.aborted, true);
    cancel.dispose();
  });

  it('aborts at once when a token is already cancelled', () => {
    const controller = new AbortController();
    abortOnCancel(controller, token().token, token(true).token).dispose();
    assert.equal(controller.signal.aborted, true);
  });

  it('aborts when any one of several tokens is cancelled', () => {
    const first = token();
    const second = token();
    const controller = new AbortController();
    const cancel = abortOnCancel(controller, first.token, second.token);
    second.cancel();
    assert.equal(controller.signal.aborted, true);
    cancel.dispose();
  });

  it('once disposed, leaves no listener on the tokens and no longer aborts', () => {
    const first = token();
    const second = token();
    const controller = new AbortController();
    abortOnCancel(controller, first.token, second.token).dispose();
    assert.equal(first.listeners() + second.listeners(), 0);
    first.cancel();
    assert.equal(controller.signal.aborted, false);
  });
});
