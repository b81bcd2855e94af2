// One review of a proposed change to one file: the text it was made against (`base`, the
// document's text), the proposal, and the hunks between them. Nothing is written until a hunk or
// everything is accepted; each acceptance is one WorkspaceEdit of the document (so open editors,
// undo and formatters see it as a person's edit), preceded by the reply's checkpoint. Typing in
// the file meanwhile is carried into the proposal when it is elsewhere, and ends the review when
// it is inside a proposed change (never overwritten).
import * as vscode from 'vscode';
import {
  applyHunk,
  computeHunks,
  lineRangeOffsets,
  rebaseProposal,
  revertHunk,
  type Hunk,
} from '../../core/apply/lineHunks';
import type { GuardedPath } from '../../core/workspaceFiles/guardedWrites';
import type { CheckpointRecorder, ReplyRef } from '../checkpoints/checkpointRecorder';
import { errorMessage } from '../../shared/errorMessage';
import { SerialQueue } from '../../shared/serialQueue';

export const APPLY_SCHEME = 'unified-inference-apply';

export interface ReviewInit {
  readonly id: string;
  readonly target: vscode.Uri;
  /** The path as the user knows it (workspace-relative). */
  readonly display: string;
  /** False: the file does not exist yet; accepting creates it. */
  readonly exists: boolean;
  /** Sensitive paths among the target's (its own, a link's target), named in the review. */
  readonly sensitive: readonly string[];
  /** Paths among the target's whose content can run code or instruct the model (guardedWrites.ts): Accept asks first. */
  readonly guarded?: readonly GuardedPath[];
  readonly base: string;
  readonly proposal: string;
  readonly reply: ReplyRef;
}

/** The change was written, but the checkpoint could not note its state afterwards. */
export class AfterChangeError extends Error {
  override readonly name = 'AfterChangeError';
  constructor(display: string, cause: unknown) {
    super(
      vscode.l10n.t(
        'The change to {0} was written, but its checkpoint could not note it ({1}): Restore still brings the file back, but cannot warn about your own later edits to it.',
        display,
        errorMessage(cause),
      ),
    );
  }
}

export type ReviewEnd = 'accepted' | 'rejected' | 'closed' | 'conflict' | 'failed';

export class ApplyReview {
  private baseText: string;
  private proposalText: string;
  private hunkList: Hunk[];
  private exists: boolean;
  private ended: ReviewEnd | undefined;
  private acceptedSome = false;
  /** While our own edit is being applied: the text it gives (its change event is not typing). */
  private ownText: string | undefined;
  private ownSeen = false;
  private readonly writing = new SerialQueue();
  /** Bumped on every change of the hunks: a lens clicked on an older list is ignored. */
  private revisionCount = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly endedEmitter = new vscode.EventEmitter<ReviewEnd>();
  readonly onDidChange = this.changed.event;
  readonly onDidEnd = this.endedEmitter.event;
  readonly proposalUri: vscode.Uri;
  /** The diff's left side: the file, or an empty document for a file to create. */
  readonly originalUri: vscode.Uri;

  constructor(
    readonly init: ReviewInit,
    private readonly checkpoints: CheckpointRecorder,
  ) {
    this.baseText = init.base;
    this.proposalText = init.proposal;
    this.exists = init.exists;
    this.hunkList = computeHunks(this.baseText, this.proposalText);
    // The path keeps the file's name, so the proposal gets the file's language (highlighting).
    const path = `/${init.display.replace(/^\/+/, '')}`;
    this.proposalUri = vscode.Uri.from({ scheme: APPLY_SCHEME, path, query: `review=${init.id}` });
    this.originalUri = init.exists
      ? init.target
      : vscode.Uri.from({ scheme: APPLY_SCHEME, path, query: `review=${init.id}&side=empty` });
  }

  get id(): string {
    return this.init.id;
  }

  get hunks(): readonly Hunk[] {
    return this.hunkList;
  }

  get proposal(): string {
    return this.proposalText;
  }

