// The open reviews of Apply, shown in VS Code's diff editor: the file on the left, the proposal on
// the right as a read-only document of our own scheme. Owns what the diff editor needs: the
// proposal's content, the CodeLens on each change (Accept Change / Reject Change), the Accept All /
// Reject All commands of the editor title, and the listeners that keep a review in step with the
// document (typing) and end it when its diff editor is closed.
import * as vscode from 'vscode';
import type { GuardedPath } from '../../core/workspaceFiles/guardedWrites';
import type { Hunk } from '../../core/apply/lineHunks';
import { guardedWriteWords } from '../../shared/chatModel';
import type { CheckpointRecorder } from '../checkpoints/checkpointRecorder';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { AfterChangeError, APPLY_SCHEME, ApplyReview, type ReviewEnd, type ReviewInit } from './applyReview';
import { errorMessage } from '../../shared/errorMessage';

const APPLY_COMMANDS = {
  acceptAll: 'unifiedInference.apply.acceptAll',
  rejectAll: 'unifiedInference.apply.rejectAll',
  acceptChange: 'unifiedInference.apply.acceptChange',
  rejectChange: 'unifiedInference.apply.rejectChange',
} as const;

/** What the edit tools' card says of a guarded file, for Apply's notice and confirmation. */
export function guardedNotice(guarded: readonly GuardedPath[]): string {
  // The card's own words (shared/chatModel.ts), so Apply and the edit tools name a file alike.
  const why = guarded.map((g) => `${g.path} ${guardedWriteWords(g.reason)}`);
  return vscode.l10n.t(
    "{0}: a change there takes effect without anyone looking at it again (a task, a script, a hook, the next model's instructions). Accept only a change you have read.",
    why.join(', '),
  );
}

function reviewIdOf(uri: vscode.Uri): string | undefined {
  return uri.scheme === APPLY_SCHEME ? /(?:^|&)review=([\w-]+)/.exec(uri.query)?.[1] : undefined;
}

/** The line a hunk's lens sits on in the proposal (a deletion has no line of its own: the one after it). */
function lensLine(hunk: Hunk, lineCount: number): number {
  return Math.max(0, Math.min(hunk.newStart, lineCount - 1));
}

export class ApplyReviews extends Disposable implements vscode.TextDocumentContentProvider, vscode.CodeLensProvider {
  private readonly reviews = new Map<string, ApplyReview>();
  /** Reviews of guarded files whose writing the user confirmed. */
  private readonly confirmed = new Set<string>();
  private readonly contentChanged = this._register(new vscode.EventEmitter<vscode.Uri>());
  private readonly lensesChanged = this._register(new vscode.EventEmitter<void>());
  private readonly ended = this._register(new vscode.EventEmitter<{ review: ApplyReview; how: ReviewEnd }>());
  readonly onDidChange = this.contentChanged.event;
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  /** A review ended (accepted, rejected, closed, or stopped by typing inside a change). */
  readonly onDidEndReview = this.ended.event;

