// One inline edit of one document: the lines it is about (the scope), the instructions so far,
// the request while it streams, and then the review of the proposal. The review is Apply's
// (ApplyReview): the same rules for the same kind of change, so nothing is written before Accept,
// each Accept is one WorkspaceEdit (one undo step) preceded by a checkpoint, and typing elsewhere
// during the review is carried into the proposal (typing inside a proposed change ends it).
//
// The document is never changed to show the proposal (see inlineDiffDecorations.ts for why):
// while the answer streams, the preview is computed against the document as it is now, and the
// review starts from the document's text when the request was made, then follows the typing.
import * as vscode from 'vscode';
import type { GuardedPath } from '../../core/workspaceFiles/guardedWrites';
import type { Hunk } from '../../core/apply/lineHunks';
import { followLineScope, hunksInScope, withScopeReplaced, type LineScope } from '../../core/inlineEdit/lineScope';
import { splitLines } from '../../core/edits/lineEndings';
import { ApplyReview, type ReviewEnd } from '../apply/applyReview';
import type { CheckpointRecorder } from '../checkpoints/checkpointRecorder';
import { newId } from '../../shared/ids';

/** The checkpoints of inline edits are grouped under this conversation id (one "reply" per edit). */
const INLINE_EDIT_CHECKPOINTS = 'inline-edit';

export type SessionState = 'streaming' | 'review' | 'ended';

export interface SessionInit {
  readonly uri: vscode.Uri;
  readonly display: string;
  readonly language: string;
  readonly sensitive: readonly string[];
  readonly guarded: readonly GuardedPath[];
  /** The document's text when the request was made, and the lines the edit replaces in it. */
  readonly base: string;
  readonly scope: LineScope;
  readonly model: string;
}

export function scopeText(text: string, scope: LineScope): string {
  return splitLines(text).slice(scope.start, scope.end).join('');
}

export class InlineEditSession {
  readonly id = newId('inline-edit');
  readonly instructions: string[] = [];
  /** The original code of the scope (what the model was first shown). */
  readonly original: string;
  private stateValue: SessionState = 'streaming';
  private base: string;
  private scope: LineScope;
  /** The replacement the model proposed last (for a refinement). */
  private proposed = '';
  /** While streaming: the replacement as far as it came. */
  private streamed: string | undefined;
  private reviewValue: ApplyReview | undefined;
  /** While a refinement streams: the review it would replace, kept to come back if it is stopped or fails. */
  private aside: { readonly review: ApplyReview; readonly base: string; readonly scope: LineScope } | undefined;
  /** Where the scope was before the last rebase (a refinement set aside gets it back). */
  private placeBeforeRebase: { readonly base: string; readonly scope: LineScope } | undefined;
  private controller = new AbortController();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly endedEmitter = new vscode.EventEmitter<ReviewEnd | 'cancelled' | 'failed'>();
  readonly onDidChange = this.changed.event;
  readonly onDidEnd = this.endedEmitter.event;
  model: string;

  constructor(
    readonly init: SessionInit,
    private readonly checkpoints: CheckpointRecorder,
  ) {
    this.base = init.base;
    this.scope = init.scope;
    this.model = init.model;
    this.original = scopeText(init.base, init.scope);
  }

  get state(): SessionState {
    return this.stateValue;
  }

  get review(): ApplyReview | undefined {
    return this.reviewValue;
  }

  /** Aborts the request in flight (Stop, Escape, a closed document). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get previousProposal(): string {
    return this.proposed;
  }

  /** A refinement is possible while the proposal is under review (rebase() then checks nothing of it was written in the scope). */
  get canRefine(): boolean {
    return this.stateValue === 'review' && this.reviewValue !== undefined && !this.reviewValue.isEnded;
  }

  /** The last answer of scopeIn: each streamed line redraws against the same text, and following the scope diffs the whole document. */
  private scopeCache: { base: string; text: string; scope: LineScope | undefined } | undefined;

  /** Where the scope is in `text` now, or undefined when the user edited inside it. */
  scopeIn(text: string): LineScope | undefined {
    const cache = this.scopeCache;
    if (cache && cache.base === this.base && cache.text === text) return cache.scope;
    const scope = followLineScope(this.base, text, this.scope);
    this.scopeCache = { base: this.base, text, scope };
    return scope;
  }

