// Two chats (the sidebar and an editor panel, or two windows) can hold one conversation. When a
// save finds the file changed since this writer last read or wrote it, the two versions are merged
// three ways against what this writer last saw (the base): turns either side added are kept, in
// time order; turns one side removed (regenerate, edit-and-resend) stay removed. When both sides
// removed turns (each rewrote history its own way) no merge is right: the caller saves a copy.
// Pure: no file system.
import type { ChatTurn, Conversation } from '../../../shared/chatModel';

/** What a writer last saw of a file: enough to tell what each side changed since. */
export interface MergeBase {
  readonly turnIds: readonly string[];
  readonly title: string;
  readonly model: string;
  readonly parameters: string;
}

export type MergeResult =
  | { readonly kind: 'merged'; readonly conversation: Conversation; readonly fromTheirs: number }
  | { readonly kind: 'conflict' };

export function baseOf(conversation: Conversation): MergeBase {
  return {
    turnIds: conversation.turns.map((turn) => turn.id),
    title: conversation.title,
    model: conversation.model,
    parameters: JSON.stringify(conversation.parameters),
  };
}

/** `base` undefined: this writer never saw the file (everything on both sides counts as added). */
export function mergeConversations(ours: Conversation, theirs: Conversation, base: MergeBase | undefined): MergeResult {
  const baseIds = new Set(base?.turnIds ?? []);
  const ourIds = new Set(ours.turns.map((turn) => turn.id));
  const theirIds = new Set(theirs.turns.map((turn) => turn.id));
  const weRemoved = [...baseIds].some((id) => !ourIds.has(id));
  const theyRemoved = [...baseIds].some((id) => !theirIds.has(id));
  if (weRemoved && theyRemoved) return { kind: 'conflict' };

  const turns: ChatTurn[] = [];
  let fromTheirs = 0;
  for (const turn of ours.turns) {
    // Kept unless it was in the base and the other side removed it.
    if (baseIds.has(turn.id) && !theirIds.has(turn.id)) continue;
    const other = theirs.turns.find((candidate) => candidate.id === turn.id);
    turns.push(other && finishedThere(turn, other) ? other : turn);
  }
  for (const turn of theirs.turns) {
    if (ourIds.has(turn.id) || baseIds.has(turn.id)) continue; // ours, or one we removed
    turns.push(turn);
    fromTheirs++;
  }
  // Time order; a stable sort keeps each side's own order among equal stamps.
  const order = new Map(turns.map((turn, index) => [turn, index]));
  turns.sort((a, b) => a.createdAt - b.createdAt || (order.get(a) ?? 0) - (order.get(b) ?? 0));

  const pick = <K extends 'title' | 'model'>(key: K): Conversation[K] =>
    base && ours[key] === base[key] ? theirs[key] : ours[key];
  const parameters = base && JSON.stringify(ours.parameters) === base.parameters ? theirs.parameters : ours.parameters;
  return {
    kind: 'merged',
    fromTheirs,
    conversation: {
      ...ours,
      title: pick('title'),
      model: pick('model'),
      parameters,
      turns,
      createdAt: Math.min(ours.createdAt, theirs.createdAt),
      updatedAt: Math.max(ours.updatedAt, theirs.updatedAt),
    },
  };
}

/** The other side finished a reply this side still shows unfinished (it streamed there). */
function finishedThere(ours: ChatTurn, theirs: ChatTurn): boolean {
  return ours.role === 'assistant' && theirs.role === 'assistant' && ours.status !== 'done' && theirs.status === 'done';
}

/**
 * Carries a merge into the caller's live object `target`, of which `ours` is the snapshot that was
 * saved. Where the merge kept our version of a turn, the live turn stays (a reply may still be
 * streaming into it). Where it took theirs (a reply another view finished while ours held a
 * partial copy), the caller takes theirs too: keeping the stale object would write it back over
 * the finished reply at the next save. Turns added to `target` after the snapshot stay at the end.
 * `fromOthers`: the turns that came from the other side; `changed`: whether the caller's view changed.
 */
export function adoptMerge(
  target: Conversation,
  ours: Conversation,
  merged: Conversation,
  fromTheirs: number,
): { readonly changed: boolean; readonly fromOthers: number } {
  const live = new Map(target.turns.map((turn) => [turn.id, turn]));
  const mergedIds = new Set(merged.turns.map((turn) => turn.id));
  const snapshotIds = new Set(ours.turns.map((turn) => turn.id));
  const oursKept = new Set<unknown>(ours.turns);
  const takenOver = merged.turns.filter((turn) => snapshotIds.has(turn.id) && !oursKept.has(turn)).length;
  target.turns = [
    ...merged.turns.map((turn) => (oursKept.has(turn) && live.get(turn.id)) || turn),
    ...target.turns.filter((turn) => !mergedIds.has(turn.id) && !snapshotIds.has(turn.id)),
  ];
  Object.assign(target, { title: merged.title, model: merged.model, parameters: merged.parameters });
  const changed = fromTheirs > 0 || takenOver > 0 || merged.turns.length !== ours.turns.length;
  return { changed, fromOthers: fromTheirs + takenOver };
}