  constructor(
    private readonly checkpoints: CheckpointRecorder,
    private readonly log: Log,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(APPLY_SCHEME, this));
    this._register(vscode.languages.registerCodeLensProvider({ scheme: APPLY_SCHEME }, this));
    this._register(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length === 0) return;
        // A proposal document took its new text: its lenses can be placed now.
        if (event.document.uri.scheme === APPLY_SCHEME) this.lensesChanged.fire();
        for (const review of this.reviewsOf(event.document.uri)) review.sync(event.document.getText());
      }),
    );
    this._register(
      vscode.window.tabGroups.onDidChangeTabs((event) => {
        for (const tab of event.closed) {
          const input = tab.input;
          const id = input instanceof vscode.TabInputTextDiff ? reviewIdOf(input.modified) : undefined;
          const review = id ? this.reviews.get(id) : undefined;
          // Closed by the user (a review we end closes its own tab after it is gone from the map).
          if (review && !this.isShown(review)) review.close();
        }
      }),
    );
    this._register(
      vscode.commands.registerCommand(APPLY_COMMANDS.acceptAll, (uri?: unknown) =>
        this.run(uri, async (review) => (await this.confirmGuarded(review)) && review.acceptAll()),
      ),
    );
    this._register(
      vscode.commands.registerCommand(APPLY_COMMANDS.rejectAll, (uri?: unknown) =>
        this.run(uri, (review) => review.rejectAll()),
      ),
    );
    this._register(
      vscode.commands.registerCommand(
        APPLY_COMMANDS.acceptChange,
        (id?: unknown, revision?: unknown, index?: unknown) =>
          this.onHunk(
            id,
            revision,
            index,
            async (review, i) => (await this.confirmGuarded(review)) && review.acceptHunk(i),
          ),
      ),
    );
    this._register(
      vscode.commands.registerCommand(
        APPLY_COMMANDS.rejectChange,
        (id?: unknown, revision?: unknown, index?: unknown) =>
          this.onHunk(id, revision, index, (review, i) => review.rejectHunk(i)),
      ),
    );
    this._register({ dispose: () => [...this.reviews.values()].forEach((review) => review.close()) });
  }

  /** Opens a review in the diff editor; resolves with the review (ended or not). */
  async open(init: ReviewInit): Promise<ApplyReview> {
    // One review per file: a newer proposal for the same file replaces the older one.
    for (const old of this.reviewsOf(init.target)) old.close();
    const review = new ApplyReview(init, this.checkpoints);
    this.reviews.set(review.id, review);
    review.onDidChange(() => {
      this.contentChanged.fire(review.proposalUri);
      this.lensesChanged.fire();
    });
    review.onDidEnd((how) => void this.finish(review, how));
    await this.asPlainText(review.proposalUri);
    if (!init.exists) await this.asPlainText(review.originalUri);
    await vscode.commands.executeCommand('vscode.diff', review.originalUri, review.proposalUri, review.title, {
      preview: false,
    });
    return review;
  }

  /**
   * The proposal is shown as plain text, before its editor opens. Language services check open
   * documents of every scheme (the built-in TypeScript service reports a proposal's syntax errors,
   * the JSON, CSS and HTML ones theirs), and the Problems panel lists them under the file's name,
   * as if the file on disk were broken. Only VS Code's own schemes are kept out of the panel, and
   * only git's and a few others out of the TypeScript service: no API lets an extension keep its
   * documents out, and borrowing a scheme of VS Code's or of another extension would answer for
   * theirs. A document that is not in a checked language is checked by nobody; the cost is the
   * proposal's highlighting (the file beside it keeps its own).
   */
  private async asPlainText(uri: vscode.Uri): Promise<void> {
    const document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== 'plaintext') await vscode.languages.setTextDocumentLanguage(document, 'plaintext');
  }

  get active(): readonly ApplyReview[] {
    return [...this.reviews.values()];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const review = this.reviews.get(reviewIdOf(uri) ?? '');
    if (!review || /(?:^|&)side=empty/.test(uri.query)) return '';
    return review.proposal;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const review = this.reviews.get(reviewIdOf(document.uri) ?? '');
    if (!review || /(?:^|&)side=empty/.test(document.uri.query) || document.getText() !== review.proposal) return [];
    return review.hunks.flatMap((hunk, index) => {
      const range = new vscode.Range(lensLine(hunk, document.lineCount), 0, lensLine(hunk, document.lineCount), 0);
      const args = [review.id, review.revision, index];
      const display = review.init.display;
      const write =
        hunk.oldLines.length === 0
          ? vscode.l10n.t('Write this addition to {0}', display)
          : hunk.newLines.length === 0
            ? vscode.l10n.t('Write this deletion to {0}', display)
            : vscode.l10n.t('Write this change to {0}', display);
      return [
        new vscode.CodeLens(range, {
          title: `$(check) ${vscode.l10n.t('Accept Change')}`,
          command: APPLY_COMMANDS.acceptChange,
          arguments: args,
          tooltip: write,
        }),
        new vscode.CodeLens(range, {
          title: `$(discard) ${vscode.l10n.t('Reject Change')}`,
          command: APPLY_COMMANDS.rejectChange,
          arguments: args,
          tooltip: vscode.l10n.t('Leave {0} as it is here', display),
        }),
      ];
    });
  }

  private reviewsOf(target: vscode.Uri): ApplyReview[] {
    return [...this.reviews.values()].filter((review) => review.init.target.toString() === target.toString());
  }

  private isShown(review: ApplyReview): boolean {
    return this.tabsOf(review).length > 0;
  }

  private tabsOf(review: ApplyReview): vscode.Tab[] {
    return vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter(
        (tab) =>
          tab.input instanceof vscode.TabInputTextDiff &&
          tab.input.modified.toString() === review.proposalUri.toString(),
      );
  }

  /** The review a command is about: the URI it was given (editor title), else the active editor's. */
  private reviewFor(arg: unknown): ApplyReview | undefined {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri) return undefined;
    const byId = this.reviews.get(reviewIdOf(uri) ?? '');
    return byId ?? this.reviewsOf(uri)[0];
  }

  private async run(arg: unknown, action: (review: ApplyReview) => unknown): Promise<void> {
    const review = this.reviewFor(arg) ?? (this.reviews.size === 1 ? [...this.reviews.values()][0] : undefined);
    if (!review) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No proposed change is open for review here.'));
      return;
    }
    await this.guard(review, action);
  }

  /**
   * A file that can run code or instruct the model (.vscode/, package.json, hooks, AGENTS.md...):
   * its change is written only after a deliberate yes, as the edit tools' Allow Once (once per
   * review: its changes are all to that one file).
   */
  private async confirmGuarded(review: ApplyReview): Promise<boolean> {
    const guarded = review.init.guarded ?? [];
    if (guarded.length === 0 || this.confirmed.has(review.id)) return true;
    const write = vscode.l10n.t('Write the Change');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Write the change to {0}?', review.init.display),
      { modal: true, detail: guardedNotice(guarded) },
      write,
    );
    if (choice !== write) return false;
    this.confirmed.add(review.id);
    return true;
  }

  /** From a lens (review id, revision, index) or the palette (the change at the cursor). */
  private async onHunk(
    id: unknown,
    revision: unknown,
    index: unknown,
    action: (review: ApplyReview, index: number) => unknown,
  ): Promise<void> {
    if (typeof id === 'string') {
      const review = this.reviews.get(id);
      if (!review || typeof index !== 'number') return;
      // A lens from before the list changed: its number may now name another change.
      if (revision !== review.revision) {
        this.lensesChanged.fire();
        return;
      }
      await this.guard(review, (r) => action(r, index));
      return;
    }
    const editor = vscode.window.activeTextEditor;
    const review = this.reviewFor(undefined);
    if (!editor || !review) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Put the cursor on a proposed change in the review to accept or reject it.'),
      );
      return;
    }
    const onProposal = editor.document.uri.scheme === APPLY_SCHEME;
    const line = editor.selection.active.line;
    const at = review.hunks.findIndex((hunk) => {
      const start = onProposal ? hunk.newStart : hunk.oldStart;
      const count = onProposal ? hunk.newLines.length : hunk.oldLines.length;
      return line >= start && line < start + Math.max(1, count);
    });
    if (at < 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The cursor is not on a proposed change.'));
      return;
    }
    await this.guard(review, (r) => action(r, at));
  }

  private async guard(review: ApplyReview, action: (review: ApplyReview) => unknown): Promise<void> {
    try {
      await action(review);
    } catch (error) {
      const message = errorMessage(error);
      this.log.warn(`Apply to ${review.init.display}: ${message}`);
      // The change is in the file: only the checkpoint's note of it is missing.
      if (error instanceof AfterChangeError) void vscode.window.showWarningMessage(message);
      else void vscode.window.showErrorMessage(vscode.l10n.t('{0} Nothing else was written.', message));
    }
  }

  private async finish(review: ApplyReview, how: ReviewEnd): Promise<void> {
    this.reviews.delete(review.id);
    this.confirmed.delete(review.id);
    this.lensesChanged.fire();
    this.ended.fire({ review, how });
    const tabs = this.tabsOf(review);
    if (tabs.length) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
    if (how === 'accepted') {
      // The change is in the document, unsaved: show it, where undo and save are at hand.
      await vscode.window.showTextDocument(review.init.target, { preview: false }).then(undefined, () => undefined);
    } else if (how === 'conflict') {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          '{0} was edited where the proposed change is, so the review was closed without writing anything more. Apply the block again to merge it with your edits.',
          review.init.display,
        ),
      );
    }
  }
}
