// Inline edit: the command that starts (or refines) an edit of the selection, the sessions per
// document, and what keeps them drawn (decorations, lenses, context keys for the keybindings).
// The review's writes are Apply's (ApplyReview); a file that can run code is confirmed before
// Accept, as Apply does, and named in a lens from the moment the review opens.
import * as vscode from 'vscode';
import { MAX_INLINE_EDIT_SELECTION_CHARS } from '../../core/inlineEdit/inlineEditPrompt';
import { MAX_INLINE_EDIT_DOCUMENT_CHARS } from '../../core/inlineEdit/lineScope';
import { guardedNotice } from '../apply/applyReviews';
import { AfterChangeError } from '../apply/applyReview';
import type { CheckpointRecorder } from '../checkpoints/checkpointRecorder';
import { readSettings } from '../config';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { InlineDiffDecorations } from './inlineDiffDecorations';
import { inlineEditJob, requestInlineEdit } from './inlineEditRequest';
import { InlineEditSession, scopeText } from './inlineEditSession';
import { askInstruction, type InstructionHistory } from './instructionInput';
import { scopeOf, setInlineEditContext } from './inlineEditCommands';
import { InlineEditConfirmations } from './inlineEditConfirmations';
import { errorMessage } from '../../shared/errorMessage';

/** The pause before a streamed line or a keystroke is drawn (a diff of a large file takes tens of milliseconds). */
const REDRAW_PAUSE_MS = 75;

export interface InlineEditDeps {
  readonly connection: GatewayConnection;
  readonly failures: Failures;
  readonly workspaceFiles: WorkspaceFilesService;
  readonly checkpoints: CheckpointRecorder;
  readonly history: InstructionHistory;
  readonly log: Log;
  readonly extensionUri: vscode.Uri;
}

/** The command's optional argument (scripts and tests): the instruction, instead of the input. */
export interface StartArgs {
  readonly instruction?: string;
}

