// The user's say over function tools: each call waits for Allow once / Allow for this
// conversation / Deny in the chat. "For this conversation" remembers the tool for that
// conversation only, and covers only calls that touch nothing sensitive: a call that reads a
// sensitive file, or writes a file that can run code (.vscode/, package.json...), asks every
// time, and only "once" can allow it (an "always" for it, which the chat does not offer, counts
// as once); so does a terminal command, every time. The grants are
// forgotten when the workspace folders change (they were given for other folders). A stop (abort) ends every wait at once.
import type { ApprovalDecision } from '../../shared/chatProtocol';

interface Pending {
  readonly conversationId: string;
  readonly tool: string;
  /** Sensitive files, or a terminal command: "always" counts as once. */
  readonly onceOnly: boolean;
  readonly resolve: (allowed: boolean) => void;
}

export class ToolApprovals {
  private readonly pending = new Map<string, Pending>();
  private readonly allowed = new Map<string, Set<string>>();

  /** Whether a call of `tool` runs without asking (never when it touches sensitive or always-asked paths, `onceOnly`). */
  isAllowed(conversationId: string, tool: string, onceOnly: readonly string[] = []): boolean {
    return onceOnly.length === 0 && (this.allowed.get(conversationId)?.has(tool) ?? false);
  }

  /** Waits for the user's decision on call `callId` (or resolves at once when the call is allowed). */
  ask(
    conversationId: string,
    callId: string,
    tool: string,
    signal: AbortSignal,
    onceOnlyPaths: readonly string[] = [],
    everyTime = false,
  ): Promise<boolean> {
    if (!everyTime && this.isAllowed(conversationId, tool, onceOnlyPaths)) return Promise.resolve(true);
    return new Promise<boolean>((resolve, reject) => {
      const onAbort = (): void => {
        this.pending.delete(callId);
        reject(
          Object.assign(new Error('The reply was stopped while a tool waited for approval.'), { name: 'AbortError' }),
        );
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(callId, {
        conversationId,
        tool,
        onceOnly: everyTime || onceOnlyPaths.length > 0,
        resolve: (allowed) => {
          signal.removeEventListener('abort', onAbort);
          resolve(allowed);
        },
      });
    });
  }

  /** The user's answer from the chat; false when no call waits under that id. */
  decide(callId: string, decision: ApprovalDecision): boolean {
    const waiting = this.pending.get(callId);
    if (!waiting) return false;
    this.pending.delete(callId);
    if (decision === 'always' && !waiting.onceOnly) {
      const tools = this.allowed.get(waiting.conversationId) ?? new Set<string>();
      tools.add(waiting.tool);
      this.allowed.set(waiting.conversationId, tools);
    }
    waiting.resolve(decision !== 'deny');
    return true;
  }

  /** Forgets every "for this conversation" grant (the folders they were given for changed). */
  forgetGrants(): void {
    this.allowed.clear();
  }

  get waiting(): number {
    return this.pending.size;
  }
}
