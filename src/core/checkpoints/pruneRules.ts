// Which checkpoints go: those of conversations that no longer exist, then the oldest until the
// storage (manifests plus the blobs they still reference, each blob counted once however many
// checkpoints share it) fits the budget. Pure.

export interface CheckpointSummary {
  readonly conversationId: string;
  readonly turnId: string;
  readonly createdAt: number;
  /** The manifest file's size. */
  readonly manifestBytes: number;
  /** The blobs it references, with their sizes. */
  readonly blobs: ReadonlyMap<string, number>;
}

export interface PruneInput {
  readonly checkpoints: readonly CheckpointSummary[];
  /** The conversations that exist (undefined: unknown, none is dropped for that reason). */
  readonly liveConversations?: ReadonlySet<string>;
  readonly maxBytes: number;
  readonly now: number;
  /**
   * A checkpoint younger than this is never dropped for its conversation being unknown: a new
   * conversation may be saved a moment after its first checkpoint (or by another window).
   */
  readonly graceMs: number;
  /** Never dropped (the checkpoint being written). */
  readonly keep?: (checkpoint: CheckpointSummary) => boolean;
}

export interface PruneDecision {
  readonly remove: ReadonlyArray<{
    readonly checkpoint: CheckpointSummary;
    readonly reason: 'deletedConversation' | 'budget';
  }>;
  /** Bytes before and after (manifests + referenced blobs). */
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

export function decidePrune(input: PruneInput): PruneDecision {
  const refs = new Map<string, { count: number; size: number }>();
  let total = 0;
  for (const checkpoint of input.checkpoints) {
    total += checkpoint.manifestBytes;
    for (const [hash, size] of checkpoint.blobs) {
      const ref = refs.get(hash);
      if (ref) ref.count++;
      else {
        refs.set(hash, { count: 1, size });
        total += size;
      }
    }
  }
  const bytesBefore = total;
  const remove: Array<PruneDecision['remove'][number]> = [];
  const drop = (checkpoint: CheckpointSummary, reason: 'deletedConversation' | 'budget'): void => {
    remove.push({ checkpoint, reason });
    total -= checkpoint.manifestBytes;
    for (const hash of checkpoint.blobs.keys()) {
      const ref = refs.get(hash);
      if (ref && --ref.count === 0) total -= ref.size;
    }
  };
  const kept: CheckpointSummary[] = [];
  for (const checkpoint of input.checkpoints) {
    const orphan =
      input.liveConversations &&
      !input.liveConversations.has(checkpoint.conversationId) &&
      input.now - checkpoint.createdAt > input.graceMs;
    if (orphan && !input.keep?.(checkpoint)) drop(checkpoint, 'deletedConversation');
    else kept.push(checkpoint);
  }
  const oldestFirst = kept.sort((a, b) => a.createdAt - b.createdAt);
  for (const checkpoint of oldestFirst) {
    if (total <= input.maxBytes) break;
    if (input.keep?.(checkpoint)) continue;
    drop(checkpoint, 'budget');
  }
  return { remove, bytesBefore, bytesAfter: total };
}
