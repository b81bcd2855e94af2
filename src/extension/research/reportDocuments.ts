import * as vscode from 'vscode';
import { GatewayError, type ResearchJob } from '../../core/index';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { Disposable } from '../lifecycle';
import { jobTitle, reportMarkdown } from './jobPresentation';
import type { ResearchJobs } from './researchJobs';

export const REPORT_SCHEME = 'unified-inference-research';

/** `unified-inference-research:/<id>/<title>.md`: the title only makes the editor tab readable. */
export function reportUri(job: ResearchJob): vscode.Uri {
  const slug = jobTitle(job).replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'report';
  return vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${encodeURIComponent(job.id)}/${slug}.md` });
}

export function jobIdOf(uri: vscode.Uri): string {
  return decodeURIComponent(uri.path.split('/')[1] ?? '');
}

/**
 * Reports as read-only virtual markdown documents, built from `GET /research/{id}` (and what the
 * list gave, when the detail is unavailable). Shown in VS Code's markdown preview.
 */
export class ReportDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly connection: GatewayConnection,
    private readonly jobs: ResearchJobs,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this));
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const id = jobIdOf(uri);
    const listed: ResearchJob = this.jobs.find(id) ?? { id, status: 'unknown' };
    const client = this.connection.setup.client;
    if (!client) return reportMarkdown(listed, undefined, 'no gateway address is set');
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    try {
      const detail = await client.research.get(id, { signal: controller.signal, timeoutMs: 30_000 });
      return reportMarkdown(listed, detail);
    } catch (error) {
      const problem = error instanceof GatewayError && error.status === 404 ? 'the gateway has no detail for this job (404)' : error instanceof Error ? error.message : String(error);
      return reportMarkdown(listed, undefined, problem);
    } finally {
      cancel.dispose();
    }
  }

  /** Opens the report in the markdown preview (the source stays one click away). */
  async open(job: ResearchJob): Promise<void> {
    const uri = reportUri(job);
    this.changed.fire(uri);
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  }

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  /** The report's markdown, freshly read (for Copy and Save). */
  async text(job: ResearchJob): Promise<string> {
    return this.provideTextDocumentContent(reportUri(job), new vscode.CancellationTokenSource().token);
  }
}
