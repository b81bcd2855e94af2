// "Write Commit Message": the repository's changes (staged, else all) and recent subjects go to a
// chat model through streamGatewayAnswer, and the answer streams, cleaned, into the repository's
// commit input box. One request per repository at a time; cancellable from the notification, the
// Stop button in the Source Control title or the Stop command (the request is aborted: the gateway
// sees the connection close). What the user had typed in the box is sent as their draft, and is
// put back when the request fails or is cancelled; typing into the box while the message streams
// stops the request and keeps what they typed.
import * as vscode from 'vscode';
import { catalogContextLength } from '../../core/context/contextLength';
import { isAbortError } from '../../core/errors';
import { cleanCommitMessage, MAX_MESSAGE_CHARS } from '../../core/commitMessage/commitAnswer';
import { commitPrompt, MAX_EXAMPLE_SUBJECTS } from '../../core/commitMessage/commitPrompt';
import { COMMIT_ANSWER_TOKENS, diffCharBudget, fitDiffs } from '../../core/commitMessage/diffBudget';
import { streamGatewayAnswer } from '../../core/answers/gatewayAnswer';
import { readSettings } from '../config';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { abortOnCancel, Disposable } from '../lifecycle';
import type { Log } from '../log';
import { modelFor } from '../models/catalogModels';
import { chooseModel } from '../../core/models/defaultModel';
import type { ModelCatalog } from '../models/modelCatalog';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { repositoryChanges } from './commitChanges';
import { showGitProblem } from './gitProblems';
import type { GitRepository } from './gitApi';
import { findRepository } from './gitRepositories';

/** Set while any message is being written: Stop is in the Command Palette. */
const WRITING_CONTEXT_KEY = 'unifiedInference.commitMessage.writing';
/** The root URIs of the repositories being written for: each Source Control title shows Stop instead of the sparkle for its own (`scmProviderRootUri in` this list). */
const WRITING_ROOTS_CONTEXT_KEY = 'unifiedInference.commitMessage.writingRoots';

export type CommitMessageOutcome =
  | { readonly kind: 'written'; readonly message: string; readonly model: string }
  | { readonly kind: 'cancelled' | 'stoppedByTyping' | 'busy' | 'nothingChanged' | 'noModel' | 'notReady' | 'failed' };

export interface CommitMessageDeps {
  readonly connection: GatewayConnection;
  readonly failures: Failures;
  readonly catalog: ModelCatalog;
  readonly workspaceFiles: WorkspaceFilesService;
  readonly log: Log;
}

export class CommitMessageWriter extends Disposable {
  /** The request in flight per repository root (its path), with the root for the context key. */
  private readonly running = new Map<string, { readonly controller: AbortController; readonly root: vscode.Uri }>();

  constructor(private readonly deps: CommitMessageDeps) {
    super();
    this._register({ dispose: () => this.stop(undefined) });
  }

  /** Stops the request of the repository the argument names (a source control), or every one. */
  stop(argument: unknown): void {
    const root =
      typeof argument === 'object' && argument !== null ? (argument as { rootUri?: unknown }).rootUri : undefined;
    for (const [key, { controller }] of this.running)
      if (!(root instanceof vscode.Uri) || root.fsPath === key) controller.abort();
  }

