// The participant's own conversation (VS Code's `context.history`) in a neutral shape, and what the
// plain-prompt answer and /speak need from it.
import type { GatewayMessage } from '../answers/gatewayMessages';

/** One turn of the chat history, reduced to what the participant uses. */
export type ChatTurn =
  | { readonly kind: 'request'; readonly prompt: string; readonly command?: string }
  | { readonly kind: 'response'; readonly markdown: string; readonly command?: string };

/**
 * Only plain exchanges go to the model: a /models table or a /quota reading is not conversation,
 * and a request whose answer failed (no response turn) is dropped with it, so roles alternate.
 */
export function historyToMessages(turns: readonly ChatTurn[], prompt: string): GatewayMessage[] {
  const messages: GatewayMessage[] = [];
  let pending: string | undefined;
  for (const turn of turns) {
    if (turn.command) {
      pending = undefined;
      continue;
    }
    if (turn.kind === 'request') {
      pending = turn.prompt;
      continue;
    }
    if (pending === undefined || !turn.markdown.trim()) continue;
    messages.push({ role: 'user', parts: [{ kind: 'text', text: pending }] });
    messages.push({ role: 'assistant', parts: [{ kind: 'text', text: turn.markdown }] });
    pending = undefined;
  }
  messages.push({ role: 'user', parts: [{ kind: 'text', text: prompt }] });
  return messages;
}

/** The last answer worth reading aloud: the newest response with text that is not itself a /speak note. */
export function lastAnswer(turns: readonly ChatTurn[]): string | undefined {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn?.kind === 'response' && turn.command !== 'speak' && turn.markdown.trim()) return turn.markdown;
  }
  return undefined;
}
