import type { CreditsMonitor } from '../account/creditsMonitor';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import type { ModelCatalog } from '../models/modelCatalog';
import type { ReportDocuments } from '../research/reportDocuments';
import type { ResearchJobs } from '../research/researchJobs';
import type { SearchIndexService } from '../search/searchIndexService';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';

/** What the language model tools use: the services the commands and views already use, never a second client. */
export interface LmToolDeps {
  readonly connection: GatewayConnection;
  /** Describes and reports failures the shared way (toolFailure turns them into words). */
  readonly failures: Failures;
  readonly catalog: ModelCatalog;
  readonly credits: CreditsMonitor;
  /** The Research view's own job list: a job a tool starts shows there like any other. */
  readonly research: ResearchJobs;
  readonly reports: ReportDocuments;
  readonly searchIndex: SearchIndexService;
  readonly workspaceFiles: WorkspaceFilesService;
  readonly log: Log;
}