  async write(argument?: unknown): Promise<CommitMessageOutcome> {
    const title = vscode.l10n.t('Writing a commit message failed');
    if (!this.deps.failures.requireSetup(title, () => this.write(argument))) return { kind: 'notReady' };
    const found = await findRepository(argument);
    if (!found) return { kind: 'cancelled' };
    if (!found.ok) {
      showGitProblem(this.deps.failures, found.problem);
      return { kind: 'notReady' };
    }
    const repository = found.repository;
    const key = repository.rootUri.fsPath;
    if (this.running.has(key)) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'A commit message for {0} is already being written. Stop it from the Source Control title, or wait for it.',
          vscode.workspace.asRelativePath(repository.rootUri, true),
        ),
      );
      return { kind: 'busy' };
    }
    const controller = new AbortController();
    this.running.set(key, { controller, root: repository.rootUri });
    this.showWriting();
    try {
      return await this.run(repository, controller, title, () => this.write(argument));
    } finally {
      this.running.delete(key);
      this.showWriting();
    }
  }

  private showWriting(): void {
    void vscode.commands.executeCommand('setContext', WRITING_CONTEXT_KEY, this.running.size > 0);
    // Uris, not strings: VS Code turns them into the strings its side knows them by (in a remote
    // window a vscode-remote: URI, which is what scmProviderRootUri holds there).
    void vscode.commands.executeCommand(
      'setContext',
      WRITING_ROOTS_CONTEXT_KEY,
      [...this.running.values()].map((entry) => entry.root),
    );
  }

  private async run(
    repository: GitRepository,
    controller: AbortController,
    title: string,
    retry: () => unknown,
  ): Promise<CommitMessageOutcome> {
    const { connection, failures, catalog, workspaceFiles, log } = this.deps;
    const settings = readSettings();
    const configured = settings.commitMessage.model;
    const chosen = configured
      ? chooseModel('chat', configured, catalog.snapshot?.models)
      : await modelFor(catalog, 'chat');
    if (!chosen) {
      failures.present(
        {
          kind: 'noModel',
          message: vscode.l10n.t(
            'No chat model is set for commit messages and the gateway lists none. Pick one in {0} or {1}.',
            'unifiedInference.commitMessage.model',
            'unifiedInference.defaultModels.chat',
          ),
          actions: ['openSettings'],
          detail: 'no chat model',
        },
        { title },
      );
      return { kind: 'noModel' };
    }
    const client = connection.setup.client;
    if (!client) return { kind: 'notReady' };
    const contextLength = catalogContextLength(catalog.model(chosen.id));
    const budget = diffCharBudget(contextLength);
    const box = repository.inputBox;
    const draft = box.value;
    const scmProgress = deferred();
    // The Source Control view's own progress bar, beside the cancellable notification.
    void vscode.window.withProgress({ location: vscode.ProgressLocation.SourceControl }, () => scmProgress.promise);
    try {
      return await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Writing a commit message with {0}', chosen.id),
          cancellable: true,
        },
        async (progress, token) => {
          const cancel = abortOnCancel(controller, token);
          let written: string | undefined;
          /** Every piece put in the box: the workbench echoes a value back after we set a newer one. */
          const pieces = new Set<string>();
          let typed = false;
          let tooLong = false;
          let raw = '';
          // The box holds the draft or a piece we put there (the latest, or an earlier one the
          // workbench echoed back while the latest was on its way): anything else the user typed.
          const userTyped = (): boolean => box.value !== draft && !pieces.has(box.value);
          const restoreDraft = (): void => {
            // Only what the model wrote goes: the user's draft comes back.
            if (pieces.has(box.value)) box.value = draft;
          };
          try {
            progress.report({ message: vscode.l10n.t('Reading the changes…') });
            const changes = await repositoryChanges(repository, workspaceFiles, budget, controller.signal);
            if (changes.files.length === 0) {
              void vscode.window.showInformationMessage(
                vscode.l10n.t(
                  'There are no changes in {0} to write a commit message for. Change or stage files first.',
                  vscode.workspace.asRelativePath(repository.rootUri, true),
                ),
              );
              return { kind: 'nothingChanged' };
            }
            const subjects = await repository.log({ maxEntries: MAX_EXAMPLE_SUBJECTS }).then(
              (commits) => commits.map((commit) => commit.message.split('\n')[0] ?? ''),
              () => [],
            );
            const fitted = fitDiffs(changes.files, budget);
            const prompt = commitPrompt({
              files: fitted.files,
              recentSubjects: subjects,
              scope: changes.scope,
              cut: fitted.cut,
              draft,
            });
            if (controller.signal.aborted) return { kind: 'cancelled' };
            // Typed while the changes were read: nothing is spent, their text stays.
            if (userTyped()) return { kind: 'stoppedByTyping' };
            progress.report({ message: vscode.l10n.t('Waiting for the model…') });
            const request = {
              model: chosen.id,
              api: settings.chatApi,
              ...(chosen.provider ? { provider: chosen.provider } : {}),
              system: prompt.system,
              messages: [{ role: 'user' as const, parts: [{ kind: 'text' as const, text: prompt.user }] }],
              maxTokens: COMMIT_ANSWER_TOKENS,
              temperature: 0,
            };
            const sink = {
              text: (delta: string): void => {
                if (typed || controller.signal.aborted) return;
                // The user typed into the box (while the changes were read, while the model
                // thought, or between pieces): their text wins, and the request stops.
                if (userTyped()) {
                  typed = true;
                  controller.abort();
                  return;
                }
                raw += delta;
                // A message is short: an answer past twice the bound is not one, and costs.
                if (raw.length > MAX_MESSAGE_CHARS * 2) {
                  tooLong = true;
                  controller.abort();
                }
                const shown = cleanCommitMessage(raw, true);
                if (shown && shown !== written) {
                  box.value = shown;
                  written = shown;
                  pieces.add(shown);
                }
              },
            };
            const answer = await streamGatewayAnswer(client, request, sink, controller.signal).catch(
              (error: unknown) => {
                if (tooLong && isAbortError(error)) return undefined;
                throw error;
              },
            );
            const message = cleanCommitMessage(raw);
            const usage = answer?.usage
              ? `${answer.usage.promptTokens} + ${answer.usage.completionTokens} tokens`
              : 'usage not reported';
            log.info(
              `Commit message: ${chosen.id}, ${changes.files.length} files (${changes.scope}), ${fitted.cut.linesLeftOut} diff lines cut, ${usage}`,
            );
            // Typed after the last piece, while the answer ended: theirs stays.
            if (typed || userTyped()) {
              controller.abort();
              return { kind: 'stoppedByTyping' };
            }
            if (!message) {
              restoreDraft();
              failures.present(
                {
                  kind: 'other',
                  message: vscode.l10n.t(
                    '{0} answered with no commit message. Try again, or choose another model in {1}.',
                    chosen.id,
                    'unifiedInference.commitMessage.model',
                  ),
                  actions: ['retry', 'openSettings'],
                  detail: 'empty answer',
                },
                { title, retry },
              );
              return { kind: 'failed' };
            }
            box.value = message;
            return { kind: 'written', message, model: chosen.id };
          } catch (error) {
            if (typed) return { kind: 'stoppedByTyping' };
            restoreDraft();
            if (controller.signal.aborted && isAbortError(error)) return { kind: 'cancelled' };
            await failures.show(error, { title, retry });
            return { kind: 'failed' };
          } finally {
            cancel.dispose();
            connection.reportModelUse();
          }
        },
      );
    } finally {
      scmProgress.resolve();
    }
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
