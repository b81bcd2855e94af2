// A conversation's cost: the sum of what its replies cost, honest about what it does not know. A
// reply that received something (text, tools, usage) but told no cost may have cost money, so the
// total becomes "at least"; a reply that failed before anything arrived is not counted as unknown
// (a refused request is not charged). Pure: the store writes it into the index, the chat its header.
import type { ChatTurn, ConversationCost } from '../../../shared/chatModel';

export function conversationCost(turns: readonly ChatTurn[]): ConversationCost | undefined {
  let credits = 0;
  let approximate = false;
  let known = 0;
  let unknownReplies = 0;
  for (const turn of turns) {
    if (turn.role !== 'assistant' || turn.status === 'streaming') continue;
    const cost = turn.cost;
    if (cost && cost.state === undefined && Number.isFinite(cost.credits) && cost.credits >= 0) {
      credits += cost.credits;
      approximate ||= cost.estimate;
      known++;
    } else if (turn.usage || turn.content || turn.toolSteps.length > 0) unknownReplies++;
  }
  if (known === 0 && unknownReplies === 0) return undefined;
  return { credits: Math.round(credits * 1e9) / 1e9, approximate, unknownReplies };
}
