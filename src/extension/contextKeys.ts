// The walkthrough's context keys (its completion events in package.json "walkthroughs"): a step
// ticks on its key wherever the user did it, not only from the walkthrough's own button. Set
// through here so the values are known: VS Code offers no way to read a context key back, and the
// test API shows these. (The views' own keys for `when` clauses are set where the views are.)
import * as vscode from 'vscode';

/** What the walkthrough's steps wait for (`onContext:` in package.json). */
export const WALKTHROUGH_KEYS = {
  /** The gateway address is set (in settings). */
  hasBaseUrl: 'unifiedInference.hasBaseUrl',
  /** An API key is there (stored, or from the environment). */
  hasApiKey: 'unifiedInference.hasApiKey',
  /** The gateway answered with that address and key: Test Connection passed, or the balance was read. */
  connectionTested: 'unifiedInference.connectionTested',
  /** A chat was opened: the Chat view or a chat in an editor. */
  chatOpened: 'unifiedInference.chatOpened',
} as const;

const values = new Map<string, unknown>();

/** Sets a context key, and notes its value. */
export function setContextKey(key: string, value: unknown): void {
  values.set(key, value);
  void vscode.commands.executeCommand('setContext', key, value);
}

/** The keys set so far, with their values. */
export function contextKeyValues(): ReadonlyMap<string, unknown> {
  return values;
}
