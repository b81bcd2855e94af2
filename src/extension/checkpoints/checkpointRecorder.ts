// The contract between what changes files for a reply (Apply on a code block, the model's edit
// tools) and the checkpoints that let the user undo a whole reply. Whatever writes calls
// `beforeChange` first, with every file it is about to create, change, delete or rename (both
// names), so the pre-image is kept before the first byte moves. Keeping is idempotent per reply:
// a file's first pre-image in a reply is the one restored.
//
// `beforeChange` rejects with a `CheckpointRefusedError` when a file cannot be kept (larger than
// the snapshot cap, outside the workspace folders, not a file on disk): the writer must then not
// make the change, since it could not be undone. After writing, a writer calls `afterChange`
// (optional in the contract, implemented by the real recorder) so a later restore can tell the
// user's own later edits ("changed since").
import type * as vscode from 'vscode';

/** The assistant turn whose changes a checkpoint groups. */
export interface ReplyRef {
  readonly conversationId: string;
  readonly turnId: string;
}

export interface CheckpointRecorder {
  /** Keeps each file's pre-image for this reply unless kept already (a missing file is kept as absent). */
  beforeChange(reply: ReplyRef, uris: readonly vscode.Uri[]): Promise<void>;
  /** Notes the files' states right after the writer changed them (for "changed since" in a restore). */
  afterChange?(reply: ReplyRef, uris: readonly vscode.Uri[]): Promise<void>;
}

export type CheckpointRefusal = 'tooLarge' | 'outside' | 'notAFile' | 'storage';

/** Why a file could not be kept; the message is written for the user (and the model) to read. */
export class CheckpointRefusedError extends Error {
  override readonly name = 'CheckpointRefusedError';
  constructor(
    readonly reason: CheckpointRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** For callers outside a reply (and tests of writers alone): keeps nothing. */
export const NO_CHECKPOINTS: CheckpointRecorder = { beforeChange: async () => undefined };
