import type * as vscode from 'vscode';
import type { ResearchJob } from '../../core/types/account';
import type { JobOutcome } from '../research/researchJobs';
import { failureReason, jobTitle } from '../../core/research/jobPresentation';
import { escapeMarkdown } from '../../shared/markdownText';
import { reportCommandError, requireClient } from './participantErrors';
import { result, type CommandContext } from './participantContext';

/**
 * /research <topic>: starts a job, then, while the request is open, waits for it and posts the
 * report. Cancelling only stops the waiting: the job goes on and the Research view announces it.
 */
export async function startResearch(ctx: CommandContext): Promise<vscode.ChatResult> {
  const topic = ctx.prompt.trim();
  if (!topic) {
    ctx.stream.markdown('Give a topic: `@unified /research How do vector databases compare for code search?`');
    return result('research', 'usage');
  }
  if (!requireClient(ctx)) return result('research', 'setup');
  const { research, connection } = ctx.deps;
  // Listen before starting: a short job could finish before the start call returns.
  const finished = new Map<string, JobOutcome>();
  const listener = research.onDidFinish((outcome) => finished.set(outcome.job.id, outcome));
  try {
    const job = await research.start(topic);
    ctx.stream.markdown(
      `Started a deep research job on **${escapeMarkdown(jobTitle(job))}**. The report will appear here when it is done; the Research view follows it too.\n\n`,
    );
    // Reveals the job in the view (selected), not only the view.
    ctx.stream.button({
      command: 'unifiedInference.research.reveal',
      title: 'Show in the Research View',
      arguments: [job.id],
    });
    ctx.stream.progress('Researching... (you can leave: the Research view notifies when the job finishes)');
    const outcome = await waitForJob(job, finished, research.onDidFinish, connection.onDidChange, ctx.token);
    if (!outcome) {
      if (ctx.token.isCancellationRequested) return result('research', 'cancelled');
      ctx.stream.markdown(
        '\n\nThe gateway connection changed, so this job is no longer followed here. The Research view lists the jobs of the account in use.',
      );
      return result('research', 'error');
    }
    return await postOutcome(ctx, outcome);
  } catch (error) {
    return reportCommandError(ctx, 'research', error);
  } finally {
    listener.dispose();
  }
}

async function postOutcome(ctx: CommandContext, outcome: JobOutcome): Promise<vscode.ChatResult> {
  const { job, phase } = outcome;
  const openReport: vscode.Command = {
    command: 'unifiedInference.research.openReport',
    title: 'Open Report',
    arguments: [{ kind: 'job', job }],
  };
  if (phase === 'failed') {
    const reason = failureReason(job);
    ctx.stream.markdown(
      `\n\nThe research job **${escapeMarkdown(jobTitle(job))}** failed${reason ? `: ${escapeMarkdown(reason)}` : '.'}`,
    );
    ctx.stream.button(openReport);
    return result('research', 'error');
  }
  ctx.stream.progress('The job finished; reading the report...');
  const report = await ctx.deps.reports.text(job);
  if (ctx.token.isCancellationRequested) return result('research', 'cancelled');
  ctx.stream.markdown(`\n\n---\n\n${report}\n\n`);
  ctx.stream.button(openReport);
  return result('research', 'done');
}

/** Resolves with the job's outcome, or undefined when the request is cancelled or the connection changes. */
function waitForJob(
  job: ResearchJob,
  finished: ReadonlyMap<string, JobOutcome>,
  onDidFinish: vscode.Event<JobOutcome>,
  onDidChangeConnection: vscode.Event<unknown>,
  token: vscode.CancellationToken,
): Promise<JobOutcome | undefined> {
  const already = finished.get(job.id);
  if (already) return Promise.resolve(already);
  return new Promise((resolve) => {
    const subscriptions: vscode.Disposable[] = [];
    const settle = (outcome: JobOutcome | undefined): void => {
      for (const subscription of subscriptions.splice(0)) subscription.dispose();
      resolve(outcome);
    };
    subscriptions.push(
      onDidFinish((outcome) => outcome.job.id === job.id && settle(outcome)),
      // The job list is reset for another gateway or key: this job will never be announced.
      onDidChangeConnection(() => settle(undefined)),
      token.onCancellationRequested(() => settle(undefined)),
    );
    if (token.isCancellationRequested) settle(undefined);
  });
}
