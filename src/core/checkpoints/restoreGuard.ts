// One restore at a time for the whole window, and none while a chat reply is writing: every chat
// view and panel, and anything else that restores, goes through the one CheckpointService and so
// through this guard (a guard per chat controller let a second panel restore at the same time).
import { ENGLISH, type Translator } from '../../shared/translator';

export class RestoreGuard {
  /** The restore under way, preview included. */
  private restoring: object | undefined;
  /** Chat replies running in this window (any view or panel): their writes would fight a restore. */
  private readonly writingReplies = new Set<object>();

  /**
   * Claims the restore, or says why not. Taken synchronously (no await between the check and the
   * claim), so two clicks cannot both pass. Call the returned release when the restore is over.
   */
  claim(l10n: Translator = ENGLISH): (() => void) | string {
    if (this.restoring)
      return l10n.t('Another restore of files is under way (its preview may be open): finish or close it first.');
    if (this.writingReplies.size > 0)
      return l10n.t('Wait for the reply to finish (or stop it), then restore the files.');
    const claim = {};
    this.restoring = claim;
    return () => {
      if (this.restoring === claim) this.restoring = undefined;
    };
  }

  /** A chat reply runs until `done` settles: restores wait for it. */
  trackReply(done: Promise<unknown>): void {
    const token = {};
    this.writingReplies.add(token);
    const remove = (): void => void this.writingReplies.delete(token);
    done.then(remove, remove);
  }
}
