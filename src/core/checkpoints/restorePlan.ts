// What "Restore files to before this reply" does, worked out before anything moves: the reply's
// checkpoint and every later one of the conversation are undone (a point in time), so each file
// goes back to its state in the earliest of those checkpoints that touched it. Pure: the caller
// reads the files' current states and resolves the paths.
import { fileKey, type CheckpointFileRef, type CheckpointManifest, type FileState } from './checkpointManifest';

/** A file as it is now: absent, or its bytes' SHA-256 (the open editor's text when it has unsaved changes). */
export type CurrentState = { readonly kind: 'absent' } | { readonly kind: 'file'; readonly hash: string };

type RestoreAction =
  /** Exists, differs: rewritten with the kept bytes. */
  | 'rewrite'
  /** Was absent before (the reply created it): deleted. */
  | 'delete'
  /** Existed before, absent now (the reply deleted it): created with the kept bytes. */
  | 'recreate'
  /** Absent now, its kept bytes sit unchanged under a name the reply created: renamed back. */
  | 'moveBack'
  /** Already as it was: nothing to do (restoring twice is harmless). */
  | 'unchanged';

/** A file the plan names (folder identity and name, path). */
export type PlanFile = CheckpointFileRef;

export interface PlanItem extends PlanFile {
  readonly action: RestoreAction;
  /** What it goes back to. */
  readonly before: FileState;
  /** For 'moveBack': the name it is moved back from (that name's own 'delete' is folded in). */
  readonly from?: PlanFile;
  /**
   * Changed by something other than the replies being undone (the user, another tool) after the
   * first of them touched it: between two of those replies, or after the last one. Restored all
   * the same (those changes are lost), but said.
   */
  readonly changedSince: boolean;
}

interface SkippedFile extends PlanFile {
  readonly reason: string;
}

export interface RestorePlan {
  /** Checkpoints undone: the chosen reply's and the later ones'. */
  readonly checkpoints: number;
  readonly items: readonly PlanItem[];
  /** Files the manifests name that cannot be restored (their path no longer resolves inside the workspace). */
  readonly skipped: readonly SkippedFile[];
}

function sameState(a: FileState | CurrentState, b: FileState | CurrentState): boolean {
  if (a.kind === 'absent' || b.kind === 'absent') return a.kind === b.kind;
  return a.hash === b.hash;
}

/**
 * `manifests`: the chosen reply's checkpoint and every later one (any order; sorted by seq here).
 * `current(file)`: the state now, or a string saying why the file cannot be restored (skipped).
 */
export function planRestore(
  manifests: readonly CheckpointManifest[],
  current: (file: PlanFile) => CurrentState | string,
): RestorePlan {
  const ordered = [...manifests].sort((a, b) => a.seq - b.seq);
  const firstBefore = new Map<string, { file: PlanFile; before: FileState }>();
  /**
   * Per file, what the undone replies left it as: the newest "after" of one (undefined when that
   * writer did not say), checked against the next one's pre-image as the chain goes on.
   */
  const leftAs = new Map<string, FileState | undefined>();
  /** Files some other hand changed between two of the undone replies. */
  const changedBetween = new Set<string>();
  for (const manifest of ordered) {
    for (const file of manifest.files) {
      const key = fileKey(file);
      if (!firstBefore.has(key)) firstBefore.set(key, { file: ref(file), before: file.before });
      else {
        // A later reply found the file other than the earlier one left it: someone edited it in between.
        const left = leftAs.get(key);
        if (left !== undefined && !sameState(left, file.before)) changedBetween.add(key);
      }
      leftAs.set(key, file.after);
    }
  }
  const items: PlanItem[] = [];
  const skipped: SkippedFile[] = [];
  const now = new Map<string, CurrentState>();
  for (const [key, { file, before }] of firstBefore) {
    const state = current(file);
    if (typeof state === 'string') {
      skipped.push({ ...file, reason: state });
      continue;
    }
    now.set(key, state);
    const left = leftAs.get(key);
    const changedSince = changedBetween.has(key) || (left !== undefined && !sameState(left, state));
    let action: RestoreAction;
    if (sameState(before, state)) action = 'unchanged';
    else if (before.kind === 'absent') action = 'delete';
    else if (state.kind === 'absent') action = 'recreate';
    else action = 'rewrite';
    items.push({ ...file, action, before, changedSince });
  }
  return { checkpoints: ordered.length, items: foldRenames(items, now), skipped };
}

function ref(file: PlanFile): PlanFile {
  return { folder: file.folder, folderId: file.folderId, path: file.path };
}

/**
 * A rename is a file kept as present that is absent now plus a file kept as absent that holds
 * exactly those bytes now: it is moved back (an open editor follows it) instead of recreated.
 */
function foldRenames(items: readonly PlanItem[], now: ReadonlyMap<string, CurrentState>): PlanItem[] {
  const deletions = items.filter((item) => item.action === 'delete');
  const used = new Set<PlanItem>();
  const out: PlanItem[] = [];
  for (const item of items) {
    if (item.action !== 'recreate' || item.before.kind !== 'file') {
      out.push(item);
      continue;
    }
    const hash = item.before.hash;
    const source = deletions.find(
      (d) =>
        !used.has(d) &&
        !d.changedSince &&
        (() => {
          const state = now.get(fileKey(d));
          return state?.kind === 'file' && state.hash === hash;
        })(),
    );
    if (!source) {
      out.push(item);
      continue;
    }
    used.add(source);
    out.push({ ...item, action: 'moveBack', from: ref(source) });
  }
  return out.filter((item) => !used.has(item));
}

/** The items that change something (the preview lists these; 'unchanged' ones are counted). */
export function changingItems(plan: RestorePlan): PlanItem[] {
  return plan.items.filter((item) => item.action !== 'unchanged');
}
