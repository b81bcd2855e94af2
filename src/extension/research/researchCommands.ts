import * as vscode from 'vscode';
import type { ResearchJob } from '../../core/types/account';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import { describeJobFailure, jobTitle, outcomeMessage } from '../../core/research/jobPresentation';
import { SORT_LABELS, STATUS_LABELS, type SortKey, type StatusFilter } from '../../core/research/researchQuery';
import type { JobOutcome, ResearchJobs } from './researchJobs';
import type { ResearchNode, ResearchView } from './researchView';
import { REPORT_SCHEME, reportUri, type ReportDocuments } from './reportDocuments';

export interface ResearchCommandDeps {
  readonly jobs: ResearchJobs;
  readonly reports: ReportDocuments;
  readonly view: ResearchView;
  readonly connection: GatewayConnection;
  readonly failures: Failures;
  readonly log: Log;
}

/** A job id from what a caller passes: an id, a job, or a tree node. */
function jobIdFrom(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (typeof target !== 'object' || target === null) return undefined;
  const job = (target as { job?: { id?: unknown } }).job ?? target;
  const id = (job as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

const MAX_TOPIC = 4000;

function validateTopic(value: string): string | undefined {
  if (!value.trim()) return 'Describe what to research, e.g. "How do vector databases compare for code search?"';
  if (value.length > MAX_TOPIC) return `Keep the topic under ${MAX_TOPIC} characters (it has ${value.length}).`;
  return undefined;
}

/** A job from a tree node, or (palette) from a pick of the listed jobs. */
async function jobFrom(
  jobs: ResearchJobs,
  node: ResearchNode | undefined,
  purpose: string,
): Promise<ResearchJob | undefined> {
  if (node?.kind === 'job') return jobs.find(node.job.id) ?? node.job;
  const picked = await vscode.window.showQuickPick(
    jobs.jobs.map((job) => ({ label: jobTitle(job), description: job.status, job })),
    { title: purpose, placeHolder: vscode.l10n.t('Pick a research job') },
  );
  return picked?.job;
}

export function registerResearchCommands({
  jobs,
  reports,
  view,
  connection,
  failures,
  log,
}: ResearchCommandDeps): vscode.Disposable[] {
  const start = async (initial = ''): Promise<ResearchJob | undefined> => {
    // No key: said before the topic is asked for; once it is set, the command starts again.
    if (!failures.requireSetup(vscode.l10n.t('Start Deep Research'), () => start(initial))) return undefined;
    const topic = await vscode.window.showInputBox({
      title: vscode.l10n.t('Unified Inference: Start Deep Research'),
      prompt: vscode.l10n.t(
        'The question or subject to investigate. A job takes 2 to 5 minutes; you can keep working.',
      ),
      value: initial,
      ignoreFocusOut: true,
      validateInput: validateTopic,
    });
    if (topic === undefined || validateTopic(topic)) return undefined;
    return startTopic(topic.trim());
  };

  /** Creates the job; research creation is never retried automatically (it costs money): Retry is offered. */
  const startTopic = async (topic: string): Promise<ResearchJob | undefined> => {
    try {
      const job = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Starting research...') },
        () => jobs.start(topic),
      );
      void view
        .reveal(job.id)
        .then(undefined, (error: unknown) =>
          log.warn(`Could not reveal the new job in the Research view: ${String(error)}`),
        );
      return job;
    } catch (error) {
      // Out of credits (or a refused key) shows in the status bar too: the failure is reported once, here.
      await failures.show(error, {
        title: vscode.l10n.t('The research job was not started'),
        retry: () => startTopic(topic),
      });
      return undefined;
    }
  };

  const announce = ({ job, phase }: JobOutcome): void => {
    const open = { label: vscode.l10n.t('Open Report'), run: () => reports.open(job) };
    if (phase === 'succeeded') {
      void vscode.window
        .showInformationMessage(outcomeMessage(job, phase), open.label)
        .then((choice) => (choice ? reports.open(job) : undefined));
      return;
    }
    // A failed job, the same way as a failed request: the reason, the next step, Retry starts the topic again.
    const topic = job.topic?.trim();
    // The job's error text comes from the gateway: redacted like every other failure shown.
    failures.present(connection.redact(describeJobFailure(job)), {
      title: vscode.l10n.t('Research failed'),
      ...(topic ? { retry: () => startTopic(topic) } : {}),
      more: [open],
    });
  };

  return [
    jobs.onDidFinish(announce),
    vscode.commands.registerCommand('unifiedInference.research.start', () => start()),
    vscode.commands.registerCommand('unifiedInference.research.startFromSelection', () => {
      const editor = vscode.window.activeTextEditor;
      const selected = editor ? editor.document.getText(editor.selection).trim() : '';
      return start(selected.slice(0, MAX_TOPIC));
    }),
    vscode.commands.registerCommand('unifiedInference.research.refresh', () => jobs.refresh()),
    // Used by @unified /research's button: shows the view with that job selected.
    vscode.commands.registerCommand('unifiedInference.research.reveal', async (target?: unknown) => {
      const id = jobIdFrom(target);
      return id ? view.reveal(id) : vscode.commands.executeCommand('unifiedInference.research.focus').then(() => false);
    }),
    // Editor title of a report (its source or its markdown preview), or the palette.
    vscode.commands.registerCommand('unifiedInference.research.refreshReport', async (target?: unknown) => {
      let uri = target instanceof vscode.Uri && target.scheme === REPORT_SCHEME ? target : reports.activeReportUri;
      if (!uri) {
        const id = jobIdFrom(target);
        const job = id
          ? (jobs.find(id) ?? { id, status: 'unknown' })
          : await jobFrom(jobs, undefined, vscode.l10n.t('Refresh Report'));
        if (!job) return undefined;
        uri = reportUri(job);
      }
      await reports.refresh(uri);
      void vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Report refreshed'), 3000);
      return uri;
    }),
    vscode.commands.registerCommand('unifiedInference.research.loadMore', () => jobs.loadMore()),
    vscode.commands.registerCommand('unifiedInference.research.filter', async () => {
      const statusPick = await vscode.window.showQuickPick(
        (Object.keys(STATUS_LABELS) as StatusFilter[]).map((status) => ({
          label: STATUS_LABELS[status],
          status,
          picked: status === jobs.query.status,
        })),
        { title: vscode.l10n.t('Filter Research Jobs (1/2): status') },
      );
      if (!statusPick) return;
      const text = await vscode.window.showInputBox({
        title: vscode.l10n.t('Filter Research Jobs (2/2): text in the topic'),
        prompt: vscode.l10n.t('Leave empty for any topic.'),
        value: jobs.query.text,
      });
      if (text === undefined) return;
      await jobs.setQuery({ ...jobs.query, status: statusPick.status, text: text.trim() });
    }),
    vscode.commands.registerCommand('unifiedInference.research.clearFilter', () =>
      jobs.setQuery({ ...jobs.query, status: 'all', text: '' }),
    ),
    vscode.commands.registerCommand('unifiedInference.research.sort', async () => {
      const pick = await vscode.window.showQuickPick(
        (Object.keys(SORT_LABELS) as SortKey[]).map((sort) => ({
          label: `${sort === jobs.query.sort ? '$(check) ' : ''}${SORT_LABELS[sort]}`,
          sort,
        })),
        { title: vscode.l10n.t('Sort Research Jobs') },
      );
      if (pick) await jobs.setQuery({ ...jobs.query, sort: pick.sort });
    }),
    vscode.commands.registerCommand('unifiedInference.research.openReport', async (node?: ResearchNode) => {
      const job = await jobFrom(jobs, node, vscode.l10n.t('Open Report'));
      if (job) await reports.open(job);
    }),
    vscode.commands.registerCommand('unifiedInference.research.copyReport', async (node?: ResearchNode) => {
      const job = await jobFrom(jobs, node, vscode.l10n.t('Copy Report'));
      if (!job) return;
      await vscode.env.clipboard.writeText(await reports.text(job));
      void vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Report copied'), 3000);
    }),
    vscode.commands.registerCommand('unifiedInference.research.saveReport', async (node?: ResearchNode) => {
      const job = await jobFrom(jobs, node, vscode.l10n.t('Save Report As...'));
      if (!job) return undefined;
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const name = `${
        jobTitle(job)
          .replace(/[^\w-]+/g, '-')
          .replace(/^-+|-+$/g, '')
          .slice(0, 60) || 'research-report'
      }.md`;
      const target = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Save Report As'),
        filters: { [vscode.l10n.t('Markdown')]: ['md'] },
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      });
      if (!target) return undefined;
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(await reports.text(job)));
      void vscode.window
        .showInformationMessage(
          vscode.l10n.t('Report saved to {0}.', vscode.workspace.asRelativePath(target)),
          vscode.l10n.t('Open'),
        )
        .then((choice) => (choice ? vscode.window.showTextDocument(target) : undefined));
      return target;
    }),
    vscode.commands.registerCommand('unifiedInference.research.copyId', async (node?: ResearchNode) => {
      const job = await jobFrom(jobs, node, vscode.l10n.t('Copy Job Id'));
      if (job) await vscode.env.clipboard.writeText(job.id);
    }),
  ];
}
