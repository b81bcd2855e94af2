// What changed between the restore preview the user confirmed and the moment it is applied: the
// preview was worked out from the files' states when it opened, and a restore must never write
// over an edit made while it was open (in an editor, by a reply of another chat, on disk) without
// showing it. Pure: the caller reads both states.
import { fileKey } from './checkpointManifest';
import type { CurrentState, PlanFile, RestorePlan } from './restorePlan';

/** A restore as worked out: the plan, and every planned file's state it was made from (or why it could not be read). */
export interface PlannedRestore {
  readonly plan: RestorePlan;
  /** By fileKey. */
  readonly current: ReadonlyMap<string, CurrentState | string>;
}

type DriftKind = 'edited' | 'created' | 'deleted' | 'unreadable' | 'readable' | 'newlyPlanned' | 'noLongerPlanned';

interface DriftNote extends PlanFile {
  readonly kind: DriftKind;
}

export interface RestoreDrift {
  readonly files: readonly DriftNote[];
  /** The number of checkpoints undone changed (a reply recorded one, or one was pruned). */
  readonly checkpoints?: { readonly shown: number; readonly now: number };
}

function stateDrift(shown: CurrentState | string, now: CurrentState | string): DriftKind | undefined {
  if (typeof shown === 'string' || typeof now === 'string') {
    if (typeof shown === 'string' && typeof now === 'string') return undefined; // still not restorable (the reason's wording may differ)
    return typeof now === 'string' ? 'unreadable' : 'readable';
  }
  if (shown.kind === 'absent') return now.kind === 'absent' ? undefined : 'created';
  if (now.kind === 'absent') return 'deleted';
  return shown.hash === now.hash ? undefined : 'edited';
}

/** Undefined when applying `now` does exactly what the preview of `shown` said. */
export function restoreDrift(shown: PlannedRestore, now: PlannedRestore): RestoreDrift | undefined {
  const files = new Map<string, PlanFile>();
  for (const item of [...shown.plan.items, ...shown.plan.skipped, ...now.plan.items, ...now.plan.skipped])
    files.set(fileKey(item), item);
  for (const item of [...shown.plan.items, ...now.plan.items]) if (item.from) files.set(fileKey(item.from), item.from);
  const notes: DriftNote[] = [];
  for (const [key, file] of files) {
    const before = shown.current.get(key);
    const after = now.current.get(key);
    const kind =
      before === undefined
        ? after === undefined
          ? undefined
          : 'newlyPlanned'
        : after === undefined
          ? 'noLongerPlanned'
          : stateDrift(before, after);
    if (kind) notes.push({ folder: file.folder, folderId: file.folderId, path: file.path, kind });
  }
  const checkpoints =
    shown.plan.checkpoints === now.plan.checkpoints
      ? undefined
      : { shown: shown.plan.checkpoints, now: now.plan.checkpoints };
  if (notes.length === 0 && !checkpoints) return undefined;
  return { files: notes, ...(checkpoints ? { checkpoints } : {}) };
}

const KIND_TEXT: Record<DriftKind, string> = {
  edited: 'edited',
  created: 'created',
  deleted: 'deleted',
  unreadable: 'no longer readable',
  readable: 'readable again',
  newlyPlanned: 'now part of the restore',
  noLongerPlanned: 'no longer part of the restore',
};

/** One line for the user: what changed while the preview was open. */
export function describeDrift(drift: RestoreDrift, label: (file: PlanFile) => string = (file) => file.path): string {
  const parts = drift.files.slice(0, 5).map((note) => `${label(note)} (${KIND_TEXT[note.kind]})`);
  if (drift.files.length > 5) parts.push(`${drift.files.length - 5} more`);
  if (drift.checkpoints)
    parts.push(
      `${drift.checkpoints.now - drift.checkpoints.shown > 0 ? 'a newer reply changed files' : 'a checkpoint was removed'} (${drift.checkpoints.now} checkpoint(s) to undo now, ${drift.checkpoints.shown} shown)`,
    );
  return parts.join(', ');
}
