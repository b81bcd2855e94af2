import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension/testApi';

export const EXTENSION_ID = 'unified-inference.unified-inference';

/** Activates the extension under test and returns its test-mode API. */
export async function activateExtension(): Promise<TestApi> {
  const extension = vscode.extensions.getExtension<TestApi | undefined>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded in this extension host`);
  const api = await extension.activate();
  if (!api) throw new Error('The extension returned no test API: is it running in test mode?');
  return api;
}

type Patchable = Record<string, unknown>;

/**
 * Replaces `target[name]` for one test (e.g. window.showInputBox, which a test in the extension
 * host cannot type into) and returns a restore function.
 */
export function replace<T extends object, K extends keyof T>(target: T, name: K, value: T[K]): () => void {
  const original = target[name];
  (target as Patchable)[name as string] = value;
  return () => {
    (target as Patchable)[name as string] = original;
  };
}