  get revision(): number {
    return this.revisionCount;
  }

  get isEnded(): boolean {
    return this.ended !== undefined;
  }

  get title(): string {
    const name = this.init.display.split('/').pop() ?? this.init.display;
    const sensitive = this.init.sensitive.length
      ? ` ${vscode.l10n.t('⚠ sensitive file')}`
      : this.init.guarded?.length
        ? ` ${vscode.l10n.t('⚠ can run code')}`
        : '';
    return this.exists
      ? vscode.l10n.t('{0} (Current ↔ Proposed)', name + sensitive)
      : vscode.l10n.t('{0} (New File ↔ Proposed)', name + sensitive);
  }

  /** The document's text now (after the user typed, or a reload from disk): the proposal follows it or the review ends. */
  sync(text: string): void {
    if (this.ended || text === this.baseText) return;
    if (text === this.ownText) {
      // Our own edit landing: the proposal stays, the hunks follow the new base.
      this.ownSeen = true;
      this.baseText = text;
      this.refresh();
      return;
    }
    const rebased = rebaseProposal(this.baseText, this.proposalText, text);
    if (rebased === undefined) {
      this.end('conflict');
      return;
    }
    this.baseText = text;
    this.setProposal(rebased);
  }

  async acceptHunk(index: number): Promise<void> {
    const hunk = this.hunkList[index];
    if (!hunk || this.ended) return;
    if (!this.exists) return this.acceptAll(); // a new file is one hunk: creating it takes all
    await this.serial(() => this.write(hunk));
  }

  rejectHunk(index: number): void {
    const hunk = this.hunkList[index];
    if (!hunk || this.ended) return;
    this.setProposal(revertHunk(this.proposalText, hunk));
  }

  async acceptAll(): Promise<void> {
    if (this.ended) return;
    if (this.hunkList.length === 0) return this.end('accepted');
    if (!this.exists) return this.serial(() => this.create());
    await this.serial(() => this.write('all'));
  }

  /**
   * One write at a time (two quick clicks): the second starts from the hunks the first left, and
   * a hunk the first one re-diffed away is not written (the user sees the new list first).
   */
  private serial(job: () => Promise<void>): Promise<void> {
    return this.writing.run(job);
  }

  /** Nothing (more) is written: the file stays as it is. */
  rejectAll(): void {
    this.end('rejected');
  }

  /** The diff editor was closed by the user: same as rejecting what is left. */
  close(): void {
    this.end('closed');
  }

  fail(): void {
    this.end('failed');
  }

  /**
   * Writes one hunk or all of them as one WorkspaceEdit of the document. The checkpoint comes
   * first; everything after it (reading the document, folding in typing that came meanwhile,
   * finding the hunk again, building the edit) runs without awaiting, so the offsets are those of
   * the text the edit is applied to. VS Code refuses the edit if the document changes before it
   * lands (the edit carries the document's version).
   */
  private async write(which: Hunk | 'all'): Promise<void> {
    // A hunk from before a re-diff is not written: the user sees the new list first.
    if (this.ended || (which !== 'all' && !this.hunkList.includes(which))) return;
    const wanted = which === 'all' ? 'all' : { index: this.hunkList.indexOf(which), hunk: which };
    await this.checkpoints.beforeChange(this.init.reply, [this.init.target]);
    if (this.ended) return; // closed, rejected or ended by a conflict while the checkpoint was taken
    const document = await vscode.workspace.openTextDocument(this.init.target);
    // Typing the listener has not seen yet: fold it in first, so the offsets below are right.
    this.sync(document.getText());
    if (this.ended) return; // typing inside the change: the conflict was told, nothing is written
    // The file already holds the proposal (typed in meanwhile): nothing is left to write.
    if (wanted === 'all' && this.hunkList.length === 0) return this.end('accepted');
    const current = wanted === 'all' ? this.hunkList : this.sameHunk(wanted.index, wanted.hunk);
    if (current.length === 0) {
      throw new Error(
        vscode.l10n.t(
          '{0} changed while the change was being accepted, so it was not written. The review now shows the proposal against the new text: accept the change again.',
          this.init.display,
        ),
      );
    }
    const edit = new vscode.WorkspaceEdit();
    let expected = this.baseText;
    for (const hunk of [...current].sort((a, b) => b.oldStart - a.oldStart)) {
      const { start, end } = lineRangeOffsets(this.baseText, hunk.oldStart, hunk.oldLines.length);
      edit.replace(
        this.init.target,
        new vscode.Range(document.positionAt(start), document.positionAt(end)),
        hunk.newLines.join(''),
      );
      expected = applyHunk(expected, hunk);
    }
    // The change event of this edit must read as ours, not as the user's typing.
    this.ownText = expected;
    this.ownSeen = false;
    let applied: boolean;
    try {
      applied = await vscode.workspace.applyEdit(edit);
      this.sync(document.getText());
    } finally {
      this.ownText = undefined;
    }
    if (!applied || !this.ownSeen) {
      throw new Error(
        vscode.l10n.t(
          'VS Code did not apply the change to {0} (the file changed at that moment, or it is read-only). The review shows what is proposed now.',
          this.init.display,
        ),
      );
    }
    this.acceptedSome = true;
    // The review has followed the write (sync above) before anything else can fail.
    if (this.hunkList.length === 0) this.end('accepted');
    await this.noteWritten();
  }

