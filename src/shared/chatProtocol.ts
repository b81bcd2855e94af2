// Messages between the extension host and the chat webview. Discriminated unions on `type`; the
// webview sends `ready` first and the host queues everything until then.

/** Where the API key in use comes from (never the key itself). */
export type KeySource = 'secretStorage' | 'environment' | 'none';

export interface ConnectionState {
  readonly baseUrl: string;
  readonly keySource: KeySource;
}

/** Host -> webview. */
export type HostToChatMessage = { readonly type: 'connectionState'; readonly state: ConnectionState };

/** Commands the webview may ask the host to run (a closed list: never arbitrary command ids). */
export type ChatWebviewCommand = 'setApiKey' | 'openSettings';

/** Webview -> host. */
export type ChatToHostMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'runCommand'; readonly command: ChatWebviewCommand };

const webviewCommands: readonly ChatWebviewCommand[] = ['setApiKey', 'openSettings'];

/** Validates a message that arrived from the webview (it is untrusted input). */
export function parseChatToHostMessage(value: unknown): ChatToHostMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
      return { type: 'ready' };
    case 'runCommand':
      return webviewCommands.includes(message.command as ChatWebviewCommand)
        ? { type: 'runCommand', command: message.command as ChatWebviewCommand }
        : undefined;
    default:
      return undefined;
  }
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected message: ${JSON.stringify(value)}`);
}
