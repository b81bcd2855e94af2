// The conversation as requests see it once earlier replies compacted it: the turns after the
// latest summary or drop point, and the text the system prompt carries in their place. Pure.
import type { ContextTurn } from '../../../core/index';
import type { ChatTurn, ContextDrop, ContextSummary } from '../../../shared/chatModel';
import { turnsToWire } from '../conversationWire';

export interface CompactedHistory {
  /** The turns still sent as they are (after the latest compaction point). */
  readonly turns: readonly ChatTurn[];
  readonly summary?: ContextSummary;
  readonly dropped?: ContextDrop;
  /** What the latest reply learned about the gateway's token count. */
  readonly tokensPerChar?: number;
}

/** The latest compaction point among the replies in `turns` (summaries and drops both count). */
export function compactedHistory(turns: readonly ChatTurn[]): CompactedHistory {
  let summary: ContextSummary | undefined;
  let dropped: ContextDrop | undefined;
  let tokensPerChar: number | undefined;
  let from = 0;
  turns.forEach((turn, index) => {
    if (turn.role !== 'assistant' || !turn.context) return;
    if (turn.context.tokensPerChar) tokensPerChar = turn.context.tokensPerChar;
    for (const point of [turn.context.summary, turn.context.dropped]) {
      if (!point) continue;
      // A point must lie before the reply that made it (else an edited history moved under it).
      const through = turns.findIndex((candidate) => candidate.id === point.throughTurnId);
      if (through < 0 || through >= index || through + 1 < from) continue;
      from = through + 1;
      if (point === turn.context.summary) {
        summary = turn.context.summary;
        dropped = undefined;
      } else {
        dropped = turn.context.dropped;
      }
    }
  });
  return { turns: turns.slice(from), ...(summary ? { summary } : {}), ...(dropped ? { dropped } : {}), ...(tokensPerChar ? { tokensPerChar } : {}) };
}

/** Each turn as the plan sees it: its wire messages, and whether an exchange starts there. */
export function contextTurns(turns: readonly ChatTurn[]): ContextTurn[] {
  return turns.map((turn) => ({ id: turn.id, user: turn.role === 'user', messages: turnsToWire([turn]) }));
}

/** What the system prompt says about turns that are no longer sent. */
export function compactionNote(summary: ContextSummary | undefined, dropped: ContextDrop | undefined): string | undefined {
  const parts: string[] = [];
  if (summary) {
    parts.push(`Summary of the earlier part of this conversation (its oldest turns were summarized to fit your context window; the user still sees them):\n<conversation-summary>\n${summary.text}\n</conversation-summary>`);
  }
  if (dropped) parts.push(`Some earlier turns of this conversation were left out to fit your context window${summary ? ' (after the summary above)' : ''}. If the user refers to something you cannot see, say so.`);
  return parts.length ? parts.join('\n\n') : undefined;
}