  /**
   * The hunk the user accepted, found again in the list as it is now: the same list (nothing
   * changed), or the one hunk with the same lines after the proposal was carried over the user's
   * typing elsewhere. Empty when it cannot be told.
   */
  private sameHunk(index: number, hunk: Hunk): Hunk[] {
    if (this.hunkList.includes(hunk)) return [hunk];
    const same = (h: Hunk): boolean =>
      h.oldLines.join('') === hunk.oldLines.join('') &&
      h.newLines.join('') === hunk.newLines.join('') &&
      h.oldLines.length === hunk.oldLines.length &&
      h.newLines.length === hunk.newLines.length;
    const at = this.hunkList[index];
    if (at && same(at)) return [at];
    const matches = this.hunkList.filter(same);
    return matches.length === 1 ? matches : [];
  }

  /** A file to create: created with the proposal as its text, in one WorkspaceEdit. */
  private async create(): Promise<void> {
    await this.checkpoints.beforeChange(this.init.reply, [this.init.target]);
    if (this.ended) return; // closed or rejected while the checkpoint was taken
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(this.init.target, { overwrite: false, ignoreIfExists: false });
    edit.insert(this.init.target, new vscode.Position(0, 0), this.proposalText);
    if (!(await vscode.workspace.applyEdit(edit))) {
      throw new Error(
        vscode.l10n.t(
          '{0} could not be created (it may exist by now: apply the block again to see the difference).',
          this.init.display,
        ),
      );
    }
    this.exists = true;
    this.baseText = this.proposalText;
    this.acceptedSome = true;
    this.refresh();
    this.end('accepted');
    await this.noteWritten();
  }

  /**
   * Tells the checkpoint what was just written (for "changed since" in a later restore). The change
   * is made and stays whatever happens here; a failure is reported as such, not as a failed write.
   */
  private async noteWritten(): Promise<void> {
    try {
      await this.checkpoints.afterChange?.(this.init.reply, [this.init.target]);
    } catch (error) {
      throw new AfterChangeError(this.init.display, error);
    }
  }

  private setProposal(text: string): void {
    this.proposalText = text;
    this.refresh();
    if (this.hunkList.length === 0) this.end(this.acceptedSome ? 'accepted' : 'rejected');
  }

  private refresh(): void {
    this.hunkList = computeHunks(this.baseText, this.proposalText);
    this.revisionCount++;
    this.changed.fire();
  }

  private end(how: ReviewEnd): void {
    if (this.ended) return;
    this.ended = how;
    this.endedEmitter.fire(how);
    this.changed.dispose();
    this.endedEmitter.dispose();
  }
}
