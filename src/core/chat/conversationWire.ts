// A stored conversation as the models see it: user turns carry their attachments as fenced text,
// assistant turns replay exactly what the wire saw (tool rounds, thinking blocks with signatures).
import type { Attachment, ChatTurn, UserTurn, WireMessage } from '../../shared/chatModel';

/** A fence longer than any backtick run in the text, so attached code cannot close it early. */
function fenceFor(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  return '`'.repeat(longest + 1);
}

export function attachmentLabel(attachment: Attachment): string {
  return attachment.startLine !== undefined && attachment.endLine !== undefined
    ? `${attachment.path}:${attachment.startLine}-${attachment.endLine}`
    : attachment.path;
}

/** The text a user turn sends: attachments first (as context), then what the user wrote. */
export function userTurnText(turn: Pick<UserTurn, 'text' | 'attachments'>): string {
  if (turn.attachments.length === 0) return turn.text;
  const blocks = turn.attachments.map((attachment) => {
    const fence = fenceFor(attachment.text);
    const note = attachment.truncated ? ' (truncated)' : '';
    const kind =
      attachment.kind === 'selection' ? 'Selection from' : attachment.kind === 'research' ? 'Research report' : 'File';
    return `${kind} ${attachmentLabel(attachment)}${note}:\n${fence}${attachment.languageId ?? ''}\n${attachment.text}\n${fence}`;
  });
  return `${blocks.join('\n\n')}\n\n${turn.text}`;
}

/**
 * The messages for a request made from `turns` (everything before the reply being written).
 * Replies that failed before any wire message still count for nothing: the model never saw them.
 */
export function turnsToWire(turns: readonly ChatTurn[]): WireMessage[] {
  const out: WireMessage[] = [];
  for (const turn of turns) {
    if (turn.role === 'user') out.push({ role: 'user', parts: [{ kind: 'text', text: userTurnText(turn) }] });
    else if (turn.wire.length > 0) out.push(...turn.wire);
    else if (turn.content) out.push({ role: 'assistant', parts: [{ kind: 'text', text: turn.content }] });
  }
  return withoutDanglingToolCalls(out);
}

/**
 * A reply stopped while a tool ran leaves a call without its result; both APIs refuse that, so
 * such calls are dropped from the replay (the text around them stays).
 */
function withoutDanglingToolCalls(messages: WireMessage[]): WireMessage[] {
  const answered = new Set<string>();
  for (const message of messages)
    for (const part of message.parts) if (part.kind === 'toolResult') answered.add(part.callId);
  return messages
    .map((message) => ({
      ...message,
      parts: message.parts.filter((part) => part.kind !== 'toolCall' || answered.has(part.id)),
    }))
    .filter((message) => message.parts.length > 0);
}
