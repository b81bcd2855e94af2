// #deepResearch: starts a deep research job through the Research view's own job list (so the job
// shows there like any other) and either waits for it, with a cancellable progress notification,
// returning the report and its sources, or returns the job id at once for #researchStatus.
// Cancelling only stops the waiting: the job goes on, and the Research view announces its end.
import * as vscode from 'vscode';
import type { ResearchJob } from '../../core/types/account';
import { failureReason, jobTitle } from '../../core/research/jobPresentation';
import type { JobOutcome } from '../research/researchJobs';
import type { LmToolDeps } from './lmToolDeps';
import { LM_TOOLS } from '../../core/lmTools/toolNames';
import { balanceNote, requireClient, textResult, toolFailure } from './toolSupport';
import { optionalBoolean, requiredText } from '../../core/lmTools/toolInput';

const MAX_TOPIC = 4000;
/** Past this the tool stops waiting and hands back the job id (the job goes on). */
const MAX_WAIT_MS = 20 * 60_000;

export interface DeepResearchInput {
  readonly topic: string;
  readonly wait?: boolean;
}

type WaitEnd =
  | { readonly kind: 'outcome'; readonly outcome: JobOutcome }
  | { readonly kind: 'pollingStopped'; readonly reason: string }
  | { readonly kind: 'stopped' | 'timeout' | 'connectionChanged' };

export function deepResearchTool(deps: LmToolDeps): vscode.LanguageModelTool<DeepResearchInput> {
  return {
    prepareInvocation(options) {
      const topic = typeof options.input?.topic === 'string' ? options.input.topic.trim() : '';
      const wait = options.input?.wait !== false;
      return {
        invocationMessage: vscode.l10n.t('Starting deep research: {0}', topic.slice(0, 80)),
        confirmationMessages: {
          title: vscode.l10n.t('Start a deep research job?'),
          message: new vscode.MarkdownString(
            wait
              ? vscode.l10n.t(
                  'Topic: *{0}*\n\nA research job costs credits (the gateway charges each job) and typically takes **2 to 5 minutes**.{1} The tool waits for the report; cancelling stops the waiting, not the job. The job shows in the Research view.',
                  topic.slice(0, 500).replace(/[*_`[\]]/g, ''),
                  balanceNote(deps.credits),
                )
              : vscode.l10n.t(
                  'Topic: *{0}*\n\nA research job costs credits (the gateway charges each job) and typically takes **2 to 5 minutes**.{1} The tool returns the job id at once; the report is read later with #researchStatus. The job shows in the Research view.',
                  topic.slice(0, 500).replace(/[*_`[\]]/g, ''),
                  balanceNote(deps.credits),
                ),
          ),
        },
      };
    },
    async invoke(options, token) {
      try {
        const topic = requiredText(options.input, 'topic', MAX_TOPIC);
        const wait = optionalBoolean(options.input, 'wait') ?? true;
        requireClient(deps.connection);
        // Listen before starting: a short job could finish before the start call returns.
        const finished = new Map<string, JobOutcome>();
        const listener = deps.research.onDidFinish((outcome) => finished.set(outcome.job.id, outcome));
        try {
          const job = await deps.research.start(topic);
          if (!wait) return textResult(startedText(job));
          const end = await waitWithProgress(deps, job, finished, token);
          if (token.isCancellationRequested) throw new vscode.CancellationError();
          if (end.kind === 'pollingStopped')
            throw new Error(
              `Deep research job ${job.id} was started, but following it stopped: ${end.reason}. The job goes on; once the key is fixed, read it with #${LM_TOOLS.researchStatus.reference} and this job id.`,
            );
          if (end.kind !== 'outcome') return textResult(notWaitedText(job, end.kind));
          return await outcomeResult(deps, end.outcome, token);
        } finally {
          listener.dispose();
        }
      } catch (error) {
        throw await toolFailure(deps, LM_TOOLS.deepResearch.reference, error, token);
      }
    },
  };
}

function startedText(job: ResearchJob): string {
  return `Started deep research job ${job.id} on "${jobTitle(job)}" (status: ${job.status}). It typically takes 2 to 5 minutes. Read its status and report later with the ${LM_TOOLS.researchStatus.name} tool (#${LM_TOOLS.researchStatus.reference}) and this job id.`;
}

function notWaitedText(job: ResearchJob, why: 'stopped' | 'timeout' | 'connectionChanged'): string {
  const reason =
    why === 'stopped'
      ? 'The user stopped waiting for it'
      : why === 'timeout'
        ? `It did not finish within ${MAX_WAIT_MS / 60_000} minutes`
        : 'The gateway connection changed while waiting, so it is no longer followed here';
  return `Deep research job ${job.id} ("${jobTitle(job)}") is still running. ${reason}; the job goes on. Read its status and report later with #${LM_TOOLS.researchStatus.reference} and this job id.`;
}

async function outcomeResult(
  deps: LmToolDeps,
  { job, phase }: JobOutcome,
  token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
  if (phase === 'failed') {
    const reason = failureReason(job);
    throw new Error(
      `Deep research job ${job.id} ("${jobTitle(job)}") failed${reason ? `: ${reason}` : ''}. Starting it again costs another job.`,
    );
  }
  const report = await deps.reports.text(job);
  if (token.isCancellationRequested) throw new vscode.CancellationError();
  return textResult(`Deep research job ${job.id} succeeded. Its report (with sources) follows.\n\n${report}`);
}

/** Waits for the job under a cancellable notification that shows its status as the Research view polls it. */
function waitWithProgress(
  deps: LmToolDeps,
  job: ResearchJob,
  finished: ReadonlyMap<string, JobOutcome>,
  token: vscode.CancellationToken,
): Promise<WaitEnd> {
  const title = vscode.l10n.t('Deep research: {0}', jobTitle(job).slice(0, 60));
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, stop) =>
        new Promise<WaitEnd>((resolve) => {
          const already = finished.get(job.id);
          if (already) return resolve({ kind: 'outcome', outcome: already });
          // Polled at a visible view's pace while this waits, also with the window in the background.
          const subscriptions: vscode.Disposable[] = [deps.research.watch()];
          const settle = (end: WaitEnd): void => {
            clearTimeout(timer);
            for (const subscription of subscriptions.splice(0)) subscription.dispose();
            resolve(end);
          };
          const timer = setTimeout(() => settle({ kind: 'timeout' }), MAX_WAIT_MS);
          let shown = '';
          const report = (): void => {
            const status = deps.research.find(job.id)?.status ?? job.status;
            if (status === shown) return;
            shown = status;
            progress.report({
              message: vscode.l10n.t('{0} (typically 2 to 5 minutes; the Research view follows it too)', status),
            });
          };
          report();
          subscriptions.push(
            deps.research.onDidFinish((outcome) => outcome.job.id === job.id && settle({ kind: 'outcome', outcome })),
            deps.research.onDidChange(() => {
              // A refused key stops the polls until it changes: nothing would ever announce the job.
              const stoppedBy = deps.research.pollingStopped;
              if (stoppedBy !== undefined) settle({ kind: 'pollingStopped', reason: stoppedBy });
              else report();
            }),
            // The job list is reset for another gateway or key: this job will never be announced.
            deps.connection.onDidChange(() => settle({ kind: 'connectionChanged' })),
            stop.onCancellationRequested(() => settle({ kind: 'stopped' })),
            token.onCancellationRequested(() => settle({ kind: 'stopped' })),
          );
          if (token.isCancellationRequested) settle({ kind: 'stopped' });
        }),
    ),
  );
}
