// A stored conversation as the models see it: user turns carry their attachments as fenced text,
// assistant turns replay exactly what the wire saw (tool rounds, thinking blocks with signatures).
import type { Attachment, ChatTurn, UserTurn, WireMessage, WirePart } from '../../shared/chatModel';

/** The base64 bytes of stored images by id, read for a request (chatImageStore.ts); absent: text only. */
export type ImageBytes = ReadonlyMap<string, string>;

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
export function turnsToWire(turns: readonly ChatTurn[], images?: ImageBytes): WireMessage[] {
  const out: WireMessage[] = [];
  for (const turn of turns) {
    if (turn.role === 'user') out.push({ role: 'user', parts: userParts(turn, images) });
    else if (turn.wire.length > 0) out.push(...turn.wire);
    else if (turn.content) out.push({ role: 'assistant', parts: [{ kind: 'text', text: turn.content }] });
  }
  return withoutDanglingToolCalls(out);
}

/**
 * A user turn's parts: its text, then its images. Without any bytes (`images` absent: a token
 * estimate) each image is a part without data, which the estimate counts and no request sends; a
 * file gone from storage is named in the text instead, so the model knows one was there.
 */
function userParts(turn: UserTurn, images: ImageBytes | undefined): WirePart[] {
  const refs = turn.images ?? [];
  const sent = refs.flatMap((ref): WirePart[] => {
    if (!images) return [{ kind: 'image', mediaType: ref.mediaType, data: '' }];
    const data = images.get(ref.id);
    return data ? [{ kind: 'image', mediaType: ref.mediaType, data }] : [];
  });
  const missing = images ? refs.filter((ref) => !images.has(ref.id)) : [];
  const note = missing.map((ref) => `[image ${ref.name ?? ref.id}: no longer stored, not sent]`).join('\n');
  const text = [note, userTurnText(turn)].filter(Boolean).join('\n\n');
  return [...(text || sent.length === 0 ? [{ kind: 'text' as const, text }] : []), ...sent];
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
