// The contract between what changes files for a reply (Apply on a code block, the model's edit
// tools) and the checkpoints that let the user undo a whole reply. Whatever writes calls
// `beforeChange` first, with every file it is about to create, change, delete or rename (both
// names), so the pre-image is kept before the first byte moves. Keeping is idempotent per reply:
// a file's first pre-image in a reply is the one restored.
import type * as vscode from 'vscode';

/** The assistant turn whose changes a checkpoint groups. */
export interface ReplyRef {
  readonly conversationId: string;
  readonly turnId: string;
}

export interface CheckpointRecorder {
  /** Keeps each file's pre-image for this reply unless kept already (a missing file is kept as absent). */
  beforeChange(reply: ReplyRef, uris: readonly vscode.Uri[]): Promise<void>;
}

/** For callers outside a reply (and tests of writers alone): keeps nothing. */
export const NO_CHECKPOINTS: CheckpointRecorder = { beforeChange: async () => undefined };