  /**
   * The changes to draw for the document's text now: the review's hunks, or while streaming the
   * streamed lines in place of as many original lines (the rest of the scope not reached yet).
   */
  hunksFor(text: string): readonly Hunk[] {
    if (this.stateValue === 'review') return this.reviewValue?.hunks ?? [];
    if (this.stateValue !== 'streaming' || this.streamed === undefined) return [];
    const scope = this.scopeIn(text);
    if (!scope) return [];
    const lines = splitLines(text);
    const streamedLines = splitLines(this.streamed);
    const originalLines = lines.slice(scope.start, scope.end);
    const preview = [...streamedLines, ...originalLines.slice(streamedLines.length)].join('');
    return hunksInScope(lines, scope, preview);
  }

  /** The current lines of the scope in `text` (for the Stop lens while streaming). */
  streamingAnchor(text: string): number | undefined {
    return this.scopeIn(text)?.start;
  }

  showStreamed(replacementSoFar: string): void {
    if (this.stateValue !== 'streaming') return;
    this.streamed = replacementSoFar;
    this.changed.fire();
  }

  /** A refinement starts: the review is set aside (nothing was written) and the request streams again. */
  restart(instruction: string, model: string): boolean {
    // An ended session stays ended: restarting it would stream (and pay for) an edit no one sees.
    if (!this.canRefine) return false;
    this.instructions.push(instruction);
    this.model = model;
    this.controller = new AbortController();
    // Set aside, not rejected: a refinement that is stopped or fails gives the proposal back
    // (detached meanwhile: this review's end is not the session's).
    const old = this.reviewValue;
    this.reviewValue = undefined;
    this.aside?.review.rejectAll();
    this.aside = old
      ? { review: old, ...(this.placeBeforeRebase ?? { base: this.base, scope: this.scope }) }
      : undefined;
    this.placeBeforeRebase = undefined;
    this.streamed = undefined;
    this.stateValue = 'streaming';
    this.changed.fire();
    return true;
  }

  /**
   * The answer is complete: the review of the document as it was at the request, with the scope
   * replaced, then brought up to the document's text now (typing meanwhile).
   */
  startReview(replacement: string, current: string): ApplyReview | undefined {
    if (this.stateValue !== 'streaming') return undefined;
    this.proposed = replacement;
    this.streamed = undefined;
    // The refinement's proposal replaces the one set aside.
    this.aside?.review.rejectAll();
    this.aside = undefined;
    const review = new ApplyReview(
      {
        id: this.id,
        target: this.init.uri,
        display: this.init.display,
        exists: true,
        sensitive: this.init.sensitive,
        guarded: this.init.guarded,
        base: this.base,
        proposal: withScopeReplaced(this.base, this.scope, replacement),
        reply: { conversationId: INLINE_EDIT_CHECKPOINTS, turnId: `${this.id}-${this.instructions.length}` },
      },
      this.checkpoints,
    );
    this.reviewValue = review;
    this.stateValue = 'review';
    review.onDidChange(() => this.changed.fire());
    review.onDidEnd((how) => {
      if (this.reviewValue === review) this.end(how);
    });
    review.sync(current);
    if (!review.isEnded && review.hunks.length === 0) review.rejectAll(); // the model proposed the code as it is
    this.changed.fire();
    return review;
  }

  /** Refinement: the review's base follows typing; the scope is moved to where its lines are now. */
  rebase(current: string): boolean {
    const scope = this.scopeIn(current);
    if (!scope) return false;
    this.placeBeforeRebase = { base: this.base, scope: this.scope };
    this.scope = scope;
    this.base = current;
    return true;
  }

  /**
   * A refinement was stopped or failed: the review it would have replaced comes back (it then
   * follows the typing of meanwhile, or ends if that touched it). False when there is none.
   */
  restoreAside(): boolean {
    const aside = this.aside;
    if (this.stateValue !== 'streaming' || !aside || aside.review.isEnded) return false;
    this.aside = undefined;
    this.instructions.pop();
    this.base = aside.base;
    this.scope = aside.scope;
    this.controller = new AbortController();
    this.streamed = undefined;
    this.reviewValue = aside.review;
    this.stateValue = 'review';
    this.changed.fire();
    return true;
  }

  stop(): void {
    this.controller.abort();
  }

  end(how: ReviewEnd | 'cancelled' | 'failed'): void {
    if (this.stateValue === 'ended') return;
    this.stateValue = 'ended';
    this.controller.abort();
    if (this.reviewValue && !this.reviewValue.isEnded) this.reviewValue.rejectAll();
    this.aside?.review.rejectAll();
    this.aside = undefined;
    this.endedEmitter.fire(how);
    this.changed.fire();
    this.changed.dispose();
    this.endedEmitter.dispose();
  }
}
