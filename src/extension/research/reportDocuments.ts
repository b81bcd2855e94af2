import * as vscode from 'vscode';
import { GatewayError } from '../../core/errors';
import type { ResearchJob } from '../../core/types/account';
import { inertMarkdown } from '../../shared/inertMarkdown';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { abortOnCancel, Disposable } from '../lifecycle';
import { jobTitle, reportMarkdown } from '../../core/research/jobPresentation';
import type { ResearchJobs } from './researchJobs';
import { errorMessage } from '../../shared/errorMessage';

export const REPORT_SCHEME = 'unified-inference-research';

/** `unified-inference-research:/<id>/<title>.md`: the title only makes the editor tab readable. */
export function reportUri(job: ResearchJob): vscode.Uri {
  const slug =
    jobTitle(job)
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'report';
  return vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${encodeURIComponent(job.id)}/${slug}.md` });
}

function jobIdOf(uri: vscode.Uri): string {
  return decodeURIComponent(uri.path.split('/')[1] ?? '');
}

/** The context key that shows "Refresh Report" in the editor title bar (package.json menus). */
const REPORT_ACTIVE_CONTEXT = 'unifiedInference.research.reportActive';

/** The markdown preview's tab label for a document ("Preview x.md", "[Preview] x.md" when locked). */
function previewLabelMatches(label: string, uri: vscode.Uri): boolean {
  const name = uri.path.split('/').pop() ?? '';
  return label === `Preview ${name}` || label === `[Preview] ${name}`;
}

/**
 * Reports as read-only virtual markdown documents, built from `GET /research/{id}` (and what the
 * list gave, when the detail is unavailable). Shown in VS Code's markdown preview. A report open
 * while its job runs is re-read when the job finishes; "Refresh Report" re-reads it on request.
 */
export class ReportDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;
  private readonly openedReport = this._register(new vscode.EventEmitter<ResearchJob>());
  /** A report was opened (from the view, a notification, the palette or a chat button): it is read. */
  readonly onDidOpen = this.openedReport.event;
  /** The reports opened in this session (a preview may outlive its document in the extension host). */
  private readonly opened = new Map<string, vscode.Uri>();
  private activeReport: vscode.Uri | undefined;

  constructor(
    private readonly connection: GatewayConnection,
    private readonly jobs: ResearchJobs,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this));
    this._register(jobs.onDidFinish(({ job }) => void this.refreshJob(job.id)));
    this._register(vscode.window.tabGroups.onDidChangeTabs(() => this.trackActiveReport()));
    this._register(vscode.window.tabGroups.onDidChangeTabGroups(() => this.trackActiveReport()));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.trackActiveReport()));
    this.trackActiveReport();
  }

  /** The report in the active editor or markdown preview, if one is active. */
  get activeReportUri(): vscode.Uri | undefined {
    return this.activeReport;
  }

  /**
   * The document the editor and the markdown preview show: redacted, and inert (no image or HTML
   * of the report loads anything from the network when it is previewed: a tracker would learn
   * when and where it was read).
   */
  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    return inertMarkdown(await this.redactedReport(uri, token));
  }

  /** Every way a report leaves (the preview, Copy, Save As, @unified's chat) goes through here: redacted. */
  private async redactedReport(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    return this.connection.redact(await this.readReport(uri, token));
  }

  private async readReport(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const id = jobIdOf(uri);
    const listed: ResearchJob = this.jobs.find(id) ?? { id, status: 'unknown' };
    const client = this.connection.setup.client;
    if (!client) return reportMarkdown(listed, undefined, 'no gateway address is set');
    const controller = new AbortController();
    const cancel = abortOnCancel(controller, token);
    try {
      const detail = await client.research.get(id, { signal: controller.signal, timeoutMs: 30_000 });
      return reportMarkdown(listed, detail);
    } catch (error) {
      const problem =
        error instanceof GatewayError && error.status === 404
          ? 'the gateway has no detail for this job (404)'
          : errorMessage(error);
      return reportMarkdown(listed, undefined, problem);
    } finally {
      cancel.dispose();
    }
  }

  /** Opens the report in the markdown preview (the source stays one click away). */
  async open(job: ResearchJob): Promise<void> {
    const uri = reportUri(job);
    this.opened.set(job.id, uri);
    this.changed.fire(uri);
    await vscode.commands.executeCommand('markdown.showPreview', uri);
    this.openedReport.fire(job);
    this.trackActiveReport();
  }

  /** Reads the report again: its document changes, and the markdown preview showing it follows. */
  async refresh(uri: vscode.Uri): Promise<void> {
    this.changed.fire(uri);
    await this.refreshPreviews([uri]);
  }

  /** Re-reads every open report of this job (e.g. when it finishes). Returns the reports refreshed. */
  async refreshJob(id: string): Promise<vscode.Uri[]> {
    const uris = new Map<string, vscode.Uri>();
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === REPORT_SCHEME && jobIdOf(document.uri) === id)
        uris.set(document.uri.toString(), document.uri);
    }
    const opened = this.opened.get(id);
    if (opened) uris.set(opened.toString(), opened);
    for (const uri of uris.values()) this.changed.fire(uri);
    await this.refreshPreviews([...uris.values()]);
    return [...uris.values()];
  }

  /**
   * A preview whose document the extension host has already let go of (VS Code drops documents no
   * editor shows after a while) does not hear onDidChange: the markdown extension's own refresh
   * makes it read the document again.
   */
  private async refreshPreviews(uris: readonly vscode.Uri[]): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs);
    const previewed = tabs.some(
      (tab) =>
        tab.input instanceof vscode.TabInputWebview &&
        /markdown\.preview/.test(tab.input.viewType) &&
        uris.some((uri) => previewLabelMatches(tab.label, uri)),
    );
    if (previewed) await vscode.commands.executeCommand('markdown.preview.refresh').then(undefined, () => undefined);
  }

  private trackActiveReport(): void {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    let uri: vscode.Uri | undefined;
    if (tab?.input instanceof vscode.TabInputText && tab.input.uri.scheme === REPORT_SCHEME) uri = tab.input.uri;
    else if (tab?.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(tab.input.viewType)) {
      const candidates = [
        ...this.opened.values(),
        ...vscode.workspace.textDocuments
          .map((document) => document.uri)
          .filter((candidate) => candidate.scheme === REPORT_SCHEME),
      ];
      uri = candidates.find((candidate) => previewLabelMatches(tab.label, candidate));
    }
    if (uri?.toString() === this.activeReport?.toString()) return;
    this.activeReport = uri;
    void vscode.commands.executeCommand('setContext', REPORT_ACTIVE_CONTEXT, uri !== undefined);
  }

  /** The report's markdown as the gateway wrote it (redacted), freshly read: for Copy, Save As and models. */
  async text(job: ResearchJob): Promise<string> {
    return this.redactedReport(reportUri(job), new vscode.CancellationTokenSource().token);
  }
}
