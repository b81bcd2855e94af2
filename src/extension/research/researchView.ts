import * as vscode from 'vscode';
import type { ResearchJob } from '../../core/index';
import { Disposable } from '../lifecycle';
import { lookOf } from './jobPresentation';
import { describeFilter } from './researchQuery';
import type { ResearchJobs } from './researchJobs';

export const RESEARCH_VIEW_ID = 'unifiedInference.research';

export type ResearchNode = { readonly kind: 'job'; readonly job: ResearchJob } | { readonly kind: 'loadMore'; readonly shown: number; readonly total: number };

/** The Research Jobs view: newest first, iconed by status, age refreshed, "Load more" paging. */
export class ResearchView extends Disposable implements vscode.TreeDataProvider<ResearchNode> {
  private readonly changed = this._register(new vscode.EventEmitter<ResearchNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<ResearchNode>;

  constructor(private readonly jobs: ResearchJobs) {
    super();
    this.view = this._register(vscode.window.createTreeView(RESEARCH_VIEW_ID, { treeDataProvider: this }));
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
      const item = new vscode.TreeItem('Load more...', vscode.TreeItemCollapsibleState.None);
      item.description = `${node.shown} of ${node.total}`;
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: 'unifiedInference.research.loadMore', title: 'Load more' };
      item.id = 'loadMore';
      return item;
    }
    const look = lookOf(node.job, Date.now());
    const item = new vscode.TreeItem(look.label, vscode.TreeItemCollapsibleState.None);
    item.id = `job:${node.job.id}`;
    item.description = look.description;
    item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
    item.tooltip = new vscode.MarkdownString(look.tooltipLines.map((line) => line.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`)).join('  \n'));
    item.contextValue = `researchJob.${look.icon === 'pass' ? 'succeeded' : look.icon === 'error' ? 'failed' : 'inProgress'}`;
    item.command = { command: 'unifiedInference.research.openReport', title: 'Open Report', arguments: [node] };
    item.accessibilityInformation = { label: `${look.label}, ${look.description}` };
    return item;
  }

  getChildren(node?: ResearchNode): ResearchNode[] {
    if (node) return [];
    const jobs: ResearchNode[] = this.jobs.jobs.map((job) => ({ kind: 'job', job }));
    if (this.jobs.hasMore) jobs.push({ kind: 'loadMore', shown: this.jobs.jobs.length, total: this.jobs.totalDocs });
    return jobs;
  }

  private update(): void {
    const filter = describeFilter(this.jobs.query);
    void vscode.commands.executeCommand('setContext', 'unifiedInference.research.filterActive', filter !== undefined);
    const parts: string[] = [];
    if (this.jobs.problem) {
      const when = this.jobs.lastGoodRefresh ? `showing the list of ${new Date(this.jobs.lastGoodRefresh).toLocaleTimeString()}` : 'nothing loaded yet';
      parts.push(`$(warning) Could not refresh (${this.jobs.problem}); ${when}.`);
    }
    if (filter) parts.push(`${filter}. ${this.jobs.totalDocs} matching.`);
    this.view.message = parts.join(' ') || undefined;
    this.view.description = this.jobs.loading ? 'refreshing...' : this.jobs.totalDocs ? `${this.jobs.totalDocs} ${this.jobs.totalDocs === 1 ? 'job' : 'jobs'}` : undefined;
    this.changed.fire(undefined);
  }
}