export class InlineEdits extends Disposable {
  private readonly sessions = new Map<string, InlineEditSession>();
  /** Documents whose edit is being started (between the command and the session): a second start waits its turn. */
  private readonly starting = new Set<string>();
  /** Redraws waiting for a pause (per document): streamed lines and keystrokes come faster than a diff is worth drawing. */
  private readonly pendingRedraws = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly confirmations = new InlineEditConfirmations();
  readonly decorations: InlineDiffDecorations;
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** Fires when any session changes (lenses follow). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly deps: InlineEditDeps) {
    super();
    this.decorations = this._register(new InlineDiffDecorations(deps.extensionUri));
    this._register(
      vscode.workspace.onDidChangeTextDocument((event) => {
        const session = this.sessions.get(event.document.uri.toString());
        if (!session || event.contentChanges.length === 0) return;
        // Typing inside the scope while the answer streams: the edit can no longer be made, so the
        // request is stopped at once rather than paid for to the end.
        if (session.state === 'streaming' && !session.scopeIn(event.document.getText())) {
          session.stop();
          return;
        }
        // Typing elsewhere is carried into the proposal; typing inside a change ends the review
        // (ApplyReview). Both diff the whole document: done once per pause in the typing, not per
        // key (the write path syncs again before it writes).
        this.redraw(session, true);
      }),
    );
    this._register({ dispose: () => [...this.pendingRedraws.values()].forEach((timer) => clearTimeout(timer)) });
    this._register(
      vscode.workspace.onDidCloseTextDocument((document) => this.sessions.get(document.uri.toString())?.end('closed')),
    );
    this._register(vscode.window.onDidChangeVisibleTextEditors(() => this.redrawAll()));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()));
    this._register({ dispose: () => [...this.sessions.values()].forEach((session) => session.end('closed')) });
  }

  sessionOf(uri: vscode.Uri): InlineEditSession | undefined {
    return this.sessions.get(uri.toString());
  }

  get active(): readonly InlineEditSession[] {
    return [...this.sessions.values()];
  }

  /** Edit with Unified Inference: a new edit of the selection, or a refinement of the open review. */
  async start(args?: StartArgs): Promise<InlineEditSession | undefined> {
    const key = vscode.window.activeTextEditor?.document.uri.toString();
    // Two starts at once (a double key press, the lightbulb and the key) would make two paid sessions.
    if (key !== undefined && this.starting.has(key)) return this.sessions.get(key);
    if (key !== undefined) this.starting.add(key);
    try {
      return await this.startIn(args);
    } finally {
      if (key !== undefined) this.starting.delete(key);
    }
  }

  private async startIn(args?: StartArgs): Promise<InlineEditSession | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Open a file and select the code to edit (or put the cursor on an empty line), then run Edit with Unified Inference.',
        ),
      );
      return undefined;
    }
    const document = editor.document;
    if (document.uri.scheme !== 'file') {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Inline edit changes files on disk: save this document as a file first.'),
      );
      return undefined;
    }
    if (document.getText().length > MAX_INLINE_EDIT_DOCUMENT_CHARS) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          '{0} is too large for an inline edit (more than {1} characters): open a smaller file, or ask in the chat and use Apply.',
          vscode.workspace.asRelativePath(document.uri),
          MAX_INLINE_EDIT_DOCUMENT_CHARS.toLocaleString('en-US'),
        ),
      );
      return undefined;
    }
    const key = document.uri.toString();
    const existing = this.sessions.get(key);
    if (existing?.state === 'streaming') return existing;
    const title = vscode.l10n.t('Edit with Unified Inference');
    if (!this.deps.failures.requireSetup(title, () => this.start(args))) return undefined;
    const settings = readSettings();
    const model = settings.inlineEdit.model || settings.defaultModels.chat;
    if (!model) {
      const pick = vscode.l10n.t('Pick Default Chat Model');
      void vscode.window
        .showErrorMessage(
          vscode.l10n.t(
            'No model is set for inline edit: pick a default chat model, or set {0}.',
            'unifiedInference.inlineEdit.model',
          ),
          pick,
        )
        .then((choice) => choice === pick && vscode.commands.executeCommand('unifiedInference.pickDefaultChatModel'));
      return undefined;
    }
    // The gate: only a workspace file that may be written (not excluded, ignored or outside the folders).
    const files = await this.deps.workspaceFiles.open();
    const resolved = await this.deps.workspaceFiles.resolveUri(files, document.uri, 'write');
    if (!resolved.ok) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Inline edit will not change {0}: {1}',
          vscode.workspace.asRelativePath(document.uri),
          resolved.message,
        ),
      );
      return undefined;
    }
    const file = resolved.file;
    const refining = existing?.canRefine === true;
    const instruction =
      args?.instruction?.trim() || (await askInstruction(this.deps.history, { refining, model, file: file.display }));
    if (!instruction) return undefined;
    await this.deps.history.remember(instruction);
    if (refining && existing) {
      // The review may have ended while the input was open (accepted, rejected, the file closed):
      // reviving it would send a paid request for an edit no longer shown.
      if (this.sessions.get(key) !== existing || !existing.canRefine) return undefined;
      if (!existing.rebase(document.getText())) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            'The code of this edit changed (part of it was accepted, or you edited it), so it cannot be refined: reject the rest and select the code again.',
          ),
        );
        return existing;
      }
      if (!existing.restart(instruction, model)) return undefined;
      void this.run(existing, instruction, true);
      return existing;
    }
    existing?.end('closed');
    const scope = scopeOf(editor);
    const text = document.getText();
    if (scopeText(text, scope).length > MAX_INLINE_EDIT_SELECTION_CHARS) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The selection is longer than {0} characters: select less code for an inline edit (Apply from the chat handles whole files).',
          MAX_INLINE_EDIT_SELECTION_CHARS.toLocaleString('en-US'),
        ),
      );
      return undefined;
    }
    if (file.sensitive.length > 0 && !(await this.confirmations.sensitiveSend(file.display, file.sensitive, model)))
      return undefined;
    // A session that opened meanwhile (the awaits above) is ended like the one before: one edit per document.
    this.sessions.get(key)?.end('closed');
    const session = new InlineEditSession(
      {
        uri: document.uri,
        display: file.display,
        language: document.languageId,
        sensitive: file.sensitive,
        guarded: file.guarded,
        base: text,
        scope,
        model,
      },
      this.deps.checkpoints,
    );
    session.instructions.push(instruction);
    this.sessions.set(document.uri.toString(), session);
    // Streamed lines are drawn once per pause; a change of state (the review, the end) at once.
    session.onDidChange(() => this.redraw(session, session.state === 'streaming'));
    session.onDidEnd((how) => this.finish(session, how));
    this.redraw(session);
    void this.run(session, instruction, false);
    return session;
  }

  /** Streams the model's replacement into the session, then opens its review. */
  private async run(session: InlineEditSession, instruction: string, refining: boolean): Promise<void> {
    const client = this.deps.connection.setup.client;
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === session.init.uri.toString());
    const text = document?.getText() ?? session.init.base;
    const scope = session.scopeIn(text);
    if (!client || !scope || !document) {
      session.end('failed');
      return;
    }
    const job = inlineEditJob({ client, session, document, scope, instruction, refining, api: readSettings().chatApi });
    const answer = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Window,
        title: vscode.l10n.t('Editing {0} with {1}…', session.init.display, session.model),
      },
      async () => {
        try {
          return await requestInlineEdit(job, (soFar) => session.showStreamed(soFar), session.signal);
        } finally {
          this.deps.connection.reportModelUse();
        }
      },
    );
    if (session.state !== 'streaming') return; // closed meanwhile
    // A refinement stopped or failed: the previous proposal comes back rather than being lost.
    if (answer.kind !== 'done' && refining && session.restoreAside()) {
      if (answer.kind === 'cancelled')
        vscode.window.setStatusBarMessage(vscode.l10n.t('Refinement stopped: the previous proposal is back.'), 5000);
      else if (answer.kind === 'refused')
        void vscode.window.showErrorMessage(
          vscode.l10n.t('Inline edit of {0}: {1} The previous proposal is back.', session.init.display, answer.message),
        );
      else
        await this.deps.failures.show(answer.error, {
          title: vscode.l10n.t(
            'Refining the inline edit of {0} failed (the previous proposal is back)',
            session.init.display,
          ),
        });
      return;
    }
    switch (answer.kind) {
      case 'done': {
        const review = session.startReview(answer.replacement, document.getText());
        if (review?.isEnded)
          void vscode.window.showInformationMessage(
            vscode.l10n.t('{0} proposed no change to the selection.', session.model),
          );
        return;
      }
      case 'cancelled':
        session.end('cancelled');
        vscode.window.setStatusBarMessage(vscode.l10n.t('Inline edit stopped: nothing was written.'), 5000);
        return;
      case 'refused':
        session.end('failed');
        this.deps.log.warn(`Inline edit of ${session.init.display}: ${answer.message}`);
        void vscode.window.showErrorMessage(
          vscode.l10n.t('Inline edit of {0}: {1} Nothing was written.', session.init.display, answer.message),
        );
        return;
      case 'failed':
        session.end('failed');
        await this.deps.failures.show(answer.error, {
          title: vscode.l10n.t('Inline edit of {0} failed (nothing was written)', session.init.display),
        });
        return;
    }
  }

  async acceptAll(id?: unknown): Promise<void> {
    const session = this.sessionFor(id);
    const review = session?.review;
    if (!session || !review || review.isEnded) return;
    await this.guard(session, async () => (await this.confirmations.guarded(session)) && review.acceptAll());
  }

  rejectAll(id?: unknown): void {
    const session = this.sessionFor(id);
    if (session?.state === 'review') session.review?.rejectAll();
  }

  stop(id?: unknown): void {
    const session = this.sessionFor(id);
    if (session?.state === 'streaming') session.stop();
  }

  /** From a lens (session id, revision, index) or a key (the change at the cursor). */
  async onChange(accept: boolean, id?: unknown, revision?: unknown, index?: unknown): Promise<void> {
    const session = this.sessionFor(id);
    const review = session?.review;
    if (!session || !review || review.isEnded) return;
    let at = typeof index === 'number' ? index : -1;
    if (typeof id === 'string') {
      if (revision !== review.revision) return this.changed.fire(); // a lens from before the list changed
    } else {
      const editor = vscode.window.activeTextEditor;
      const line = editor?.selection.active.line ?? -1;
      at = editor
        ? this.decorations
            .changesOf(session, editor.document)
            .findIndex((c) => c.anchor === line || c.removed.includes(line))
        : -1;
      if (at < 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('The cursor is not on a proposed change.'));
        return;
      }
    }
    if (accept)
      await this.guard(session, async () => (await this.confirmations.guarded(session)) && review.acceptHunk(at));
    else review.rejectHunk(at);
  }

  showWarning(id?: unknown): void {
    const session = this.sessionFor(id);
    if (session) void vscode.window.showWarningMessage(guardedNotice(session.init.guarded), { modal: true });
  }

  private sessionFor(id: unknown): InlineEditSession | undefined {
    if (typeof id === 'string') return [...this.sessions.values()].find((s) => s.id === id);
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri ? this.sessions.get(uri.toString()) : undefined;
  }

  private async guard(session: InlineEditSession, action: () => Promise<unknown>): Promise<void> {
    try {
      await action();
    } catch (error) {
      const message = errorMessage(error);
      this.deps.log.warn(`Inline edit of ${session.init.display}: ${message}`);
      if (error instanceof AfterChangeError) void vscode.window.showWarningMessage(message);
      else void vscode.window.showErrorMessage(vscode.l10n.t('{0} Nothing else was written.', message));
    }
  }

  private finish(session: InlineEditSession, how: string): void {
    if (this.sessions.get(session.init.uri.toString()) === session) this.sessions.delete(session.init.uri.toString());
    this.confirmations.forget(session);
    if (how === 'conflict')
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          '{0} was edited where the proposed change is, so the inline edit was closed without writing anything more.',
          session.init.display,
        ),
      );
    this.redraw(session);
  }

  private redraw(session: InlineEditSession, soon = false): void {
    const key = session.init.uri.toString();
    const pending = this.pendingRedraws.get(key);
    if (soon) {
      if (pending === undefined)
        this.pendingRedraws.set(
          key,
          setTimeout(() => this.redraw(session), REDRAW_PAUSE_MS),
        );
      return;
    }
    if (pending !== undefined) clearTimeout(pending);
    this.pendingRedraws.delete(key);
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (document && session.state === 'review') session.review?.sync(document.getText());
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() === session.init.uri.toString())
        this.decorations.draw(editor, session.state === 'ended' ? undefined : session);
    }
    this.updateContext();
    this.changed.fire();
  }

  private redrawAll(): void {
    for (const editor of vscode.window.visibleTextEditors)
      this.decorations.draw(editor, this.sessions.get(editor.document.uri.toString()));
    this.updateContext();
  }

  private updateContext(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    setInlineEditContext(uri ? this.sessions.get(uri.toString())?.state : undefined);
  }
}
