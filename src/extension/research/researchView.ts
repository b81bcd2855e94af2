import * as vscode from 'vscode';
import type { ResearchJob } from '../../core/types/account';
import { Disposable } from '../lifecycle';
import { lookOf, unreadBadgeTooltip } from '../../core/research/jobPresentation';
import { describeFilter } from '../../core/research/researchQuery';
import type { ResearchJobs } from './researchJobs';
import type { ReportDocuments } from './reportDocuments';

const RESEARCH_VIEW_ID = 'unifiedInference.research';

export type ResearchNode =
  | { readonly kind: 'job'; readonly job: ResearchJob }
  | { readonly kind: 'loadMore'; readonly shown: number; readonly total: number };

/** The view keeps one node object per job id (TreeView.reveal finds an element by identity) and updates its job. */
type JobNode = { readonly kind: 'job'; job: ResearchJob };

/**
 * The Research Jobs view: newest first, status first on each row, age refreshed, "Load more"
 * paging. A job that succeeds while the window follows it is a "New report" (and counted in the
 * view's badge) until its report is opened, whichever way: the answer shows where the job was
 * started, not only in a notification.
 */
export class ResearchView extends Disposable implements vscode.TreeDataProvider<ResearchNode> {
  private readonly changed = this._register(new vscode.EventEmitter<ResearchNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<ResearchNode>;
  private readonly nodes = new Map<string, JobNode>();
  /** Jobs that succeeded in this window and whose report was not opened since. */
  private readonly unread = new Set<string>();

  constructor(
    private readonly jobs: ResearchJobs,
    reports: ReportDocuments,
  ) {
    super();
    this.view = this._register(vscode.window.createTreeView(RESEARCH_VIEW_ID, { treeDataProvider: this }));
    this._register(
      jobs.onDidFinish(({ job, phase }) => {
        if (phase === 'succeeded') this.unread.add(job.id);
        this.update();
      }),
    );
    this._register(
      reports.onDidOpen((job) => {
        if (this.unread.delete(job.id)) this.update();
      }),
    );
    // Another gateway or key: its jobs are not the ones waiting to be read.
    this._register(jobs.onDidReset(() => this.unread.clear()));
    this._register(jobs.onDidChange(() => this.update()));
    this._register(this.view.onDidChangeVisibility((event) => jobs.setViewVisible(event.visible)));
    jobs.setViewVisible(this.view.visible);
    // "3 min ago" ages: re-render while the view is visible.
    const ticker = setInterval(() => this.view.visible && this.changed.fire(undefined), 30_000);
    this._register({ dispose: () => clearInterval(ticker) });
    this.update();
  }

  getTreeItem(node: ResearchNode): vscode.TreeItem {
    if (node.kind === 'loadMore') {
      const item = new vscode.TreeItem(vscode.l10n.t('Load more...'), vscode.TreeItemCollapsibleState.None);
      item.description = vscode.l10n.t('{0} of {1}', node.shown, node.total);
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: 'unifiedInference.research.loadMore', title: vscode.l10n.t('Load more') };
      item.id = 'loadMore';
      return item;
    }
    const look = lookOf(node.job, Date.now(), { unread: this.unread.has(node.job.id) }, vscode.l10n);
    const item = new vscode.TreeItem(look.label, vscode.TreeItemCollapsibleState.None);
    item.id = `job:${node.job.id}`;
    item.description = look.description;
    item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
    item.tooltip = new vscode.MarkdownString(
      look.tooltipLines.map((line) => line.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`)).join('  \n'),
    );
    item.contextValue = `researchJob.${look.phase === 'in_progress' ? 'inProgress' : look.phase}`;
    item.command = {
      command: 'unifiedInference.research.openReport',
      title: vscode.l10n.t('Open Report'),
      arguments: [node],
    };
    item.accessibilityInformation = { label: look.accessibilityLabel };
    return item;
  }

  getChildren(node?: ResearchNode): ResearchNode[] {
    if (node) return [];
    const jobs = this.jobs.jobs;
    const ids = new Set(jobs.map((job) => job.id));
    for (const id of this.nodes.keys()) if (!ids.has(id)) this.nodes.delete(id);
    const children: ResearchNode[] = jobs.map((job) => {
      const existing = this.nodes.get(job.id);
      if (existing) {
        existing.job = job;
        return existing;
      }
      const created: JobNode = { kind: 'job', job };
      this.nodes.set(job.id, created);
      return created;
    });
    if (this.jobs.hasMore) children.push({ kind: 'loadMore', shown: jobs.length, total: this.jobs.totalDocs });
    return children;
  }

  /** Every node is at the top level (TreeView.reveal asks for the parent chain). */
  getParent(_node: ResearchNode): undefined {
    return undefined;
  }

  /**
   * Shows the Research view with this job selected. When the job is not in the list (yet, or the
   * filter hides it), the view is shown and false is returned.
   */
  async reveal(jobId: string): Promise<boolean> {
    const node = this.getChildren().find((child) => child.kind === 'job' && child.job.id === jobId);
    if (!node) {
      await vscode.commands.executeCommand(`${RESEARCH_VIEW_ID}.focus`);
      return false;
    }
    await this.view.reveal(node, { select: true, focus: true });
    return true;
  }

  private update(): void {
    this.view.badge = this.unread.size
      ? { value: this.unread.size, tooltip: unreadBadgeTooltip(this.unread.size, vscode.l10n) }
      : undefined;
    const filter = describeFilter(this.jobs.query);
    void vscode.commands.executeCommand('setContext', 'unifiedInference.research.filterActive', filter !== undefined);
    const parts: string[] = [];
    if (this.jobs.problem) {
      parts.push(
        this.jobs.lastGoodRefresh
          ? vscode.l10n.t(
              '$(warning) Could not refresh ({0}); showing the list of {1}.',
              this.jobs.problem,
              new Date(this.jobs.lastGoodRefresh).toLocaleTimeString(),
            )
          : vscode.l10n.t('$(warning) Could not refresh ({0}); nothing loaded yet.', this.jobs.problem),
      );
    }
    if (filter) parts.push(vscode.l10n.t('{0}. {1} matching.', filter, this.jobs.totalDocs));
    this.view.message = parts.join(' ') || undefined;
    const total = this.jobs.totalDocs;
    this.view.description = this.jobs.loading
      ? vscode.l10n.t('refreshing...')
      : total
        ? total === 1
          ? vscode.l10n.t('{0} job', total)
          : vscode.l10n.t('{0} jobs', total)
        : undefined;
    this.changed.fire(undefined);
  }
}
